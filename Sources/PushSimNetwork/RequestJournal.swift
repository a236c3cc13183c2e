import PushSimKernel

/// Every call made over the network, in the order made, with its outcome once known: the
/// "read back what was really pushed at every layer" record users ask for.
public struct RequestJournal {
    /// One call: when and in which causal chain it was made, between whom, what was sent, how it ended.
    public struct Entry: Sendable {
        /// When the call was made.
        public var sentAt: VirtualTime
        /// The causal chain the call was made in, e.g. `c0007`.
        public var correlation: String
        /// Primary names of the caller and the callee.
        public var from: String
        /// The callee's primary name, or the request's authority when no host answers to it.
        public var to: String
        /// The request as it left the caller.
        public var request: HTTPRequest
        /// Nil while the call is in flight.
        public var result: CallResult?
        /// When the result arrived; nil while the call is in flight.
        public var completedAt: VirtualTime?
    }

    /// Every call recorded, in the order made.
    public private(set) var entries: [Entry] = []
    /// When false, nothing is kept (for very large runs).
    public var isRecording = true

    /// An empty journal that records.
    public init() {}

    mutating func begin(_ entry: Entry) -> Int? {
        guard isRecording else { return nil }
        entries.append(entry)
        return entries.count - 1
    }

    mutating func complete(_ index: Int?, with result: CallResult, at t: VirtualTime) {
        guard let index else { return }
        entries[index].result = result
        entries[index].completedAt = t
    }

    /// Entries whose request went to `host` (primary name).
    public func requests(to host: String) -> [Entry] { entries.filter { $0.to == host } }
}
