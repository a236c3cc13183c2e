import PushSimNetwork

/// One client connection of an ``HTTPServer``: its socket, its parser, the answers it owes in
/// request order and the bytes not yet written. Confined to the server's loop thread: created,
/// read and changed only there, so it needs no lock (and is not `Sendable`).
final class HTTPConnection {
    /// One answer owed, in request order: built (`bytes`) or still with the door (nil).
    struct Slot {
        /// The answer's bytes, once the door has answered (a refusal or `100 Continue` has them at once).
        var bytes: [UInt8]?
        /// Whether the connection stays open after this answer.
        var keepAlive = true
        /// Whether the request was `HEAD` (the body is left out).
        var headOnly = false
        /// Whether this is the connection's last answer: once it is written the connection closes.
        var last = false
    }

    /// The server's key for it (every accepted socket gets one, refused ones too).
    let key: Int
    /// The connection's number in the world (`sdk#<number>`, from 1 in accept order); 0 for a
    /// connection refused with 503, which never reaches the door.
    let number: Int
    let fd: Int32
    var parser: HTTPRequestParser
    /// Answers owed, oldest first; the first has sequence number ``firstSequence``.
    private(set) var slots: [Slot] = []
    private(set) var firstSequence = 0
    /// Bytes handed to the socket's send buffer: `outbox[sent...]` is still to go.
    var outbox: [UInt8] = []
    var sent = 0
    /// False once a request said it is the last (`Connection: close`, HTTP/1.0) or a framing
    /// error ended the connection: nothing more is read as requests.
    var takesRequests = true
    /// The client has shut down its side (a read gave end of file).
    var peerDone = false
    /// The last answer is in the outbox: when it is written, the connection lingers.
    var lastQueued = false
    /// Write side shut down; reading and dropping what the client still sends until it closes.
    var isLingering = false
    var lingerBytes = 0
    var closed = false

    /// Whether the connection wants to read (it has room for requests, or lingers) and to write
    /// (a write was cut short); and what the poller was last told.
    var reading = false
    var writing = false
    var watchedReading = true
    var watchedWriting = false

    // Membership of one ConnectionList (idle order or lingering order).
    var since: UInt64 = 0
    var list: ConnectionList.Kind?
    var prev: HTTPConnection?
    var next: HTTPConnection?

    init(key: Int, number: Int, fd: Int32, limits: HTTPRequestParser.Limits) {
        self.key = key
        self.number = number
        self.fd = fd
        parser = HTTPRequestParser(limits: limits)
    }

    /// Bytes in the outbox not yet written.
    var unsent: Int { outbox.count - sent }

    /// Owes one more answer; returns its sequence number.
    @discardableResult
    func owe(_ slot: Slot) -> Int {
        slots.append(slot)
        return firstSequence + slots.count - 1
    }

    /// The door's answer to request `sequence`, built; false if that answer is no longer owed.
    func settle(_ sequence: Int, _ response: HTTPResponse) -> Bool {
        let i = sequence - firstSequence
        guard i >= 0, i < slots.count, slots[i].bytes == nil else { return false }
        slots[i].bytes = HTTPResponseWriter.bytes(response, keepAlive: slots[i].keepAlive, headOnly: slots[i].headOnly)
        return true
    }

    /// Moves the answers that are ready, in order, into the outbox; stops at the first one the door
    /// still owes (a pipelined answer that came early waits for those before it).
    func queueReadyAnswers() {
        var taken = 0
        for slot in slots {
            guard let bytes = slot.bytes else { break }
            if unsent == 0 {
                outbox = bytes
                sent = 0
            } else {
                outbox += bytes
            }
            taken += 1
            if slot.last { lastQueued = true; break }
        }
        if taken > 0 {
            slots.removeFirst(taken)
            firstSequence += taken
        }
    }

    /// Whether an answer is still with the door (the connection is waiting, not idle).
    var awaitsAnswer: Bool { !slots.isEmpty }
}

/// Connections in the order they were last active, oldest first, linked through the connections
/// themselves: appending, moving to the end and removing are O(1), and the oldest is the head, so
/// the idle check looks only at the connections whose time is up.
struct ConnectionList {
    enum Kind { case idle, lingering }
    let kind: Kind
    private(set) var head: HTTPConnection?
    private var tail: HTTPConnection?

    init(_ kind: Kind) { self.kind = kind }

    /// Puts `c` at the end, active at `now` (taking it out of where it was in this list first).
    mutating func append(_ c: HTTPConnection, now: UInt64) {
        if c.list == kind { remove(c) }
        precondition(c.list == nil, "a connection is in one list at a time")
        c.since = now
        c.list = kind
        c.prev = tail
        c.next = nil
        if let tail { tail.next = c } else { head = c }
        tail = c
    }

    mutating func remove(_ c: HTTPConnection) {
        guard c.list == kind else { return }
        if let prev = c.prev { prev.next = c.next } else { head = c.next }
        if let next = c.next { next.prev = c.prev } else { tail = c.prev }
        c.prev = nil
        c.next = nil
        c.list = nil
    }
}
