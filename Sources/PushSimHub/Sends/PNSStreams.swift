import PushSimKernel
import PushSimNetwork

/// The hub's outbound requests to the PNSs: at most ``limit`` in flight at once, the rest waiting
/// in order, and a table of the copies in flight (the tag of each PNS call is a slot here).
///
/// Real providers talk to APNs over HTTP/2 connections kept open, each with a bounded number of
/// concurrent streams (A-CONN: "many concurrent streams" once a provider token is accepted), and to
/// FCM and WNS over pooled connections; a fan-out to a million devices goes out as answers free
/// streams, not all at the same instant. The hub's pool size is not published; PushSim's default of
/// 1,000 requests in flight is its own choice (configurable with
/// ``HubConfiguration/maxPNSRequestsInFlight``). A send with fewer targets than the limit goes out
/// at once, as before any limit applies.
struct PNSStreams {
    /// One copy of a notification on its way to its PNS.
    struct Copy {
        var notification: HubNotification
        var target: SendTarget
        var attempt: Int
        var renewed: Bool
    }

    /// Copies waiting for a stream: a whole fan-out (walked by a cursor) or one retried copy.
    enum Waiting {
        case fanOut(FanOutCursor)
        case copy(Copy)
    }

    var limit: Int
    /// Streams taken: copies being built (waiting for an access token) or sent and not answered.
    private(set) var inUse = 0
    /// What waits, in order: a fan-out's cursor, or the place of one copy in `waitingCopies`.
    /// Small values (a reference or a number), so that looking at the first copies nothing.
    private enum Queued {
        case fanOut(FanOutCursor)
        case copy(Int)
        /// Taken: the cursor or copy is let go.
        case taken
    }
    private var waiting: [Queued] = []
    private var waitingCopies: [Copy?] = []
    private var waitingHead = 0
    private var inFlight: [Copy?] = []
    private var freeSlots: [Int] = []

    init(limit: Int) { self.limit = max(1, limit) }

    mutating func enqueue(_ w: consuming Waiting) {
        switch consume w {
        case .fanOut(let cursor): waiting.append(.fanOut(cursor))
        case .copy(let c):
            waitingCopies.append(c)
            waiting.append(.copy(waitingCopies.count - 1))
        }
    }

    /// The next waiting copy if a stream is free, taking the stream.
    mutating func takeNext() -> Copy? {
        guard inUse < limit else { return nil }
        while waitingHead < waiting.count {
            switch waiting[waitingHead] {
            case .taken: advance()   // never at the head (`advance` passes it); here for the switch
            case .copy(let k):
                let c = waitingCopies[k].take()
                advance()   // may empty `waitingCopies`: after the copy is out
                inUse += 1
                return c
            case .fanOut(let cursor):
                guard let t = cursor.next() else { advance(); continue }
                inUse += 1
                return Copy(notification: cursor.notification, target: t, attempt: 1, renewed: false)
            }
        }
        return nil
    }

    private mutating func advance() {
        waiting[waitingHead] = .taken
        waitingHead += 1
        if waitingHead == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingCopies.removeAll(keepingCapacity: true)
            waitingHead = 0
        }
    }

    /// Gives a stream back (an answer arrived, or the request could not be built).
    mutating func release() { inUse -= 1 }

    /// Records a copy sent to its PNS; returns the tag for its call.
    mutating func sent(_ c: consuming Copy) -> UInt64 {
        if let slot = freeSlots.popLast() {
            inFlight[slot] = consume c
            return UInt64(slot)
        }
        inFlight.append(consume c)
        return UInt64(inFlight.count - 1)
    }

    /// The copy whose call had `tag`, removed from the table.
    mutating func answered(_ tag: UInt64) -> Copy {
        let slot = Int(tag)
        let c = inFlight[slot].take()!
        freeSlots.append(slot)
        return c
    }

    /// Copies sent and not answered, and how many wait for a stream, for the leftovers report:
    /// `(key, line)` pairs that the hub sorts by key.
    var leftovers: [(String, Leftover)] {
        var out = inFlight.compactMap { $0 }.map { c in
            ("\(c.notification.id)/\(c.target.label)",
             Leftover("notification \(c.notification.id) for registration \(c.target.label) not yet accepted by its PNS (attempt \(c.attempt))",
                      pendingIDs: [c.notification.id]))
        }
        var waitingCount = 0
        for w in waiting[waitingHead...] {
            switch w {
            case .copy: waitingCount += 1
            case .fanOut(let cursor): waitingCount += cursor.remaining
            case .taken: break
            }
        }
        if waitingCount > 0 { out.append(("~waiting", Leftover("\(waitingCount) notification copies waiting for a free PNS stream"))) }
        return out
    }
}

/// A fan-out's targets and how far it has got. The targets are let go once the last one is
/// handed out, so that a finished fan-out holds no snapshot of the registrations.
final class FanOutCursor {
    let notification: HubNotification
    // Unchecked for exclusivity in release builds, as the world's hot state is (`WorldHotState`):
    // one thread, and `next()` is the only writer; the checks cost about 1% of a broadcast.
    #if DEBUG
    private var targets: SendTargets
    private var position = 0
    #else
    @exclusivity(unchecked) private var targets: SendTargets
    @exclusivity(unchecked) private var position = 0
    #endif
    private let total: Int

    init(_ notification: HubNotification, _ targets: SendTargets) {
        self.notification = notification
        self.targets = targets
        self.total = targets.count
    }

    func next() -> SendTarget? {
        guard position < total else { return nil }
        let t = targets.readInPlace(position)
        position += 1
        if position == total { targets = .none }
        return t
    }

    var remaining: Int { total - position }
}
