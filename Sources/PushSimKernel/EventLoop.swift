/// The virtual clock and the queue of due events, with the run's limits.
///
/// Modelled on swift-nio's `EmbeddedEventLoop`: time starts at zero, never goes back, and
/// `next` moves `now` to the time of the event it hands out. Events that were cancelled after
/// being queued are skipped without moving the clock (the caller says which are still live).
public struct EventLoop<Payload> {
    /// The current virtual time: the due time of the event being handled.
    public private(set) var now: VirtualTime = .zero
    public private(set) var queue: EventQueue<Payload>
    /// Live events handed out so far.
    public private(set) var processed: Int = 0
    public var limits: RunLimits

    public init(limits: RunLimits = RunLimits(), reservingCapacity capacity: Int = 0) {
        self.limits = limits
        self.queue = EventQueue(reservingCapacity: capacity)
    }

    /// Queues `payload` at `time`, which must not be in the past.
    public mutating func schedule(_ payload: Payload, at time: VirtualTime) {
        precondition(time >= now, "cannot schedule at \(time), before now (\(now))")
        queue.push(payload, at: time)
    }

    /// What `next` found.
    public enum Step {
        case event(Payload)
        case end(RunEnd)
    }

    /// Hands out the next live event due no later than `stop` (if given), moving `now` to its time.
    /// Ends with `.quiescent` when nothing is left, `.stoppedAt(stop)` when the next event is
    /// later than `stop` (the clock then moves to `stop`), or `.limitReached` with a message.
    public mutating func next(until stop: VirtualTime? = nil, isLive: (Payload) -> Bool = { _ in true }) -> Step {
        while let first = queue.first {
            if let stop, first.time > stop {
                now = max(now, stop)
                return .end(.stoppedAt(stop))
            }
            guard isLive(first.payload) else {
                _ = queue.pop()
                continue
            }
            // Limits are checked while the event is still queued, so it stays a leftover.
            if first.time > limits.maxTime {
                return .end(.limitReached(
                    "virtual time limit reached: an event is due at \(first.time), after the limit \(limits.maxTime); "
                    + "raise it with 'limit time <duration>' or look for a loop that keeps rescheduling"))
            }
            if processed >= limits.maxEvents {
                return .end(.limitReached(
                    "event limit reached: \(limits.maxEvents) events processed by \(now); "
                    + "raise it with 'limit events <n>' or look for a loop that never settles"))
            }
            let entry = queue.pop()!
            processed += 1
            now = entry.time
            return .event(entry.payload)
        }
        if let stop { now = max(now, stop) }
        return .end(.quiescent)
    }
}
