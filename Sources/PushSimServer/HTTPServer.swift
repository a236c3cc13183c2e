import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket side of `pushsim serve`: an HTTP/1.1 listener on one TCP port.
///
/// Threads: one accept thread, and one thread per connection (blocking reads and writes, simple
/// to follow; a loopback test server has few clients). Each connection thread owns its socket and
/// its ``HTTPRequestParser``, reads, answers the requests it finds in order through
/// ``ServerDoor/answer(_:connection:)`` (``WorldBridge`` runs them one at a time on the world's
/// queue; ``ScenarioLoopback`` hands them to a running scenario), and writes the
/// answers back, so pipelined requests are answered in order. Keep-alive is the default;
/// `Connection: close`, HTTP/1.0 without keep-alive, a protocol error or ``stop(timeout:)`` end a
/// connection; one that opens with the HTTP/2 preface gets `HTTP2Refusal.bytes` and is closed.
/// A connection quiet for ``Configuration/idleTimeoutSeconds`` is closed. Beyond
/// ``Configuration/maxConnections`` open at once, a new one gets 503 and is closed.
///
/// A client that goes away mid-request (mid-body, mid-header) costs only its own thread: nothing
/// reached the world, since a request goes to the bridge only once it is whole.
///
/// `@unchecked Sendable`: the mutable state (listening socket, open connections, the stopping
/// flag) is guarded by `lock`; the bridge is Sendable; the rest is immutable after `init`.
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
        /// Most connections open at once (default 256); a connection beyond them is answered 503 and closed.
        public var maxConnections = 256
        /// Seconds a connection may wait for more bytes before it is closed (default 60).
        public var idleTimeoutSeconds = 60
        /// Listens on `host` (default `127.0.0.1`) at `port` (default 0: any free port); the other
        /// settings at their defaults.
        public init(host: String = "127.0.0.1", port: Int = 0) { self.host = host; self.port = port }
    }

    /// What answers the requests: the served world, or a scenario run's loopback.
    public let bridge: any ServerDoor
    /// The settings the server was made with.
    public let configuration: Configuration
    private let lock = NSLock()
    private var listenSocket: Int32 = -1
    private var open: [Int32] = []
    private var stopping = false
    /// Connections accepted so far (only the accept thread touches it); numbers each connection.
    private var accepted = 0
    private let threads = DispatchGroup()
    /// The port listened on, once ``start()`` returned.
    public private(set) var port = 0

    /// A server whose requests `bridge` answers; nothing is bound until ``start()``.
    public init(bridge: any ServerDoor, configuration: Configuration = Configuration()) {
        self.bridge = bridge
        self.configuration = configuration
    }

    /// An error saying why a server could not start. Not thrown at present: ``start()`` throws
    /// the socket layer's own error, whose `description` names the call that failed.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// `http://<host>:<port>` once started.
    public var baseURL: String { "http://\(configuration.host == "localhost" ? "127.0.0.1" : configuration.host):\(port)" }

    /// Binds, listens and starts the accept thread; returns the port.
    @discardableResult
    public func start() throws -> Int {
        let fd = try Socket.listen(host: configuration.host == "localhost" ? "127.0.0.1" : configuration.host, port: configuration.port)
        let bound = Socket.localPort(fd)
        lock.withLock {
            listenSocket = fd
            port = bound
        }
        bridge.configure(baseURL: baseURL, serviceAccountPath: nil)
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop(fd)
            threads.leave()
        }
        thread.name = "pushsim-accept"
        thread.start()
        return bound
    }

    /// Stops accepting, ends every connection (answers being written are cut), waits up to
    /// `timeout` seconds for the threads, then flushes and closes the record.
    public func stop(timeout: Double = 5) {
        lock.withLock {
            stopping = true
            if listenSocket >= 0 { _ = shutdown(listenSocket, Int32(SHUT_RDWR)) }
            for fd in open { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
        _ = threads.wait(timeout: .now() + timeout)
        bridge.close()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    // MARK: Threads

    /// A descriptor kept in reserve: when the process runs out, it is given up for a moment to
    /// accept the waiting client and close it, instead of spinning (or sleeping) on `accept`.
    private var reserve = HTTPServer.openDevNull()

    /// `open("/dev/null", O_RDONLY)`, named by module: inside this class `open` is the set of open
    /// connections.
    private static func openDevNull() -> Int32 {
        #if canImport(Glibc)
        return Glibc.open("/dev/null", O_RDONLY)
        #else
        return Darwin.open("/dev/null", O_RDONLY)
        #endif
    }

    private func shedOneConnection(_ fd: Int32) {
        close(reserve)
        let client = accept(fd, nil, nil)
        if client >= 0 { close(client) }
        reserve = Self.openDevNull()
    }

    private func acceptLoop(_ fd: Int32) {
        while !isStopping {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if isStopping { break }
                if errno == EMFILE || errno == ENFILE { shedOneConnection(fd) }
                continue   // EINTR, ECONNABORTED and the like: accept again
            }
            let admitted: Bool = lock.withLock {
                guard !stopping, open.count < configuration.maxConnections else { return false }
                open.append(client)
                return true
            }
            guard admitted else {
                Socket.drainArrived(client)
                Socket.writeAll(client, HTTPResponseWriter.bytes(ServerAnswer.error(503, "Too many connections; try again."), keepAlive: false))
                _ = shutdown(client, Int32(SHUT_WR))
                Socket.drainArrived(client)
                close(client)
                continue
            }
            Socket.configureConnection(client, idleTimeoutSeconds: configuration.idleTimeoutSeconds)
            threads.enter()
            accepted += 1
            let connection = accepted
            let thread = Thread { [self] in
                serve(client, connection: connection)
                lock.withLock {
                    open.removeAll { $0 == client }
                    close(client)
                }
                threads.leave()
            }
            thread.name = "pushsim-connection"
            thread.start()
        }
        lock.withLock {
            close(fd)
            listenSocket = -1
        }
    }

    /// Reads requests off one connection and answers them in order until it ends.
    private func serve(_ fd: Int32, connection: Int) {
        var parser = HTTPRequestParser(limits: configuration.limits)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var needMore = false
            while !needMore {
                switch parser.next() {
                case .request(let request):
                    let response = bridge.answer(request, connection: connection)
                    let keepAlive = request.keepAlive && !isStopping
                    guard Socket.writeAll(fd, HTTPResponseWriter.bytes(response, keepAlive: keepAlive, headOnly: request.method == "HEAD")),
                          keepAlive else { return }
                case .failure(let failure):
                    let response = ServerAnswer.error(failure.status, failure.message)
                    bridge.recordRefused(WireRequest(method: "-", target: "-"), response)
                    Socket.writeAll(fd, HTTPResponseWriter.bytes(response, keepAlive: false))
                    Socket.lingeringClose(fd)
                    return
                case .http2Preface:
                    // HTTP/2 with prior knowledge: answered in HTTP/2 (SETTINGS, then GOAWAY
                    // HTTP_1_1_REQUIRED), recorded as a refusal, then closed.
                    bridge.recordRefused(WireRequest(method: "PRI", target: "*"), HTTP2Refusal.recorded)
                    Socket.writeAll(fd, HTTP2Refusal.bytes)
                    Socket.lingeringClose(fd)
                    return
                case .incomplete:
                    if parser.wantsContinue {
                        Socket.writeAll(fd, HTTPResponseWriter.continueBytes)
                        parser.continueSent()
                    }
                    needMore = true
                }
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }   // closed by the client, an error, the idle timeout, or stop()
            parser.feed(buffer[0..<n])
        }
    }
}
