import PushSimKernel

// What the world queues (its events, by id), what it keeps per call and per timer, and the lanes
// of the event queue it schedules fixed delays in.

/// The event-queue lanes of the fixed delays a world schedules after (a constant latency, and the
/// timeouts of lengths beyond ``CallDeadlines/limit``), at most ``limit`` of them: the queue compares every lane's head on
/// each pop, so a world with many distinct delays sends the rest to the heap. Looked up by a
/// short linear search (the delays are few), never iterated for output.
struct DelayLanes {
    private var delays: [Int64] = []   // microseconds, by lane
    private var lanes: [Int] = []
    static let limit = 8

    /// The lane for `delay`, added with `add` the first time; nil when ``limit`` lanes are taken.
    mutating func lane(for delay: VirtualDuration, adding add: () -> Int) -> Int? {
        let us = delay.microseconds
        for i in delays.indices where delays[i] == us { return lanes[i] }
        guard delays.count < Self.limit else { return nil }
        delays.append(us)
        lanes.append(add())
        return lanes[lanes.count - 1]
    }
}

/// The world's events: ids into its tables, so the queue stays a heap of small values.
enum WorldEvent {
    case timer(UInt64)
    case requestArrives(UInt64)
    case responseArrives(UInt64)
    case failureArrives(UInt64)
    case callTimeout(UInt64)
    /// The earliest live deadline of a ``CallDeadlines`` queue (its number).
    case callDeadlines(Int)
}

/// Where a call's result goes.
enum Continuation {
    case closure((CallResult) -> Void)
    case receiver(CallReceiver, UInt64)
}

struct PendingCall {
    /// When the call was made, among all ids the world handed out: orders the leftovers report.
    var order: UInt64
    /// The request line, kept for the leftovers report and failure traces.
    var method: String
    var authority: String
    var path: String
    /// The request itself, until it arrives at the callee (then handed over, not copied).
    var request: HTTPRequest?
    var caller: String
    var callee: String?
    /// The host serving `callee`, resolved when the call was made.
    var calleeHost: Host?
    var continuation: Continuation
    var correlation: String
    var journalIndex: Int?
    var response: HTTPResponse?
    var failure: TransportFailure?
}

struct PendingTimer {
    var action: () -> Void
    var correlation: String
}

