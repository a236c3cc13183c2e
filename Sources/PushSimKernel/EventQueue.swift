/// A priority queue of events ordered by (time, sequence number).
///
/// The sequence number is assigned at insertion and is part of the key, so two events due at
/// the same instant always come out in the order they were scheduled, never in an order that
/// depends on heap layout (the rule swift-nio's `EmbeddedEventLoop` keeps with `insertOrder`).
///
/// The queue is a value type holding a binary heap in one array of structs: no allocation per
/// event, no closures. `Payload` should be small and value-typed (an enum of ids, say).
///
/// Events that are known to be scheduled in non-decreasing time order (every call's timeout,
/// `now + 30 s`, say) can go to a *lane* instead of the heap: a first-in first-out buffer whose
/// head is compared with the heap's top. A lane push and pop cost O(1), and the order handed out is
/// exactly the order a single heap would give, because lanes and heap share the sequence numbers.
/// Lanes keep a million pending timeouts out of the heap, so the heap stays small and cache-warm.
public struct EventQueue<Payload> {
    /// One scheduled event.
    public struct Entry {
        /// When the event is due.
        public let time: VirtualTime
        /// The insertion number, unique in its queue: of two events due at the same instant, the one
        /// scheduled first has the smaller one and comes out first.
        public let sequence: UInt64
        /// What the event carries (the caller's id or small enum).
        public let payload: Payload

        @inlinable init(time: VirtualTime, sequence: UInt64, payload: Payload) {
            self.time = time
            self.sequence = sequence
            self.payload = payload
        }

        @inlinable func precedes(_ other: Entry) -> Bool {
            time.microseconds != other.time.microseconds
                ? time.microseconds < other.time.microseconds
                : sequence < other.sequence
        }
    }

    /// A first-in first-out run of entries in non-decreasing (time, sequence) order, kept in
    /// chunks of at most ``chunkSize`` entries: `front` holds the head, `back` the chunks after
    /// it, oldest first. A push never moves an entry and a pop never compacts: a chunk is freed
    /// when its last entry is popped. (A single growing array would copy every entry each time
    /// it doubles, and hold up to twice its entries while a million timeouts wait.)
    @usableFromInline struct Lane {
        @usableFromInline var front: [Entry] = []
        /// Index of the lane's first entry in `front`; the entries before it were popped.
        @usableFromInline var head = 0
        @usableFromInline var back: [[Entry]] = []
        @inlinable init() {}
        @inlinable var first: Entry? { head < front.count ? front[head] : nil }
        /// Entries per chunk: 2,048 of 32 bytes, under the size at which the C allocator maps
        /// memory for each block, so chunks come from and return to its heap.
        @usableFromInline static var chunkSize: Int { 2_048 }

        @inlinable mutating func append(_ e: Entry) {
            if back.isEmpty && front.count < Self.chunkSize { return front.append(e) }
            if back.isEmpty || back[back.count - 1].count == Self.chunkSize {
                var chunk: [Entry] = []
                chunk.reserveCapacity(Self.chunkSize)
                back.append(chunk)
            }
            back[back.count - 1].append(e)
        }

        /// Takes the first entry (the lane must not be empty).
        @inlinable mutating func removeFirst() -> Entry {
            let e = front[head]
            head += 1
            if head == front.count {
                head = 0
                if back.isEmpty { front.removeAll(keepingCapacity: true) } else { front = back.removeFirst() }
            }
            return e
        }

        /// The last entry pushed, if any is waiting.
        @inlinable var last: Entry? { back.last?.last ?? (head < front.count ? front.last : nil) }
    }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var lanes: [Lane] = []
    @usableFromInline var laneCount = 0
    @usableFromInline var nextSequence: UInt64 = 0

    /// An empty queue with room for `capacity` heap entries reserved; no lanes yet (see ``addLane()``).
    public init(reservingCapacity capacity: Int = 0) { heap.reserveCapacity(capacity) }

    /// Number of events waiting.
    @inlinable public var count: Int { heap.count + laneCount }
    /// Whether no event is waiting, in the heap or in any lane.
    @inlinable public var isEmpty: Bool { count == 0 }
    /// The entry that `pop()` would return next.
    @inlinable public var first: Entry? { peek()?.entry }

    /// The entry that `pop()` would return next, and where it waits (a lane number, or
    /// ``heapSource`` for the heap), so that ``pop(from:)`` takes it without looking again.
    @inlinable public func peek() -> (entry: Entry, source: Int)? {
        if let lane = firstLane() { return (lanes[lane].first!, lane) }
        guard let top = heap.first else { return nil }
        return (top, Self.heapSource)
    }

    /// The source ``peek()`` names for the heap.
    public static var heapSource: Int { -1 }

    /// Removes and returns the entry ``peek()`` just named, from the `source` it named (nothing
    /// may be pushed or popped in between).
    @inlinable public mutating func pop(from source: Int) -> Entry {
        source == Self.heapSource ? popHeap()! : popLane(source)
    }

    /// Adds a lane and returns its number, for ``push(_:at:lane:)``.
    public mutating func addLane() -> Int {
        lanes.append(Lane())
        return lanes.count - 1
    }

    /// Schedules `payload` at `time` in `lane`, whose events must come in non-decreasing time
    /// order (a precondition): the lane is a queue, not a heap.
    @inlinable @discardableResult
    public mutating func push(_ payload: Payload, at time: VirtualTime, lane: Int) -> UInt64 {
        if let last = lanes[lane].last {
            precondition(last.time.microseconds <= time.microseconds, "lane \(lane) takes events in time order only")
        }
        let seq = nextSequence
        nextSequence &+= 1
        lanes[lane].append(Entry(time: time, sequence: seq, payload: payload))
        laneCount += 1
        return seq
    }

    /// The lane whose head comes before the heap's top and every other lane's head, if any.
    @inlinable func firstLane() -> Int? {
        guard laneCount > 0 else { return nil }
        var best: Int? = nil
        var bestEntry = heap.first
        for i in lanes.indices {
            guard let e = lanes[i].first else { continue }
            if bestEntry == nil || e.precedes(bestEntry!) { best = i; bestEntry = e }
        }
        return best
    }

    @inlinable mutating func popLane(_ i: Int) -> Entry {
        laneCount -= 1
        return lanes[i].removeFirst()
    }

    /// Schedules `payload` at `time`; returns the sequence number it was given.
    @inlinable @discardableResult
    public mutating func push(_ payload: Payload, at time: VirtualTime) -> UInt64 {
        let seq = nextSequence
        nextSequence &+= 1
        pushHeap(Entry(time: time, sequence: seq, payload: payload))
        return seq
    }

    /// Takes the next sequence number without queueing anything: for an event the caller keeps
    /// aside and may queue later with ``push(_:at:sequence:)``, in the place it would have had.
    @inlinable public mutating func reserveSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// Schedules `payload` at `time` (in the heap) under a sequence number taken earlier with
    /// ``reserveSequence()`` or handed out by an earlier push: it comes out where an event pushed
    /// with that number at that time would have.
    @inlinable public mutating func push(_ payload: Payload, at time: VirtualTime, sequence: UInt64) {
        precondition(sequence < nextSequence, "sequence \(sequence) was never handed out")
        pushHeap(Entry(time: time, sequence: sequence, payload: payload))
    }

    @inlinable mutating func pushHeap(_ entry: Entry) {
        heap.append(entry)
        // Sift up with a hole: move parents down until the slot for `entry` is found. Through a
        // buffer pointer: no bounds or uniqueness check per move.
        heap.withUnsafeMutableBufferPointer { h in
            var child = h.count - 1
            while child > 0 {
                let parent = (child - 1) >> 1
                if !entry.precedes(h[parent]) { break }
                h[child] = h[parent]
                child = parent
            }
            h[child] = entry
        }
    }

    /// A heap buffer up to this many entries is kept when it empties; a larger one (grown by a
    /// burst, such as a million devices registering at one instant) is given back by
    /// ``releaseUnusedCapacity()``, so that a run does not hold its peak's memory for the rest of
    /// its life. Lanes need no such step: they free each chunk as it empties.
    @usableFromInline static var keptCapacity: Int { 4096 }

    /// Gives back buffer space a burst left behind: the heap moves into a buffer twice its count
    /// if it uses less than an eighth of its capacity. Not done inside `pop`, where even the check
    /// costs ~15% of the kernel benchmark; the world calls it when a run ends.
    public mutating func releaseUnusedCapacity() {
        if heap.capacity > Self.keptCapacity && heap.count < heap.capacity / 8 {
            var smaller: [Entry] = []
            smaller.reserveCapacity(heap.count * 2)
            smaller.append(contentsOf: heap)
            heap = smaller
        }
    }

    /// Removes and returns the earliest event (smallest time, then smallest sequence).
    @inlinable public mutating func pop() -> Entry? {
        if let lane = firstLane() { return popLane(lane) }
        return popHeap()
    }

    /// Removes and returns the heap's top.
    @inlinable mutating func popHeap() -> Entry? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        // Sift `last` down from the root with a hole (through a buffer pointer, as in push).
        return heap.withUnsafeMutableBufferPointer { h in
            let top = h[0]
            let n = h.count
            var parent = 0
            while true {
                var child = 2 * parent + 1
                if child >= n { break }
                if child + 1 < n && h[child + 1].precedes(h[child]) { child += 1 }
                if !h[child].precedes(last) { break }
                h[parent] = h[child]
                parent = child
            }
            h[parent] = last
            return top
        }
    }
}
