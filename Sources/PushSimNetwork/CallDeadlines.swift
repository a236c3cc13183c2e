import PushSimKernel

/// When each call in flight times out, kept beside the event queue instead of in it: one
/// first-in first-out queue per timeout length, with one event in the world's queue for each of
/// them, at its earliest live deadline.
///
/// Almost every call is answered long before its timeout (a push service answers in
/// milliseconds; the timeout is 30 seconds). A timeout event per call was pushed into the event
/// queue and popped again, dead, 30 seconds later: about 4% of a broadcast. Here a call's deadline
/// is an append to its queue; answered calls are passed over in bulk when the queue's event
/// comes up, and that event is postponed to the first deadline still live.
///
/// The order is exactly that of a timeout event per call: each deadline takes the sequence
/// number its event would have had (``EventLoop/reserveSequence()``), and the queue's event
/// always carries the time and sequence number of the deadline it stands for. Deadlines of one
/// length are appended in time order, so each queue is sorted. A world with more than ``limit``
/// timeout lengths queues one event per call for the others.
struct CallDeadlines {
    /// One call's deadline.
    struct Deadline {
        var time: VirtualTime
        /// The sequence number of the timeout event this deadline stands for.
        var sequence: UInt64
        var call: UInt64
    }

    private struct Queue {
        var timeout: VirtualDuration
        var entries: [Deadline] = []
        /// Index of the first deadline not yet passed over.
        var head = 0
        /// Whether the world's queue holds this queue's event.
        var armed = false
    }

    private var queues: [Queue] = []
    static let limit = 8
    /// Passed-over entries are dropped from the front once this many have gathered (and they
    /// are at least half the array): so a long run with calls always in flight keeps no history.
    private static let compactAfter = 4_096

    /// The queue for deadlines `timeout` after their call, added the first time; nil once
    /// ``limit`` queues are taken.
    mutating func queue(for timeout: VirtualDuration) -> Int? {
        for i in queues.indices where queues[i].timeout == timeout { return i }
        guard queues.count < Self.limit else { return nil }
        queues.append(Queue(timeout: timeout))
        return queues.count - 1
    }

    /// Adds `deadline` to queue `q`; true when the queue had no event in the world's queue, which
    /// the caller must now schedule at the deadline's time and sequence number.
    mutating func add(_ deadline: Deadline, to q: Int) -> Bool {
        queues[q].entries.append(deadline)
        guard !queues[q].armed else { return false }
        queues[q].armed = true
        return true
    }

    /// The first deadline of queue `q` whose call `isDead` does not rule out, passing over (for
    /// good) those it does. With none left, the queue is marked as having no event: its event is
    /// about to be dropped.
    mutating func firstLive(_ q: Int, isDead: (UInt64) -> Bool) -> Deadline? {
        var head = queues[q].head
        let count = queues[q].entries.count
        while head < count, isDead(queues[q].entries[head].call) { head += 1 }
        queues[q].head = head
        if head == count {
            queues[q].entries.removeAll(keepingCapacity: true)
            queues[q].head = 0
            queues[q].armed = false
            return nil
        }
        if head >= Self.compactAfter && 2 * head >= count {
            queues[q].entries.removeSubrange(0..<head)
            queues[q].head = 0
        }
        return queues[q].entries[queues[q].head]
    }

    /// Takes the first deadline of queue `q` (its event came up for it), and the next deadline
    /// still live, for which the caller must schedule the queue's event again (none: the queue
    /// has no event until a call adds one).
    mutating func fire(_ q: Int, isDead: (UInt64) -> Bool) -> (fired: Deadline, next: Deadline?) {
        let fired = queues[q].entries[queues[q].head]
        queues[q].head += 1
        return (fired, firstLive(q, isDead: isDead))
    }
}
