import PushSimKernel

/// One step of a run's step-through: a trace event worth a sentence, an exchange, or a change
/// of state, with the rows of the state tables it changed.
package struct TeachingStep: Sendable, Equatable {
    /// Index of the event in the trace.
    package var event: Int
    /// When the event happened.
    package var time: VirtualTime
    /// Its causal chain (`c0007`), or empty.
    package var chain: String
    /// What happened, in a sentence (``Explanation``'s, else the event's kind and fields).
    package var text: String
    /// The exchange this step sends, as an index into the run's exchanges.
    package var exchange: Int?
    /// The rows of the state tables this step changed.
    package var changes: [TeachingRowChange]
}

extension TeachingStep {
    /// The steps of `report`, in trace order, and the table rows before the first one. Events that
    /// neither send, nor say anything worth a sentence, nor change a table are left out
    /// (`http.response` colours its request's arrow instead). Stops after `limit` steps.
    static func all(_ report: ScenarioReport, exchanges: [TeachingExchange], maxRows: Int, limit: Int)
        -> (initial: [TeachingRowChange], steps: [TeachingStep], total: Int) {
        let names = report.scenario.devices.map(\.name)
        var state = TeachingState(devices: names)
        var rows = TeachingRows(maxRows: maxRows, devices: names)
        let initial = rows.initial(state, devices: names)
        var exchangeAt: [Int: Int] = [:]   // request event → exchange (looked up only)
        for (i, x) in exchanges.enumerated() { exchangeAt[x.request] = i }
        var steps: [TeachingStep] = []
        var total = 0
        let roles = Explanation.Roles(report)
        for (i, e) in report.trace.enumerated() where e.kind != .httpResponse {
            let touched = state.apply(e)
            let exchange = exchangeAt[i]
            let sentence = Explanation.sentence(e, roles)
            guard exchange != nil || sentence != nil || !touched.isEmpty || e[.defect] != nil else { continue }
            total += 1
            var text = sentence ?? plain(e)
            if let x = exchange { text += " → \(exchanges[x].answer)" + (exchanges[x].injected ? " (injected fault)" : "") }
            if let defect = e[.defect], sentence?.contains("defect") != true { text += " (tutorial defect \(defect))" }
            steps.append(TeachingStep(event: i, time: e.time, chain: e.correlation, text: text, exchange: exchange,
                                      changes: touched.flatMap { rows.changes(for: $0, in: state) }))
        }
        return (initial, elided(steps, limit: limit), total)
    }

    /// At most `limit` steps: the first two thirds and the last third of them, and between them one
    /// step that carries every table change of the steps left out (so the tables stay exact; it
    /// is small, since the tables list a bounded number of rows).
    static func elided(_ steps: [TeachingStep], limit: Int) -> [TeachingStep] {
        guard steps.count > limit, limit >= 3 else { return steps }
        let head = limit * 2 / 3, tail = limit - head - 1
        let gap = steps[head..<(steps.count - tail)]
        var merged: [TeachingRowChange] = []
        var position: [String: Int] = [:]   // "panel|key" → index in `merged` (looked up only)
        for change in gap.lazy.flatMap(\.changes) {
            let key = change.panel + "|" + change.key
            if let at = position[key] { merged[at] = change } else { position[key] = merged.count; merged.append(change) }
        }
        let first = gap.first!
        let note = TeachingStep(event: first.event, time: first.time, chain: "",
                                text: "… \(gap.count) steps left out here, from \(first.time) to \(gap.last!.time) (the page keeps to about 2 MB): "
                                    + "the tables jump to the state those steps left",
                                exchange: nil, changes: merged)
        return Array(steps[..<head]) + [note] + Array(steps[(steps.count - tail)...])
    }

    /// An event with no sentence of its own: who, what, and its fields.
    static func plain(_ e: TraceEvent) -> String {
        let fields = e.fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(e.host): \(e.kind)" + (fields.isEmpty ? "" : " " + fields)
    }
}

/// An expectation's or invariant's verdict, pinned to the step that decided it.
package struct TeachingBadge: Sendable, Equatable {
    /// Whether it held.
    package var passed: Bool
    /// False for a broken invariant that does not fail the run (a tutorial flavour is in use).
    package var enforced: Bool
    /// The expectation as written, or `invariant <name>`.
    package var label: String
    /// What was seen instead, or the first violation.
    package var detail: String
    /// The step that decided it (index into the steps).
    package var step: Int
    /// An expectation written for another run (a hardened twin's) that this run does not meet.
    package var changed = false

    /// `pass`, `fail`, `note` (a broken invariant not enforced) or `changed`: the page's word and class.
    package var verdict: String { passed ? "pass" : changed ? "changed" : enforced ? "fail" : "note" }

    /// Failures first (enforced before noted), then passes; the run's order within each.
    static func ordered(_ badges: [TeachingBadge]) -> [TeachingBadge] {
        func rank(_ b: TeachingBadge) -> Int { b.passed ? 2 : (b.enforced ? 0 : 1) }   // changed: not enforced
        return badges.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// The verdicts of `report`: every expectation, every invariant, and a run limit if one was hit.
    static func all(_ report: ScenarioReport, steps: [TeachingStep], expectationsFromAnotherRun: Bool = false) -> [TeachingBadge] {
        let trace = report.trace
        let last = max(steps.count - 1, 0)
        /// The last step at or before trace event `i`.
        func step(event i: Int) -> Int {
            var lo = 0, hi = steps.count - 1, found = 0
            while lo <= hi { let mid = (lo + hi) / 2; if steps[mid].event <= i { found = mid; lo = mid + 1 } else { hi = mid - 1 } }
            return found
        }
        func step(time t: VirtualTime?) -> Int {
            guard let t else { return last }
            return step(event: trace.lastIndex { $0.time <= t } ?? 0)
        }
        func shown(_ device: String, _ by: VirtualTime?) -> [Int] {
            trace.indices.filter { trace[$0].kind == .notificationShown && trace[$0].host == device && trace[$0].time <= (by ?? trace[$0].time) }
        }
        var badges: [TeachingBadge] = report.results.map { r in
            let e = r.expectation
            var decided: Int?
            switch e.kind {
            case .shows(let d, let text) where r.passed: decided = shown(d, e.by).first { trace[$0][.text]?.description == text }
            case .neverShows(let d, let text) where !r.passed: decided = shown(d, e.by).first { trace[$0][.text]?.description == text }
            case .showsNothing(let d) where !r.passed: decided = shown(d, e.by).first
            case .showsCount(let d, let n) where r.passed && n > 0: decided = shown(d, e.by).dropFirst(n - 1).first
            case .showsInOrder(let d, let texts) where r.passed: decided = shown(d, e.by).last { trace[$0][.text]?.description == texts.last }
            case .status(let d, let operation, let code, .any) where r.passed:
                decided = trace.indices.first { trace[$0].kind == .appCallResult && trace[$0].host == d
                    && trace[$0][.operation]?.description == operation.rawValue
                    && code.matches(trace[$0][.result].flatMap { Int($0.description) }) }
            default: decided = nil
            }
            let changed = expectationsFromAnotherRun && !r.passed
            return TeachingBadge(passed: r.passed, enforced: !changed, label: "\(e.location.line):\(e.location.column) \(e.source)",
                                 detail: r.seen, step: decided.map { step(event: $0) } ?? step(time: e.by), changed: changed)
        }
        for inv in report.invariants {
            var at = last
            // A violation starts with its time and names its chain in brackets: the state after
            // the last event of that chain at that time is the one that broke it.
            if let first = inv.violations.first, let t = first.split(separator: " ").first.map(String.init) {
                let chain = first.split(separator: "[").last?.split(separator: "]").first.map(String.init)
                let at0 = trace.lastIndex { $0.time.description == t && (chain == nil || $0.correlation == chain) }
                at = step(event: at0 ?? trace.count - 1)
            }
            badges.append(TeachingBadge(passed: inv.holds, enforced: inv.enforced, label: "invariant: \(inv.name)",
                                        detail: inv.holds ? inv.statement : inv.violations.first ?? "", step: at))
        }
        if case .limitReached(let message) = report.end {
            badges.append(TeachingBadge(passed: false, enforced: true, label: "run limit", detail: message, step: last))
        }
        return ordered(badges)
    }
}
