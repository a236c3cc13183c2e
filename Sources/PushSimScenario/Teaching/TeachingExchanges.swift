import PushSimKernel

/// One HTTP exchange of a run, as the teaching page draws it: an arrow from the caller's lane to
/// the callee's, coloured by how it was answered. Built from the trace alone: an `http.request`
/// is paired with the first later `http.response` (or `http.failure`) between the same two hosts
/// in the same causal chain.
package struct TeachingExchange: Sendable, Equatable {
    /// How an exchange ended, which picks the arrow's colour.
    package enum Outcome: String, Sendable {
        /// 1xx–3xx.
        case ok
        /// 4xx other than 410.
        case refused
        /// 410 Gone: the registration, token or channel is no more.
        case gone
        /// 5xx.
        case error
        /// No answer: lost, timed out, unreachable.
        case failed
        /// Still waiting when the run ended.
        case open
    }

    /// Index of the `http.request` event in the trace.
    package var request: Int
    /// When the request was sent.
    package var time: VirtualTime
    /// The caller's host name and the callee's (its short name: `hub`, `apns`, a device).
    package var from: String
    /// The callee's short name.
    package var to: String
    /// The HTTP method (`POST`).
    package var method: String
    /// The request's path and query, as sent.
    package var target: String
    /// The causal chain (`c0007`), or empty.
    package var chain: String
    /// The answer's status, when one came.
    package var status: Int?
    /// Why no answer came (`timed out`, `unreachable`), when it failed.
    package var failure: String?
    /// True when an injected fault lost a message of this exchange or made up its answer.
    package var injected = false

    /// How the page colours the arrow: by the status's class, 410 apart, or the failure.
    package var outcome: Outcome {
        if let status {
            switch status {
            case 410: return .gone
            case 400..<500: return .refused
            case 500...: return .error
            default: return .ok
            }
        }
        return failure == nil ? .open : .failed
    }

    /// The answer in words: `201 Created`, `no answer (timed out)`, `no answer yet`.
    package var answer: String {
        if let status { return "\(status)" + SequenceDiagram.statusWord("\(status)") }
        return failure.map { "no answer (\($0))" } ?? "no answer yet"
    }
}

extension TeachingExchange {
    /// Every exchange of `trace`, in the order the requests were sent.
    package static func all(in trace: [TraceEvent]) -> [TeachingExchange] {
        var exchanges: [TeachingExchange] = []
        var open: [String: [Int]] = [:]     // "caller|chain" → exchanges still waiting (looked up only)
        var authority: [Int: String] = [:]  // exchange → the `to` host name the request named
        var answered: [String: Int] = [:]   // "caller|chain" → the exchange answered last (looked up only)
        func key(_ caller: String, _ chain: String) -> String { caller + "|" + chain }
        /// The oldest open exchange from `caller` in `chain` to `callee` (short or full name).
        func take(_ caller: String, _ chain: String, _ callee: String, remove: Bool) -> Int? {
            guard let list = open[key(caller, chain)],
                  let at = list.firstIndex(where: { exchanges[$0].to == callee || authority[$0] == callee }) else { return nil }
            let index = list[at]
            if remove { open[key(caller, chain)]!.remove(at: at) }
            return index
        }
        for (i, e) in trace.enumerated() {
            switch e.kind {
            case .httpRequest:
                let to = e[.callee]?.description ?? e[.to]?.description ?? "?"
                exchanges.append(TeachingExchange(request: i, time: e.time, from: e.host, to: to,
                                                  method: e[.method]?.description ?? "", target: e[.target]?.description ?? "",
                                                  chain: e.correlation))
                authority[exchanges.count - 1] = e[.to]?.description
                open[key(e.host, e.correlation), default: []].append(exchanges.count - 1)
            case .httpResponse:
                guard let caller = e[.to]?.description, let x = take(caller, e.correlation, e.host, remove: true) else { continue }
                exchanges[x].status = Int(e[.status]?.description ?? "")
                answered[key(caller, e.correlation)] = x
            case .httpFailure:
                guard let x = take(e.host, e.correlation, e[.to]?.description ?? "", remove: true) else { continue }
                let error = e[.error]?.description ?? "failed"
                exchanges[x].failure = exchanges[x].failure.map { "\($0), then \(error)" } ?? error
            case .faultInjected:
                // A lost request is recorded at the caller, naming the callee; a lost answer at the
                // callee, naming the caller (the exchange waits on, for its timeout); a made-up answer
                // at the callee.
                if e[.lost]?.description == "response", let caller = e[.to]?.description,
                   let x = answered[key(caller, e.correlation)], exchanges[x].to == e.host {
                    exchanges[x].failure = "its \(exchanges[x].answer) answer was lost"
                    exchanges[x].status = nil
                    exchanges[x].injected = true
                    open[key(caller, e.correlation), default: []].append(x)
                } else if let lostTo = e[.to]?.description, let x = take(e.host, e.correlation, lostTo, remove: false) {
                    exchanges[x].injected = true
                } else if let x = exchanges.indices.reversed().prefix(64).first(where: {
                    exchanges[$0].to == e.host && exchanges[$0].chain == e.correlation && exchanges[$0].status == nil
                }) {
                    exchanges[x].injected = true
                }
            default: continue
            }
        }
        return exchanges
    }
}

/// One causal chain: everything that happened because of one user action or timer, labelled by
/// the scenario step that started it.
package struct TeachingChain: Sendable, Equatable {
    /// `c0007`, or empty for events outside any chain.
    package var id: String
    /// The scenario step that started it (`bob-iphone login bob`), else what its first event was.
    package var label: String
    /// The time of its first event.
    package var start: VirtualTime
    /// The time of its last event.
    package var end: VirtualTime
    /// Indices of its events in the trace, in order.
    package var events: [Int]

    /// The run's chains in the order they started, each with its events in trace order.
    package static func all(in trace: [TraceEvent]) -> [TeachingChain] {
        var chains: [TeachingChain] = []
        var position: [String: Int] = [:]   // chain id → index in `chains` (looked up only)
        for (i, e) in trace.enumerated() {
            if let at = position[e.correlation] {
                chains[at].events.append(i)
                chains[at].end = e.time
                if e.kind == .scenarioStep, chains[at].events.count == 1 { chains[at].label = e[.step]?.description ?? "" }
                continue
            }
            position[e.correlation] = chains.count
            let label = e.kind == .scenarioStep ? (e[.step]?.description ?? "") : "\(e.host): \(e.kind)"
            chains.append(TeachingChain(id: e.correlation, label: label, start: e.time, end: e.time, events: [i]))
        }
        return chains
    }
}
