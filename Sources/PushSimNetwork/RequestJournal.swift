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
        /// The label of the injected fault that decided the answer (a service's outage, a token's
        /// refusal, a lost answer), if one did: an injected answer is never taken for a bug.
        public var injected: String?
    }

    /// The calls kept, in the order made: every call recorded, unless ``retention`` dropped the
    /// oldest. Call number `n` of the journal (counting from 0 since the world began) is
    /// `entries[n - dropped]`.
    public private(set) var entries: [Entry] = []
    /// When false, nothing is kept (for very large runs).
    public var isRecording = true
    /// How many calls to keep (the newest; see `PushSimKernel.Retention`); nil (the default,
    /// and in scenarios, whose expectations read the whole run) keeps every call. A world that
    /// runs for days, such as `pushsim serve`'s, sets it.
    public var retention: Retention? {
        didSet { if let retention { dropped += retention.trim(&entries, now: true) } }
    }
    /// How many of the oldest calls were dropped to keep within ``retention``.
    public private(set) var dropped = 0
    /// Calls recorded since the world began, the dropped ones included.
    public var count: Int { dropped + entries.count }

    /// An empty journal that records and keeps every call.
    public init() {}

    mutating func begin(_ entry: Entry) -> Int? {
        guard isRecording else { return nil }
        entries.append(entry)
        if let retention { dropped += retention.trim(&entries) }
        return count - 1
    }

    mutating func complete(_ index: Int?, with result: CallResult, at t: VirtualTime) {
        guard let index, index >= dropped else { return }   // a dropped call's outcome is not kept either
        entries[index - dropped].result = result
        entries[index - dropped].completedAt = t
    }

    mutating func labelInjected(_ index: Int, _ label: String) {
        guard index >= dropped, index < count else { return }
        entries[index - dropped].injected = label
    }

    /// The entries from call number `first` on (see ``entries``): the kept ones among them.
    public func entries(from first: Int) -> ArraySlice<Entry> {
        entries[min(entries.count, max(0, first - dropped))...]
    }

    /// Entries whose request went to `host` (primary name).
    public func requests(to host: String) -> [Entry] { entries.filter { $0.to == host } }
}
