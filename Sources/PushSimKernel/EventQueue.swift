/// A priority queue of events ordered by (time, sequence number).
///
/// The sequence number is assigned at insertion and is part of the key, so two events due at
/// the same instant always come out in the order they were scheduled, never in an order that
/// depends on heap layout (the rule swift-nio's `EmbeddedEventLoop` keeps with `insertOrder`).
///
/// The queue is a value type holding a binary heap in one array of structs: no allocation per
/// event, no closures. `Payload` should be small and value-typed (an enum of ids, say).
public struct EventQueue<Payload> {
    /// One scheduled event.
    public struct Entry {
        public let time: VirtualTime
        public let sequence: UInt64
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

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var nextSequence: UInt64 = 0

    public init(reservingCapacity capacity: Int = 0) { heap.reserveCapacity(capacity) }

    /// Number of events waiting.
    @inlinable public var count: Int { heap.count }
    @inlinable public var isEmpty: Bool { heap.isEmpty }
    /// The entry that `pop()` would return next.
    @inlinable public var first: Entry? { heap.first }

    /// Schedules `payload` at `time`; returns the sequence number it was given.
    @inlinable @discardableResult
    public mutating func push(_ payload: Payload, at time: VirtualTime) -> UInt64 {
        let seq = nextSequence
        nextSequence &+= 1
        let entry = Entry(time: time, sequence: seq, payload: payload)
        heap.append(entry)
        // Sift up with a hole: move parents down until the slot for `entry` is found.
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            if !entry.precedes(heap[parent]) { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
        return seq
    }

    /// Removes and returns the earliest event (smallest time, then smallest sequence).
    @inlinable public mutating func pop() -> Entry? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        let top = heap[0]
        // Sift `last` down from the root with a hole.
        let n = heap.count
        var parent = 0
        while true {
            var child = 2 * parent + 1
            if child >= n { break }
            if child + 1 < n && heap[child + 1].precedes(heap[child]) { child += 1 }
            if !heap[child].precedes(last) { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = last
        return top
    }
}
