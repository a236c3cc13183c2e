import PushSimKernel

/// A run as one self-contained HTML page a student can step through offline: swim-lanes with an
/// arrow per exchange grouped by causal chain, a step-through (buttons and keys) showing the state
/// every step left (hub registrations and tags, what the push services keep and which handles
/// they declared dead, each device's handle and what it shows), the expectations' and invariants'
/// verdicts pinned to the steps that decided them (failures first), and a map of which part of
/// PushSim's code plays each lane. Several runs (a defect's tutorial run and its hardened twin)
/// stand side by side.
///
/// No network: no external script, font, stylesheet or image; a Content-Security-Policy of
/// `default-src 'none'` forbids the page any request. Deterministic: the same runs give the same
/// bytes. Large runs degrade: past ``Limits`` the page says what it left out.
package enum TeachingPage {
    /// How much of a run the page draws. The state tables stay exact whatever the limits.
    package struct Limits: Sendable {
        /// Device lanes drawn; the other devices share one lane.
        package var deviceLanes = 12
        /// Rows of the swim-lane diagram (arrows and shown notifications): the first chains' and
        /// the last chains'.
        package var diagramRows = 1_000
        /// Rows drawn per causal chain.
        package var chainRows = 80
        /// Steps of the step-through: the first two thirds and the last third of them.
        package var steps = 1_500
        /// Rows per state table; the rest are counted in a `… N more` row.
        package var tableRows = 40
        /// The defaults above.
        package init() {}
    }

    /// One run on the page and its heading (`tutorial (as written)`, `hardened twin`).
    package struct Run: Sendable {
        /// The run's heading.
        package var title: String
        /// What the run did.
        package var report: ScenarioReport
        /// True for a twin run whose expectations were written for another run: an expectation
        /// it does not meet is marked `changed` (the fix at work), not failed.
        package var expectationsFromAnotherRun: Bool
        /// A run whose expectations are its own unless said otherwise.
        package init(title: String, report: ScenarioReport, expectationsFromAnotherRun: Bool = false) {
            self.title = title; self.report = report; self.expectationsFromAnotherRun = expectationsFromAnotherRun
        }
    }

    /// Pixels a run's section adds around its diagram: padding 12 and border 2 on each side, and
    /// the diagram box's border.
    static let runChrome = 2 * (12 + 2) + 2

    /// The page for `runs` (one, or two side by side).
    ///
    /// Two runs stand side by side only when the window is wide enough for both diagrams at full
    /// size, with the page's padding and the gap between them; under that width they stand one
    /// above the other, every lane of each in view. The `side by side` button puts them side by
    /// side anyway, the diagrams scaled down to fit.
    package static func html(_ runs: [Run], limits: Limits = Limits()) -> String {
        precondition(!runs.isEmpty, "a teaching page needs at least one run")
        let first = runs[0].report
        let models = runs.map { TeachingRunModel($0, limits: limits) }
        let widest = models.map { diagramWidth(lanes: $0.lanes.count) }.max() ?? 0
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(TeachingHTML.text("PushSim: \(first.scenario.name)"))</title>\n<style>\(css)\nmain.runs{--run:\(widest + runChrome)px}</style>\n</head>\n<body>\n"
        out += "<header><h1>\(TeachingHTML.text(first.scenario.name))</h1><p>\(TeachingHTML.text(first.scenario.path)) · "
            + "made by <code>pushsim</code> from the run's trace alone · keys: ← → step, [ ] chain, f next failure, Home End"
            + (runs.count > 1 ? ", 1 2 pick a run · <button type=\"button\" class=\"layout\" aria-pressed=\"false\" "
                + "title=\"side by side, the diagrams scaled down to fit; else side by side only when both fit at full size (\(sideBySideWidth(widest)) px or wider)\">side by side</button>" : "")
            + "</p></header>\n"
        out += "<main class=\"runs n\(runs.count)\">\n"
        for (r, model) in models.enumerated() {
            out += section(model, r: r, limits: limits)
        }
        out += "</main>\n<footer>\(legend)</footer>\n<script>\(script)</script>\n</body>\n</html>\n"
        return out
    }

    /// One run's part of the page.
    static func section(_ run: TeachingRunModel, r: Int, limits: Limits) -> String {
        let report = run.report
        let failed = run.badges.filter { !$0.passed && $0.enforced }.count
        var out = "<section class=\"run\" id=\"r\(r)\" tabindex=\"0\">\n"
        out += "<h2>\(TeachingHTML.text(run.title))</h2>\n<p class=\"sum\">\(TeachingHTML.text(summary(report))) · "
            + (failed == 0 ? "<span class=\"ok\">passed</span>" : "<span class=\"bad\">\(failed) failed</span>") + "</p>\n"
        out += "<h3>Verdicts (failures first; click one to see the step that decided it)</h3>\n"
        if run.badges.contains(where: \.changed) {
            out += "<p class=\"sum\">The expectations were written for the run as written: CHANGED marks an outcome the fix changed.</p>\n"
        }
        out += "<ol class=\"verdicts\">"
        for b in run.badges {
            let cls = b.verdict
            out += "<li class=\"\(cls)\" data-step=\"\(b.step)\"><b>\(cls.uppercased())</b> \(TeachingHTML.text(b.label))"
                + (b.detail.isEmpty ? "" : "<br><small>\(TeachingHTML.text(b.detail))</small>") + " <small>(step \(b.step + 1))</small></li>"
        }
        out += "</ol>\n"
        out += "<div class=\"controls\"><button data-act=\"first\" title=\"first step (Home)\">« first</button><button data-act=\"prev\" title=\"previous step (←)\">‹ back</button>"
            + "<button data-act=\"next\" title=\"next step (→)\">next ›</button><button data-act=\"last\" title=\"last step (End)\">last »</button>"
            + "<button data-act=\"chain\" title=\"next causal chain (])\">next chain</button><button data-act=\"fail\" title=\"next failure (f)\">next failure</button>"
            + "<input type=\"range\" min=\"0\" max=\"\(max(run.steps.count - 1, 0))\" value=\"0\" aria-label=\"step\"><span class=\"pos\"></span></div>\n"
        out += "<div class=\"now\" aria-live=\"polite\"><div class=\"what\"></div><ul class=\"here\"></ul></div>\n"
        if run.totalSteps > run.steps.count {
            out += "<p class=\"cap\">The step-through shows \(run.steps.count - 1) of \(run.totalSteps) steps, the first and the last ones, "
                + "and jumps over the rest in one step (the page keeps to about 2 MB); <code>pushsim run … --timeline</code> prints them all.</p>\n"
        }
        out += "<div class=\"state\">"
        for panel in TeachingRows.panels where panel.id == "devices" || panel.id == "hub" || run.lanes.contains(where: { $0.host == panel.id }) {
            out += "<table data-panel=\"\(panel.id)\"><caption>\(TeachingHTML.text(panel.title))</caption><thead><tr>"
                + panel.columns.map { "<th>\(TeachingHTML.text($0))</th>" }.joined() + "</tr></thead><tbody></tbody></table>"
        }
        out += "</div>\n"
        let (svg, omitted) = lanesSVG(run, r: r, limits: limits)
        out += "<h3>Swim-lanes, grouped by causal chain</h3>\n"
        if omitted > 0 || report.scenario.devices.count > limits.deviceLanes {
            out += "<p class=\"cap\">This diagram draws at most \(limits.diagramRows) rows (the first and the last chains', "
                + "at most \(limits.chainRows) each) and \(limits.deviceLanes) device lanes: \(omitted) rows are left out"
                + (report.scenario.devices.count > limits.deviceLanes ? ", and \(report.scenario.devices.count - limits.deviceLanes) devices share one lane" : "") + ".</p>\n"
        }
        out += "<div class=\"diagram\">\(svg)</div>\n"
        out += "<details class=\"map\"><summary>The layers: which code plays each lane</summary><table><thead><tr><th>lane</th><th>Swift type</th><th>target</th><th>source</th><th>role</th></tr></thead><tbody>"
        for lane in run.lanes + TeachingLane.infrastructure {
            out += "<tr>" + [lane.title, lane.swiftType, lane.target, lane.file, lane.role].map { "<td>\(TeachingHTML.text($0))</td>" }.joined() + "</tr>"
        }
        out += "</tbody></table></details>\n"
        out += "<script type=\"application/json\" class=\"data\">\(data(run))</script>\n</section>\n"
        return out
    }

    /// The step-through's data, read by the page's script (every string through `scriptJSON`).
    static func data(_ run: TeachingRunModel) -> String {
        func ops(_ changes: [TeachingRowChange]) -> String {
            "[" + changes.map { c in
                "[" + TeachingHTML.scriptJSON(c.panel) + "," + TeachingHTML.scriptJSON(c.key) + "," + (c.cells.map { TeachingHTML.scriptJSON($0) } ?? "null") + "]"
            }.joined(separator: ",") + "]"
        }
        var labels: [String: String] = [:]   // chain → label (looked up only)
        for chain in run.chains { labels[chain.id] = chain.label }
        var out = "{\"init\":" + ops(run.initialRows) + ",\n\"steps\":["
        out += run.steps.map { s in
            "[" + TeachingHTML.scriptJSON(s.time.description) + "," + TeachingHTML.scriptJSON(s.chain) + ","
                + TeachingHTML.scriptJSON(s.chain.isEmpty ? "" : labels[s.chain] ?? "") + "," + TeachingHTML.scriptJSON(s.text) + ","
                + (s.exchange.map(String.init) ?? "-1") + "," + ops(s.changes) + "]"
        }.joined(separator: ",\n")
        out += "],\n\"badges\":[" + run.badges.map { b in
            "[\(b.step)," + TeachingHTML.scriptJSON(b.verdict) + "," + TeachingHTML.scriptJSON(b.label) + ","
                + TeachingHTML.scriptJSON(b.detail) + "]"
        }.joined(separator: ",") + "]}"
        return out
    }

    /// The narrowest window (CSS pixels, without a scrollbar) in which two runs whose widest
    /// diagram is `widest` pixels stand side by side at full size: the page's padding (12 each
    /// side), two sections and the gap between them (12).
    static func sideBySideWidth(_ widest: Int) -> Int { 2 * 12 + 2 * (widest + runChrome) + 12 }

    static func summary(_ report: ScenarioReport) -> String {
        let how: String
        switch report.end {
        case .quiescent: how = "nothing left to run"
        case .stoppedAt(let t): how = "stopped at \(t)"
        case .limitReached(let m): how = "limit reached: \(m)"
        }
        return "seed \(report.seed) · \(report.events) events to \(report.finalTime) (\(how)) · \(report.settingsSummary)"
    }
}
