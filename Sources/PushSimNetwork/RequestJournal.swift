import PushSimKernel

/// Every call made over the network, in the order made, with its outcome once known: the
/// "read back what was really pushed at every layer" record users ask for.
public struct RequestJournal {
    public struct Entry: Sendable {
        public var sentAt: VirtualTime
        public var correlation: String
        /// Primary names of the caller and the callee.
        public var from: String
        public var to: String
        public var request: HTTPRequest
        /// Nil while the call is in flight.
        public var result: CallResult?
        public var completedAt: VirtualTime?
    }

    public private(set) var entries: [Entry] = []
    /// When false, nothing is kept (for very large runs).
    public var isRecording = true

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
