/// The virtual clock and the queue of due events, with the run's limits.
///
/// Modelled on swift-nio's `EmbeddedEventLoop`: time starts at zero, never goes back, and
/// `next` moves `now` to the time of the event it hands out. Events that were cancelled after
/// being queued are skipped without moving the clock (the caller says which are still live).
public struct EventLoop<Payload> {
    /// The current virtual time: the due time of the event being handled.
    @inlinable public var now: VirtualTime { currentTime }
    /// The events still waiting, cancelled ones included until ``next(until:isLive:)`` skips them
    /// (read-only: schedule through ``schedule(_:at:)``).
    @inlinable public var queue: EventQueue<Payload> { pending }
    /// Live events handed out so far.
    @inlinable public var processed: Int { handedOut }
    @usableFromInline var currentTime: VirtualTime = .zero
    @usableFromInline var pending: EventQueue<Payload>
    @usableFromInline var handedOut: Int = 0
    /// Bounds on the run, checked before each event is handed out: hitting one ends
    /// ``next(until:isLive:)`` with ``RunEnd/limitReached(_:)``, the event left queued.
    public var limits: RunLimits

    // The loop is generic over its payload and used from other modules: `@inlinable` lets the
    // compiler specialise it for the payload type there (unspecialised generic code looks up
    // type metadata and copies through value witnesses on every event: several times slower).
    /// An empty loop at virtual time zero under `limits` (default ``RunLimits/init(maxEvents:maxTime:)``),
    /// with room for `capacity` heap entries reserved up front.
    @inlinable public init(limits: RunLimits = RunLimits(), reservingCapacity capacity: Int = 0) {
        self.limits = limits
        self.pending = EventQueue(reservingCapacity: capacity)
    }

    /// Queues `payload` at `time`, which must not be in the past.
    @inlinable public mutating func schedule(_ payload: Payload, at time: VirtualTime) {
        precondition(time >= now, "cannot schedule at \(time), before now (\(now))")
        pending.push(payload, at: time)
    }

    /// Queues `payload` at `time` in `lane` (see ``EventQueue``): for events known to come in
    /// time order, such as timeouts of one length.
    @inlinable public mutating func schedule(_ payload: Payload, at time: VirtualTime, lane: Int) {
        precondition(time >= now, "cannot schedule at \(time), before now (\(now))")
        pending.push(payload, at: time, lane: lane)
    }

    /// Queues `payload` at `time` under a sequence number taken earlier with ``reserveSequence()``
    /// (see ``EventQueue/push(_:at:sequence:)``).
    @inlinable public mutating func schedule(_ payload: Payload, at time: VirtualTime, sequence: UInt64) {
        precondition(time >= now, "cannot schedule at \(time), before now (\(now))")
        pending.push(payload, at: time, sequence: sequence)
    }

    /// Takes the next sequence number without queueing anything (see ``EventQueue/reserveSequence()``).
    @inlinable public mutating func reserveSequence() -> UInt64 { pending.reserveSequence() }

    /// Gives back queue buffer space a burst of events left behind (see ``EventQueue/releaseUnusedCapacity()``).
    public mutating func releaseUnusedCapacity() { pending.releaseUnusedCapacity() }

    /// Adds a lane to the queue and returns its number.
    public mutating func addLane() -> Int { pending.addLane() }

    /// What `next` found.
    public enum Step {
        /// A live event; ``now`` has moved to its due time.
        case event(Payload)
        /// No event to hand out now, and why.
        case end(RunEnd)
    }

    /// What a queued event turned out to be when it came up (see ``next(until:liveness:)``).
    public enum Liveness {
        /// Handed out.
        case live
        /// Skipped, without moving the clock (it was cancelled).
        case dead
        /// Queued again at a later `time` under `sequence` (one the queue handed out before),
        /// without moving the clock: for an event that stands for the earliest of several
        /// deadlines kept elsewhere, when that earliest one has gone and the next is later.
        case postponed(VirtualTime, sequence: UInt64)
    }

    /// Hands out the next live event due no later than `stop` (if given), moving `now` to its time.
    /// Ends with `.quiescent` when nothing is left, `.stoppedAt(stop)` when the next event is
    /// later than `stop` (the clock then moves to `stop`), or `.limitReached` with a message.
    @inlinable public mutating func next(until stop: VirtualTime? = nil, isLive: (Payload) -> Bool = { _ in true }) -> Step {
        next(until: stop, liveness: { isLive($0.payload) ? .live : .dead })
    }

    /// Like ``next(until:isLive:)``, with each event's fate decided by `liveness` from the whole
    /// entry (its time and sequence number too): it may also postpone the event.
    @inlinable public mutating func next(until stop: VirtualTime? = nil, liveness: (EventQueue<Payload>.Entry) -> Liveness) -> Step {
        while let (first, source) = pending.peek() {
            if let stop, first.time > stop {
                currentTime = max(now, stop)
                return .end(.stoppedAt(stop))
            }
            switch liveness(first) {
            case .live: break
            case .dead:
                _ = pending.pop(from: source)
                continue
            case .postponed(let time, let sequence):
                precondition(time >= first.time, "an event can only be postponed, not brought forward")
                let entry = pending.pop(from: source)
                pending.push(entry.payload, at: time, sequence: sequence)
                continue
            }
            // Limits are checked while the event is still queued, so it stays a leftover.
            if first.time > limits.maxTime {
                return .end(.limitReached(
                    "virtual time limit reached: an event is due at \(first.time), after the limit \(limits.maxTime); "
                    + "raise it with 'limit time <duration>' or look for a loop that keeps rescheduling"))
            }
            if handedOut >= limits.maxEvents {
                return .end(.limitReached(
                    "event limit reached: \(limits.maxEvents) events processed by \(now); "
                    + "raise it with 'limit events <n>' or look for a loop that never settles"))
            }
            let entry = pending.pop(from: source)
            handedOut += 1
            currentTime = entry.time
            return .event(entry.payload)
        }
        if let stop { currentTime = max(now, stop) }
        return .end(.quiescent)
    }
}
