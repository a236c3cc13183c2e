import PushSimKernel

/// The swim-lane diagram: one column per lane, one row per exchange (an arrow from caller to
/// callee, coloured by its outcome) or per notification a device shows, grouped by causal chain
/// (a labelled band per chain, chains in the order they started, each chain's rows in trace
/// order). Inline SVG; every text escaped.
///
/// Lanes are compact (120 px, headers in 10 px type cut to ``laneLabel`` characters) so that the
/// eleven lanes of the largest defect page fit a 1600-pixel window; a diagram wider than its box
/// is scaled down to fit it (down to ``smallestScale``, then the box scrolls).
extension TeachingPage {
    static let laneWidth = 120, leftMargin = 72, headerHeight = 52, rowHeight = 18, chainHeight = 22
    /// Characters of a lane's heading lines (host, platform and user, Swift type) in 10 px type.
    static let laneLabel = 18
    /// Width of one character of an arrow's label (11 px monospace), to keep labels inside the diagram.
    static let labelCharWidth = 6.7
    /// The smallest a diagram is scaled to fit its box before the box scrolls instead.
    static let smallestScale = 0.6

    /// The width of a diagram of `lanes` lanes, in pixels.
    static func diagramWidth(lanes: Int) -> Int { leftMargin + lanes * laneWidth }

    /// The diagram of `run` (index `r` on the page), and how many rows it left out.
    static func lanesSVG(_ run: TeachingRunModel, r: Int, limits: Limits) -> (svg: String, omitted: Int) {
        let trace = run.report.trace
        var laneIndex: [String: Int] = [:]   // host → column (looked up only)
        for (i, lane) in run.lanes.enumerated() { laneIndex[lane.host] = i }
        let more = laneIndex[TeachingLane.moreDevices]
        func column(_ host: String) -> Int? { laneIndex[host] ?? (run.deviceNames.contains(host) ? more : nil) }
        func x(_ column: Int) -> Int { leftMargin + column * laneWidth + laneWidth / 2 }

        var exchangeOf: [Int: Int] = [:]     // request event → exchange (looked up only)
        for (i, ex) in run.exchanges.enumerated() { exchangeOf[ex.request] = i }
        var stepOf: [Int: Int] = [:]         // event → step (looked up only)
        for (i, s) in run.steps.enumerated() { stepOf[s.event] = i }

        // Which rows to draw: each chain's first `chainRows`; chains from the start while two
        // thirds of `diagramRows` last, then from the end for the rest; one band says what is left out.
        let rowsOf: [[Int]] = run.chains.map { chain in chain.events.filter { exchangeOf[$0] != nil || trace[$0].kind == .notificationShown } }
        let total = rowsOf.reduce(0) { $0 + $1.count }
        var drawnChains = Array(repeating: 0, count: rowsOf.count)   // rows drawn per chain
        var budget = limits.diagramRows * 2 / 3
        var c = 0
        while c < rowsOf.count, budget > 0 { drawnChains[c] = min(rowsOf[c].count, limits.chainRows, budget); budget -= drawnChains[c]; c += 1 }
        let headEnd = c
        budget += limits.diagramRows - limits.diagramRows * 2 / 3
        var t = rowsOf.count - 1
        while t >= headEnd, budget > 0 { drawnChains[t] = min(rowsOf[t].count, limits.chainRows, budget); budget -= drawnChains[t]; t -= 1 }
        let omitted = total - drawnChains.reduce(0, +)

        var body = ""
        var y = headerHeight
        func band(_ c: Int, _ label: String, rows: Int) {
            body += "<g class=\"ch\" id=\"r\(r)c\(c)\"><rect class=\"b\(c % 2)\" x=\"0\" y=\"\(y)\" width=\"\(leftMargin + run.lanes.count * laneWidth)\" "
                + "height=\"\(chainHeight + rows * rowHeight)\"/><text class=\"cl\" x=\"4\" y=\"\(y + 15)\">\(TeachingHTML.text(label))</text></g>\n"
            y += chainHeight
        }
        for (c, chain) in run.chains.enumerated() where !rowsOf[c].isEmpty {
            if c == t + 1, t >= headEnd {
                let skipped = (headEnd...t).filter { !rowsOf[$0].isEmpty }.count
                band(c, "… \(skipped) causal chains left out here (the page draws the first and the last)", rows: 0)
            }
            let visible = rowsOf[c].prefix(drawnChains[c])
            guard !visible.isEmpty else { continue }
            let more = rowsOf[c].count - visible.count
            band(c, "\(chain.id.isEmpty ? "no chain" : chain.id) · \(chain.start) · \(TeachingHTML.elide(chain.label, 90))"
                 + (more > 0 ? " (\(visible.count) of \(rowsOf[c].count) rows drawn)" : ""), rows: visible.count)
            for event in visible {
                let e = trace[event]
                let step = stepOf[event].map { " data-step=\"\($0)\"" } ?? ""
                let time = "<text class=\"t\" x=\"4\" y=\"\(y + 13)\">\(TeachingHTML.text(shortTime(e.time)))</text>"
                if let i = exchangeOf[event], let from = column(run.exchanges[i].from), let to = column(run.exchanges[i].to) {
                    body += arrow(run.exchanges[i], id: "r\(r)x\(i)", markers: "r\(r)", step: step, from: x(from), to: x(to), y: y, time: time,
                                  width: diagramWidth(lanes: run.lanes.count))
                } else if e.kind == .notificationShown, let at = column(e.host) {
                    let text = "\(e.host) shows \u{201C}\(TeachingHTML.elide(e[.text]?.description ?? "", 40))\u{201D}"
                    body += "<g class=\"n\"\(step)><title>\(TeachingHTML.text("\(e.time) \(e.host) shows \"\(e[.text]?.description ?? "")\""))</title>\(time)"
                        + "<circle cx=\"\(x(at))\" cy=\"\(y + 9)\" r=\"5\"/>" + label(text, at: x(at) + 9, y: y + 13, width: diagramWidth(lanes: run.lanes.count)) + "</g>\n"
                } else {
                    body += "<g class=\"x open\"\(step)>\(time)</g>\n"
                }
                y += rowHeight
            }
        }
        let width = diagramWidth(lanes: run.lanes.count)
        var head = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lanes\" width=\"\(width)\" height=\"\(y + 8)\" viewBox=\"0 0 \(width) \(y + 8)\" "
            + "style=\"min-width:\(Int(Double(width) * smallestScale))px\" role=\"img\">"
            + "<title>\(TeachingHTML.text("Swim-lanes of \(run.report.scenario.name)"))</title>\n<defs>"
        for outcome in ["ok", "refused", "gone", "error", "failed", "open"] {
            head += "<marker id=\"r\(r)m-\(outcome)\" class=\"m-\(outcome)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\"/></marker>"
        }
        head += "</defs>\n"
        for (i, lane) in run.lanes.enumerated() {
            head += "<line class=\"ll\" x1=\"\(x(i))\" y1=\"\(headerHeight - 6)\" x2=\"\(x(i))\" y2=\"\(y + 8)\"/>"
                + "<text class=\"lt\" x=\"\(x(i))\" y=\"13\"><title>\(TeachingHTML.text(lane.title))</title>\(TeachingHTML.text(TeachingHTML.elide(lane.host, laneLabel)))</text>"
                + "<text class=\"ls\" x=\"\(x(i))\" y=\"26\">\(TeachingHTML.text(TeachingHTML.elide(subtitle(lane), laneLabel)))</text>"
                + "<text class=\"ls\" x=\"\(x(i))\" y=\"39\">\(TeachingHTML.text(TeachingHTML.elide(lane.swiftType, laneLabel)))</text>\n"
        }
        return (head + body + "</svg>", omitted)
    }

    /// One exchange's arrow and label (a loop when a host calls itself). A label that would run past
    /// the diagram's right edge (`width`) ends at that edge instead.
    static func arrow(_ ex: TeachingExchange, id: String, markers: String, step: String, from: Int, to: Int, y: Int, time: String,
                      width: Int) -> String {
        let outcome = ex.outcome.rawValue
        let cls = "x \(outcome)" + (ex.injected ? " inj" : "")
        let tip = "\(ex.time) [\(ex.chain)] \(ex.from) → \(ex.to): \(ex.method) \(ex.target) → \(ex.answer)" + (ex.injected ? " (injected fault)" : "")
        let label = TeachingHTML.elide("\(ex.method) \(pathOnly(ex.target))", 34) + " → " + (ex.status.map(String.init) ?? (ex.failure == nil ? "…" : "✕"))
        let line = from == to
            ? "<path d=\"M\(from),\(y + 5)h24v8h-24\" marker-end=\"url(#\(markers)m-\(outcome))\"/>"
            : "<line x1=\"\(from)\" y1=\"\(y + 12)\" x2=\"\(to)\" y2=\"\(y + 12)\" marker-end=\"url(#\(markers)m-\(outcome))\"/>"
        return "<g class=\"\(cls)\" id=\"\(id)\"\(step)><title>\(TeachingHTML.text(tip))</title>\(time)\(line)"
            + Self.label(label, at: from == to ? from + 28 : min(from, to) + 6, y: y + 9, width: width) + "</g>\n"
    }

    /// A label starting at `x`, or ending at the diagram's right edge when it would run past it.
    static func label(_ text: String, at x: Int, y: Int, width: Int) -> String {
        Double(x) + Double(text.count) * labelCharWidth <= Double(width - 4)
            ? "<text x=\"\(x)\" y=\"\(y)\">\(TeachingHTML.text(text))</text>"
            : "<text x=\"\(width - 4)\" y=\"\(y)\" text-anchor=\"end\">\(TeachingHTML.text(text))</text>"
    }

    /// A lane's second line: its title without the host name it starts with (`(ios, bob)`).
    static func subtitle(_ lane: TeachingLane) -> String {
        lane.title.hasPrefix(lane.host) ? String(lane.title.dropFirst(lane.host.count)).trimmingSpaces : lane.title
    }

    /// `/api/register?handle=…` without its query, for short labels.
    static func pathOnly(_ target: String) -> String { String(target.prefix { $0 != "?" }) }

    /// `00:01.040` for the first hour of day 0, else the full virtual time.
    static func shortTime(_ t: VirtualTime) -> String {
        let s = t.description
        return s.hasPrefix("0+00:") ? String(s.dropFirst(5)) : s
    }
}

extension String {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
