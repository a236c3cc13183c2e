import Dispatch
import Foundation
import PushSimNetwork
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket side of `pushsim serve`: an HTTP/1.1 listener on one TCP port.
///
/// **Threads.** No thread per connection. One loop thread (`pushsim-serve`) owns every socket and
/// all connection state: the listening socket, and for each connection its
/// ``HTTPRequestParser``, the answers it owes in request order and the bytes not yet written. The
/// sockets are non-blocking; the loop waits on them all at once (`Poller`: epoll on Linux), then
/// accepts, reads into the parsers, hands the whole requests to the door and writes what is
/// ready. The door answers on its own thread: ``WorldBridge`` on the world's serial queue (the
/// world stays single-threaded and deterministic: nothing here touches it), ``ScenarioLoopback``
/// on the thread that runs the scenario; its completion puts the answer in the loop's mailbox and
/// wakes the loop (a byte down a pipe) only when it is asleep. The requests read in one turn of the
/// loop go to the door together at the turn's end
/// (``ServerDoor/answer(_:connection:completion:)``), and the loop reads and writes on while the
/// world works. A lone one, with no other at the door, goes through
/// ``ServerDoor/answerAlone(_:connection:completion:)``, which ``WorldBridge`` runs on the loop
/// thread (`queue.sync`): with nothing else to do, the loop saves two hand-offs between threads,
/// so a single client's round trip is as short as with a thread per connection. A request whose
/// answer is pending (a call the world has not answered yet, a long poll) holds no thread, only
/// its place in its connection's list of answers owed. So 10,000 idle connections cost memory
/// (a few hundred bytes each in the process, plus the kernel's socket buffers), not threads.
///
/// **Order.** Pipelined requests go to the door as they are read, up to 64 outstanding on a
/// connection, and their answers are written in request order: one that completes early waits for
/// those before it. A connection whose client does not read its answers stops being read once
/// 256 KiB wait to be written (a slow reader stalls only itself); a partial write waits for the
/// socket to be writable again.
///
/// **Ends.** Keep-alive is the default; `Connection: close`, HTTP/1.0 without keep-alive, a
/// protocol error or ``stop(timeout:)`` end a connection. A connection ends politely: its write side is
/// shut after the last answer, and what the client still sends is read and dropped (for 1 s at
/// most) so that closing does not reset the answer away. One that opens with the HTTP/2 preface
/// gets `HTTP2Refusal.bytes` and is closed the same way. A connection with nothing read or written
/// for ``Configuration/idleTimeoutSeconds`` is closed, unless an answer is still pending with the
/// door. Deadlines are kept on the monotonic clock (`DispatchTime`) in two lists ordered by last
/// activity, so a loop turn looks only at the connections whose time is up. A client that goes
/// away mid-request costs nothing else: a request goes to the door only once it is whole.
///
/// **Limits.** Beyond ``Configuration/maxConnections`` open at once (default 16,384), a new
/// connection is answered 503 and closed. The limit is also kept under the process's descriptor
/// limit (the soft `RLIMIT_NOFILE`, less a quarter of it or 320 at most, left for refusals and
/// files). If the process runs
/// out of descriptors anyway (`accept` fails with `EMFILE`), a descriptor kept in reserve is given
/// up for a moment to accept the waiting client, answer it 503 and close it at once; if even that
/// fails, accepting pauses for 100 ms. Either way the loop never spins.
///
/// `@unchecked Sendable`: `port` and the lifecycle are guarded by `lock`, the mailbox by
/// `mailLock`; everything else mutable is confined to the loop thread; the bridge is Sendable.
public final class HTTPServer: @unchecked Sendable {
    /// Where the server listens, and its limits.
    public struct Configuration: Sendable {
        /// An IPv4 address to listen on (`127.0.0.1`; `localhost` means that too).
        public var host = "127.0.0.1"
        /// 0 picks a free port; ``HTTPServer/port`` says which.
        public var port = 0
        /// Size limits of each request (``HTTPRequestParser/Limits``: 8 KiB request line, 64 KiB
        /// of header fields, 4 MiB body).
        public var limits = HTTPRequestParser.Limits()
        /// Most connections open at once (default 16,384, and fewer when the process's soft
        /// `RLIMIT_NOFILE` is lower: a quarter of it, 320 at most, stays free for refusals and
        /// files); a connection beyond them is answered 503 and closed.
        public var maxConnections = 16_384
        /// Seconds a connection may go without reading or writing a byte before it is closed
        /// (default 60); one whose answer is still pending (a long poll) is not idle.
        public var idleTimeoutSeconds = 60
        /// Listens on `host` (default `127.0.0.1`) at `port` (default 0: any free port); the other
        /// settings at their defaults.
        public init(host: String = "127.0.0.1", port: Int = 0) { self.host = host; self.port = port }
    }

    /// What answers the requests: the served world, or a scenario run's loopback.
    public let bridge: any ServerDoor
    /// The settings the server was made with.
    public let configuration: Configuration
    /// The port listened on, once ``start()`` returned.
    public private(set) var port = 0

    /// Guards `port` and `phase`.
    private let lock = NSLock()
    private enum Phase { case made, running, stopped }
    private var phase = Phase.made
    /// Left by the loop thread once every descriptor is closed; ``stop(timeout:)`` waits for it.
    private let loopDone = DispatchGroup()

    /// Guards the mailbox: answers from the door's thread, and the request to stop.
    private let mailLock = NSLock()
    private var mailbox: [(key: Int, sequence: Int, response: HTTPResponse)] = []
    private var stopRequested = false
    /// The loop is (about to be) waiting in the poller: a letter must wake it.
    private var sleeping = false
    /// A byte is in the wake pipe and not yet read.
    private var poked = false
    /// The wake pipe: `wakeWrite` → `wakeRead`, both non-blocking.
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1

    // MARK: Loop thread only

    private let poller = Poller()
    private var listenFD: Int32 = -1
    private var acceptPaused = false
    private var connections: [Int: HTTPConnection] = [:]
    private var keys = 0
    /// Connections accepted so far: numbers each connection (refused ones are not counted).
    private var accepted = 0
    /// Connections open and admitted; connections being refused with 503.
    private var admitted = 0
    private var refusing = 0
    /// ``Configuration/maxConnections``, kept under the descriptor limit; refusals that may linger.
    private var connectionLimit = 0
    private var refusalLimit = 0
    private var stopping = false
    /// Admitted connections by last activity (reading or writing a byte), oldest first.
    private var idleOrder = ConnectionList(.idle)
    /// Connections closing politely, by when they began to, oldest first.
    private var lingerOrder = ConnectionList(.lingering)
    private var acceptResumesAt: UInt64?
    /// A descriptor kept in reserve for `EMFILE` (see the type's comment).
    private var reserve: Int32 = -1
    /// Whole requests read this turn, for the door at the turn's end; requests the door has and
    /// has not answered yet (their connections may be gone).
    private var handover: [(request: WireRequest, connection: Int, key: Int, sequence: Int)] = []
    private var withDoor = 0
    /// Where reads land before the parser takes the bytes.
    private let readBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)

    /// Most requests of one connection with the door or written to it not yet (pipelining depth).
    static let pipelineDepth = 64
    /// Bytes waiting to be written beyond which a connection's requests are no longer read.
    static let outboxLimit = 256 * 1024
    /// Longest a connection lingers after its last answer.
    static let lingerNanoseconds: UInt64 = 1_000_000_000
    /// Most bytes read and dropped while lingering.
    static let lingerBytes = 8 * 1024 * 1024
    /// Connections refused with 503 that may linger at once (fewer when descriptors are few);
    /// beyond them a refusal closes at once.
    static let refusalsAtOnce = 256
    /// How long accepting pauses when no descriptor is left.
    static let acceptPauseNanoseconds: UInt64 = 100_000_000

    /// A server whose requests `bridge` answers; nothing is bound until ``start()``.
    public init(bridge: any ServerDoor, configuration: Configuration = Configuration()) {
        self.bridge = bridge
        self.configuration = configuration
    }

    deinit { readBuffer.deallocate() }

    /// Poller keys of the listening socket and of the wake pipe (connections have keys from 1).
    private static let listenerKey = -1, wakeKey = -2

    /// An error saying why a server could not start. Not thrown at present: ``start()`` throws
    /// the socket layer's own error, whose `description` names the call that failed.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// `http://<host>:<port>` once started.
    public var baseURL: String { "http://\(configuration.host == "localhost" ? "127.0.0.1" : configuration.host):\(port)" }

    /// Binds, listens and starts the loop thread; returns the port.
    @discardableResult
    public func start() throws -> Int {
        let fd = try Socket.listen(host: configuration.host == "localhost" ? "127.0.0.1" : configuration.host, port: configuration.port)
        Socket.makeNonBlocking(fd)
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            _ = close(fd)
            throw Socket.Failure(description: "pipe(): \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds {
            Socket.makeNonBlocking(end)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let bound = Socket.localPort(fd)
        lock.withLock {
            port = bound
            phase = .running
        }
        bridge.configure(baseURL: baseURL, keyFiles: ClientKeyFiles())
        // Set before the thread starts, which then owns them.
        listenFD = fd
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        (connectionLimit, refusalLimit) = Self.limits(configuration.maxConnections)
        reserve = Self.openDevNull()
        poller.add(fd, key: Self.listenerKey, read: true, write: false)
        poller.add(wakeRead, key: Self.wakeKey, read: true, write: false)
        loopDone.enter()
        let thread = Thread { [self] in
            run()
            loopDone.leave()
        }
        thread.name = "pushsim-serve"
        thread.start()
        return bound
    }

    /// Stops accepting, ends every connection (answers being written are cut, answers still with
    /// the door are dropped), waits up to `timeout` seconds for the loop thread to have closed
    /// every descriptor, then flushes and closes the record.
    public func stop(timeout: Double = 5) {
        let wasRunning = lock.withLock { () -> Bool in
            defer { phase = .stopped }
            return phase == .running
        }
        if wasRunning {
            mailLock.withLock {
                stopRequested = true
                poke()
            }
        }
        _ = loopDone.wait(timeout: .now() + timeout)
        bridge.close()
    }

    // MARK: The loop

    /// Waits for readiness, the mailbox or a deadline; handles what came; again, until stopped.
    private func run() {
        var events: [Poller.Event] = []
        events.reserveCapacity(512)
        while true {
            let timeout = millisecondsToNextDeadline()
            let mayWait = mailLock.withLock { () -> Bool in
                sleeping = mailbox.isEmpty && !stopRequested
                return sleeping
            }
            poller.wait(timeoutMilliseconds: mayWait ? timeout : 0, into: &events)
            let (letters, stop, drain) = mailLock.withLock { () -> ([(key: Int, sequence: Int, response: HTTPResponse)], Bool, Bool) in
                sleeping = false
                defer { mailbox.removeAll(keepingCapacity: true); poked = false }
                return (mailbox, stopRequested, poked)
            }
            if drain { drainWakePipe() }
            if stop { break }
            for event in events {
                switch event.key {
                case Self.listenerKey: acceptClients()
                case Self.wakeKey: drainWakePipe()
                default:
                    guard let c = connections[event.key] else { continue }
                    if event.readable { readable(c) }
                    if event.writable && !c.closed { pump(c) }
                    if event.failed && !c.closed { end(c) }   // a reset, or both sides shut: nothing more can go either way
                }
            }
            for letter in letters { answered(letter.key, letter.sequence, letter.response) }
            handOver()
            if let deadline = nextDeadline(), deadline <= Self.now() { deadlinesPassed() }
        }
        shutDown()
    }

    /// With `mailLock` held: wakes the loop if it waits (one byte down the pipe, once per wait).
    private func poke() {
        guard sleeping, !poked else { return }
        poked = true
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func drainWakePipe() {
        var sink = [UInt8](repeating: 0, count: 64)
        while sink.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Called by the door, on its thread: the answer goes to the loop's mailbox.
    private func deliver(_ key: Int, _ sequence: Int, _ response: HTTPResponse) {
        mailLock.withLock {
            guard !stopRequested else { return }
            mailbox.append((key, sequence, response))
            poke()
        }
    }

    // MARK: Accepting

    private func acceptClients() {
        for _ in 0..<128 {   // then the other connections' turn; the listener is reported again (level-triggered)
            let fd = accept(listenFD, nil, nil)
            if fd >= 0 { admit(fd); continue }
            let error = errno
            if error == EAGAIN || error == EWOULDBLOCK { return }
            if error == EINTR || error == ECONNABORTED || error == EPROTO { continue }
            if (error == EMFILE || error == ENFILE) && reserve >= 0 { shedOneClient(); continue }
            // Out of descriptors with none in reserve, out of memory: try again later, do not spin.
            pauseAccepting()
            return
        }
    }

    private func admit(_ fd: Int32) {
        Socket.configureConnection(fd)
        guard !stopping else { _ = close(fd); return }
        guard admitted < connectionLimit else { refuse(fd); return }
        accepted += 1
        admitted += 1
        let c = HTTPConnection(key: nextKey(), number: accepted, fd: fd, limits: configuration.limits)
        watch(c)
        idleOrder.append(c, now: Self.now())
    }

    /// Beyond the connection limit: 503, then a polite close (at once when many are refused together).
    private func refuse(_ fd: Int32) {
        guard refusing < refusalLimit else { refuseAtOnce(fd); return }
        refusing += 1
        let c = HTTPConnection(key: nextKey(), number: 0, fd: fd, limits: configuration.limits)
        c.takesRequests = false
        c.owe(HTTPConnection.Slot(bytes: Self.tooManyConnections, keepAlive: false, last: true))
        watch(c)
        pump(c)
    }

    /// 503 and close now, reading what has arrived first so that the close is less likely to reset
    /// the answer away.
    private func refuseAtOnce(_ fd: Int32) {
        Socket.drainArrived(fd)
        Socket.writeAll(fd, Self.tooManyConnections)
        _ = shutdown(fd, Int32(SHUT_WR))
        Socket.drainArrived(fd)
        _ = close(fd)
    }

    static let tooManyConnections = HTTPResponseWriter.bytes(ServerAnswer.error(503, "Too many connections; try again."), keepAlive: false)

    /// Out of descriptors: gives up the reserve for a moment to accept one waiting client and
    /// refuse it at once.
    private func shedOneClient() {
        _ = close(reserve)
        let client = accept(listenFD, nil, nil)
        if client >= 0 { refuseAtOnce(client) }
        reserve = Self.openDevNull()
    }

    private func pauseAccepting() {
        guard !acceptPaused else { return }
        acceptPaused = true
        poller.change(listenFD, key: Self.listenerKey, read: false, write: false)
        acceptResumesAt = Self.now() + Self.acceptPauseNanoseconds
    }

    private func resumeAccepting() {
        acceptResumesAt = nil
        if reserve < 0 { reserve = Self.openDevNull() }
        guard acceptPaused else { return }
        acceptPaused = false
        poller.change(listenFD, key: Self.listenerKey, read: true, write: false)
    }

    private func nextKey() -> Int {
        keys += 1
        return keys
    }

    // MARK: A connection's life

    /// Registers `c` and starts reading it.
    private func watch(_ c: HTTPConnection) {
        connections[c.key] = c
        poller.add(c.fd, key: c.key, read: true, write: false)
        c.reading = true
    }

    private func readable(_ c: HTTPConnection) {
        let n = recv(c.fd, readBuffer.baseAddress, readBuffer.count, 0)
        if n > 0 {
            if c.isLingering {
                c.lingerBytes += n
                if c.lingerBytes > Self.lingerBytes { end(c) }
                return
            }
            c.parser.feed(UnsafeBufferPointer(rebasing: readBuffer[0..<n]))
            touch(c)
            pump(c)
        } else if n == 0 {
            c.peerDone = true
            if c.isLingering || (!c.awaitsAnswer && c.unsent == 0) { end(c) } else { updateReading(c) }
        } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            end(c)
        }
    }

    /// Moves a connection on as far as it can go now: writes what is ready, hands the door the
    /// requests it has room for, writes again, then reads only if it can take more.
    private func pump(_ c: HTTPConnection) {
        flush(c)
        guard !c.closed else { return }
        takeRequests(c)
        flush(c)
        guard !c.closed else { return }
        if c.peerDone && !c.awaitsAnswer && c.unsent == 0 { end(c); return }
        updateReading(c)
    }

    /// Takes every whole request the parser holds, while the connection has room, for the door
    /// (``handOver()`` gives them at the end of the turn).
    private func takeRequests(_ c: HTTPConnection) {
        while c.takesRequests && c.slots.count < Self.pipelineDepth && c.unsent < Self.outboxLimit {
            switch c.parser.next() {
            case .request(let request):
                let keepAlive = request.keepAlive && !stopping
                if !keepAlive { c.takesRequests = false }
                let sequence = c.owe(HTTPConnection.Slot(keepAlive: keepAlive, headOnly: request.method == "HEAD", last: !keepAlive))
                let key = c.key
                handover.append((request, c.number, key, sequence))
            case .failure(let failure):
                let response = ServerAnswer.error(failure.status, failure.message)
                bridge.recordRefused(WireRequest(method: "-", target: "-"), response)
                c.owe(HTTPConnection.Slot(bytes: HTTPResponseWriter.bytes(response, keepAlive: false), keepAlive: false, last: true))
                c.takesRequests = false
            case .http2Preface:
                // HTTP/2 with prior knowledge: answered in HTTP/2 (SETTINGS, then GOAWAY
                // HTTP_1_1_REQUIRED), recorded as a refusal, then closed.
                bridge.recordRefused(WireRequest(method: "PRI", target: "*"), HTTP2Refusal.recorded)
                c.owe(HTTPConnection.Slot(bytes: HTTP2Refusal.bytes, keepAlive: false, last: true))
                c.takesRequests = false
            case .incomplete:
                if c.parser.wantsContinue {
                    c.owe(HTTPConnection.Slot(bytes: HTTPResponseWriter.continueBytes))
                    c.parser.continueSent()
                }
                return
            }
        }
    }

    /// Gives the door the requests read this turn. A lone request, with nothing else at the door,
    /// may be answered on this thread (``ServerDoor/answerAlone(_:connection:completion:)``): the
    /// loop has nothing else to do meanwhile, and the answer skips two hand-offs between threads.
    /// Several go over with ``ServerDoor/answer(_:connection:completion:)``, and the loop reads and
    /// writes on while the door works.
    private func handOver() {
        guard !handover.isEmpty else { return }
        let alone = handover.count == 1 && withDoor == 0
        let requests = handover
        handover.removeAll(keepingCapacity: true)
        withDoor += requests.count
        for r in requests {
            let (key, sequence) = (r.key, r.sequence)
            let completion: @Sendable (HTTPResponse) -> Void = { [self] response in deliver(key, sequence, response) }
            if alone { bridge.answerAlone(r.request, connection: r.connection, completion: completion) }
            else { bridge.answer(r.request, connection: r.connection, completion: completion) }
        }
    }

    /// The door's answer to request `sequence` of connection `key`, from the mailbox.
    private func answered(_ key: Int, _ sequence: Int, _ response: HTTPResponse) {
        withDoor -= 1
        guard let c = connections[key], c.settle(sequence, response) else { return }   // the connection is gone
        pump(c)
    }

    /// Writes the ready answers, in order, as far as the socket takes them.
    private func flush(_ c: HTTPConnection) {
        c.queueReadyAnswers()
        guard c.unsent > 0 else { return }
        var progressed = false
        while c.unsent > 0 {
            let n = c.outbox.withUnsafeBytes { send(c.fd, $0.baseAddress! + c.sent, $0.count - c.sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                c.sent += n
                progressed = true
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if progressed { touch(c) }
                c.writing = true
                updateInterest(c)
                return
            }
            end(c)   // the client is gone
            return
        }
        c.outbox.removeAll(keepingCapacity: c.outbox.capacity <= 16 * 1024)
        c.sent = 0
        touch(c)
        c.writing = false
        if c.lastQueued && !c.isLingering { linger(c) }
    }

    /// Reads while the connection can take more requests (or is lingering); otherwise leaves the
    /// bytes in the kernel, so that a client that floods or does not read its answers waits.
    private func updateReading(_ c: HTTPConnection) {
        c.reading = !c.closed && !c.peerDone
            && (c.isLingering || (c.takesRequests && c.slots.count < Self.pipelineDepth && c.unsent < Self.outboxLimit))
        updateInterest(c)
    }

    /// Tells the poller what `c` waits for now, if that changed.
    private func updateInterest(_ c: HTTPConnection) {
        guard !c.closed, c.reading != c.watchedReading || c.writing != c.watchedWriting else { return }
        c.watchedReading = c.reading
        c.watchedWriting = c.writing
        poller.change(c.fd, key: c.key, read: c.reading, write: c.writing)
    }

    /// After the last answer: shut the write side, then read and drop what the client still sends
    /// until it closes (1 s and 8 MiB at most), so that closing does not reset the connection
    /// before the client has read the answer (a 413 while it is still uploading, say).
    private func linger(_ c: HTTPConnection) {
        c.isLingering = true
        _ = shutdown(c.fd, Int32(SHUT_WR))
        if c.peerDone { end(c); return }
        idleOrder.remove(c)
        lingerOrder.append(c, now: Self.now())
        updateReading(c)
    }

    /// Closes `c` now.
    private func end(_ c: HTTPConnection) {
        guard !c.closed else { return }
        c.closed = true
        connections[c.key] = nil
        if c.number > 0 { admitted -= 1 } else { refusing -= 1 }
        idleOrder.remove(c)
        lingerOrder.remove(c)
        poller.remove(c.fd)
        _ = close(c.fd)
        c.outbox = []
    }

    private func touch(_ c: HTTPConnection) {
        if c.list == .idle { idleOrder.append(c, now: Self.now()) }
    }

    /// After a stop: closes every connection, the listening socket and the wake pipe.
    private func shutDown() {
        stopping = true
        for c in Array(connections.values) {
            _ = shutdown(c.fd, Int32(SHUT_RDWR))
            end(c)
        }
        poller.remove(listenFD)
        _ = close(listenFD)
        poller.remove(wakeRead)
        mailLock.withLock {
            _ = close(wakeRead)
            _ = close(wakeWrite)
            mailbox.removeAll()
        }
        if reserve >= 0 { _ = close(reserve) }
        reserve = -1
        poller.release()
    }

    // MARK: Time

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private var idleNanoseconds: UInt64 { UInt64(max(0, configuration.idleTimeoutSeconds)) * 1_000_000_000 }

    /// Closes the connections idle too long and those done lingering; resumes accepting.
    private func deadlinesPassed() {
        let now = Self.now()
        while let c = idleOrder.head, c.since &+ idleNanoseconds <= now {
            if c.awaitsAnswer { idleOrder.append(c, now: now) } else { end(c) }   // waiting for the door is not idle
        }
        while let c = lingerOrder.head, c.since &+ Self.lingerNanoseconds <= now { end(c) }
        if let at = acceptResumesAt, at <= now { resumeAccepting() }
    }

    /// The first deadline: the oldest idle connection's, the oldest lingering one's, the end of
    /// an accept pause. Activity only moves deadlines later, so this is exact for the list heads.
    private func nextDeadline() -> UInt64? {
        var next = UInt64.max
        if let c = idleOrder.head { next = c.since &+ idleNanoseconds }
        if let c = lingerOrder.head { next = min(next, c.since &+ Self.lingerNanoseconds) }
        if let at = acceptResumesAt { next = min(next, at) }
        return next == .max ? nil : next
    }

    /// How long the loop may wait for readiness: until the next deadline (rounded up), or forever.
    private func millisecondsToNextDeadline() -> Int32 {
        guard let deadline = nextDeadline() else { return -1 }
        let now = Self.now()
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }
}
