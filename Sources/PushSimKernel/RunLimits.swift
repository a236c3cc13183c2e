/// Upper bounds on a run. Hitting one ends the run as its own failure with a clear message
/// (design rule 12), never a hang.
public struct RunLimits: Sendable, Hashable {
    /// Most events the run may process. Default 20 million.
    public var maxEvents: Int
    /// Latest virtual time an event may be due. Default 10 years.
    public var maxTime: VirtualTime

    /// At most `maxEvents` events (default 20,000,000), none due after `maxTime` (default
    /// 3,650 days of virtual time, about 10 years).
    public init(maxEvents: Int = 20_000_000, maxTime: VirtualTime = .zero + .days(3_650)) {
        self.maxEvents = maxEvents
        self.maxTime = maxTime
    }
}

/// How a run ended.
public enum RunEnd: Equatable, Sendable {
    /// No event was left to run.
    case quiescent
    /// A stop time was reached with events still waiting.
    case stoppedAt(VirtualTime)
    /// A limit was hit; the message says which and how to raise it.
    case limitReached(String)

    /// Whether a limit ended the run (``limitReached(_:)``).
    public var isLimit: Bool { if case .limitReached = self { return true } else { return false } }
}
