import PushSimKernel

/// Latency and link faults as data (design rule 9): the world asks these rules, in order,
/// what happens to each message; the first verdict other than "deliver" wins.
public struct NetworkFaults: Sendable {
    /// One-way latency of a message, drawn uniformly in `latencyMin...latencyMax` from the
    /// `network` random stream. Default: 10 ms both, so runs without network settings draw nothing.
    public var latencyMin: VirtualDuration = .milliseconds(10)
    /// Upper end of the default latency range (see ``latencyMin``); default 10 ms.
    public var latencyMax: VirtualDuration = .milliseconds(10)
    /// Fault rules, asked in order for every message: the first that drops it decides (a loss
    /// rule that spares a message passes it on to the next).
    public var rules: [LinkFault] = []
    /// Latency of particular links (either direction), overriding the default range.
    public var linkLatency: [LinkLatency] = []

    /// No fault rules, no link latencies, and a constant 10 ms one-way latency.
    public init() {}

    /// What happens to one message.
    public enum Verdict: Equatable, Sendable {
        /// The message arrives after this one-way latency.
        case deliver(after: VirtualDuration)
        /// The message is lost; `label` says which injected fault took it.
        case drop(label: String)
    }

    /// Whether every message's latency is a constant (no range to draw from), so that messages
    /// on one link arrive in the order they were sent.
    public var latencyIsFixed: Bool { latencyMin == latencyMax && linkLatency.allSatisfy { $0.min == $0.max } }

    /// The latency of every message when there are no fault rules and no link latencies and the
    /// default latency is a constant (the verdict is then the same for every message), else nil.
    public var plainLatency: VirtualDuration? {
        rules.isEmpty && linkLatency.isEmpty && latencyMin == latencyMax ? latencyMin : nil
    }

    /// Decides the fate of a message from `a` to `b` (primary host names) sent at `t`: dropped
    /// by the first rule that takes it, else delivered after a latency from the last
    /// ``linkLatency`` entry for the link, or from the default range. Draws from `random` only for
    /// loss rules and latency ranges.
    public func verdict(from a: String, to b: String, at t: VirtualTime, random: inout SeededRandom) -> Verdict {
        if let latency = plainLatency { return .deliver(after: latency) }
        for rule in rules where rule.applies(from: a, to: b, at: t) {
            switch rule.effect {
            case .partition:
                return .drop(label: rule.label)
            case .loss(let ratio):
                if random.chance(ratio) { return .drop(label: rule.label) }
            }
        }
        var (low, high) = (latencyMin, latencyMax)
        if let link = linkLatency.last(where: { $0.connects(a, b) }) { (low, high) = (link.min, link.max) }
        if low == high { return .deliver(after: low) }
        let us = random.int(in: low.microseconds...high.microseconds)
        return .deliver(after: .microseconds(us))
    }
}

/// One fault rule on links between hosts.
public struct LinkFault: Sendable, Equatable {
    /// What a rule does to the messages it applies to.
    public enum Effect: Sendable, Equatable {
        /// Each message is lost with this probability.
        case loss(Ratio)
        /// Every message is lost.
        case partition
    }
    /// The hosts (primary names) whose links this rule is about: it applies to a message when both
    /// ends are in the list, in either direction (two names: one link; three: the links among
    /// them; one name: no link). Nil means every link.
    public var between: [String]?
    /// When the rule is in force, `[start, end)`; nil means always.
    public var window: Range<VirtualTime>?
    /// What the rule does to each message it applies to.
    public var effect: Effect

    /// A rule with `effect` on the link `between` names (nil: every link) during `window` (nil: always).
    public init(between: [String]? = nil, window: Range<VirtualTime>? = nil, effect: Effect) {
        self.between = between
        self.window = window
        self.effect = effect
    }

    /// A short description for the trace, e.g. `partition bob-iphone<->backend`.
    public var label: String {
        let link = between.map { $0.joined(separator: "<->") } ?? "all links"
        switch effect {
        case .partition: return "partition \(link)"
        case .loss(let r): return "loss \(r) \(link)"
        }
    }

    func applies(from a: String, to b: String, at t: VirtualTime) -> Bool {
        if let window, !window.contains(t) { return false }
        guard let between else { return true }
        return a != b && between.contains(a) && between.contains(b)
    }
}

/// The one-way latency of the link between two hosts (either direction), uniform in `min...max`.
public struct LinkLatency: Sendable, Equatable {
    /// The two hosts (primary names) the link joins, either direction.
    public var between: [String]
    /// The shortest one-way latency.
    public var min: VirtualDuration
    /// The longest one-way latency; equal to ``min`` for a constant one.
    public var max: VirtualDuration
    /// The link between the two hosts in `between`, with latencies uniform in `min...max`.
    public init(between: [String], min: VirtualDuration, max: VirtualDuration) {
        self.between = between
        self.min = min
        self.max = max
    }

    func connects(_ a: String, _ b: String) -> Bool {
        between.count == 2 && ((between[0] == a && between[1] == b) || (between[0] == b && between[1] == a))
    }
}
