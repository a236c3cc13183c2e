import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PushSimKernel
import PushSimNetwork
@testable import PushSimServer
import Testing

/// The server holds connections without a thread each (issue 41, item 5): many idle ones, slow
/// readers, byte-by-byte writers and answers that take long cost no other client its answer.
@Suite(.serialized) struct ManyConnectionsTests {
    /// A server on a free port with a manual-clock world and `configure` applied.
    static func server(_ configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> HTTPServer {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 9), clock: .manual, anchor: testAnchor)
        var configuration = HTTPServer.Configuration()
        configure(&configuration)
        let server = HTTPServer(bridge: bridge, configuration: configuration)
        try server.start()
        return server
    }

    static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// Whether the server has written to or closed any of `clients` (poll with no wait).
    static func anyReadable(_ clients: [RawClient]) -> Bool {
        var fds = clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        return poll(&fds, nfds_t(fds.count), 0) > 0
    }

    /// One request on a fresh connection: its status and how long it took.
    static func timedRequest(_ port: Int, _ text: String = "GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n") throws -> (Int?, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let c = try RawClient(port: port)
        defer { c.close() }
        c.send(text)
        return (statusOf(c.readResponses(1).first ?? ""), seconds(since: start))
    }

    /// Makes an Android phone called `name` through the control API.
    static func addPhone(_ server: HTTPServer, _ name: String) throws {
        let c = try RawClient(port: server.port)
        defer { c.close() }
        let body = #"{"name":"\#(name)","platform":"android"}"#
        c.send("POST /_pushsim/devices HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(statusOf(c.readResponses(1).first ?? "") == 201)
    }

    @Test func twoThousandIdleConnectionsAreHeldWhileAnotherIsAnsweredPromptly() throws {
        let server = try Self.server()
        defer { server.stop() }
        let idle = try (0..<2_000).map { _ in try RawClient(port: server.port) }
        defer { idle.forEach { $0.close() } }
        let (status, took) = try Self.timedRequest(server.port)
        #expect(status == 200)
        #expect(took < 1, "a request behind 2,000 idle connections took \(took) s")
        usleep(200_000)
        #expect(!Self.anyReadable(idle), "the server answered or closed an idle connection")
        // And they are served, every one of them, when they speak.
        for c in idle.prefix(50) { c.send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n") }
        #expect(idle.prefix(50).allSatisfy { statusOf($0.readResponses(1).first ?? "") == 200 })
    }

    /// A client that pipelines hundreds of requests and never reads the answers fills its own
    /// buffers only: the server stops reading it, and answers everyone else.
    @Test func aSlowReaderDoesNotStallOthers() throws {
        let server = try Self.server()
        defer { server.stop() }
        let hog = try RawClient(port: server.port)
        defer { hog.close() }
        var small: Int32 = 4_096
        setsockopt(hog.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let request = Array("GET /_pushsim/info HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        // Non-blocking writes: once the server stops reading, the client's own buffers fill; stop there.
        var written = 0
        for _ in 0..<5_000 {
            let n = request.withUnsafeBytes { send(hog.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            guard n == request.count else { break }
            written += 1
        }
        #expect(written > 100)
        usleep(300_000)
        for _ in 0..<5 {
            let (status, took) = try Self.timedRequest(server.port)
            #expect(status == 200)
            #expect(took < 1, "a request took \(took) s while a client did not read its answers")
        }
        // The hog still gets its answers, in order, once it reads.
        let first = hog.readResponses(3)
        #expect(first.count == 3 && first.allSatisfy { statusOf($0) == 200 })
    }

    @Test func aRequestSentOneByteAtATimeIsAnswered() throws {
        let server = try Self.server()
        defer { server.stop() }
        let c = try RawClient(port: server.port)
        defer { c.close() }
        var yes: Int32 = 1
        setsockopt(c.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        let body = #"{"name":"slow-pixel","platform":"android"}"#
        let text = "POST /_pushsim/devices HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        for byte in text.utf8 {
            c.send([byte])
            usleep(1_000)
        }
        let answer = c.readResponses(1).first ?? ""
        #expect(statusOf(answer) == 201, "\(answer)")
        #expect(answer.contains("slow-pixel"))
        // Meanwhile another client was served as usual.
        #expect(try Self.timedRequest(server.port).0 == 200)
    }

    /// A long poll first, then a quick request on the same connection: the quick answer is ready
    /// long before, and waits its turn; another connection is served meanwhile.
    @Test func pipelinedAnswersStayInOrderBehindALongPoll() throws {
        let server = try Self.server()
        defer { server.stop() }
        try Self.addPhone(server, "poll-pixel")

        let start = DispatchTime.now().uptimeNanoseconds
        let c = try RawClient(port: server.port)
        defer { c.close() }
        c.send("GET /_pushsim/devices/poll-pixel/notifications?wait=1s HTTP/1.1\r\nHost: x\r\n\r\n"
               + "GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n")
        let (status, took) = try Self.timedRequest(server.port)
        #expect(status == 200)
        #expect(took < 0.5, "another connection waited \(took) s behind a long poll")
        let answers = c.readResponses(2)
        let waited = Self.seconds(since: start)
        try #require(answers.count == 2)
        #expect(answers[0].contains(#""waited":{"count":1,"reached":false}"#), "\(answers[0])")
        #expect(answers[1].contains(#""virtualMicroseconds""#), "\(answers[1])")
        #expect(waited >= 0.9, "the answers came after \(waited) s, before the poll's bound")
    }

    /// A connection with nothing to read or write is closed after the idle timeout; one whose
    /// answer is still pending (a long poll longer than the timeout) is not idle.
    @Test func idleConnectionsCloseButAPendingLongPollDoesNot() throws {
        let server = try Self.server { $0.idleTimeoutSeconds = 1 }
        defer { server.stop() }
        try Self.addPhone(server, "idle-pixel")
        let quiet = try RawClient(port: server.port)
        let poller = try RawClient(port: server.port)
        defer { quiet.close(); poller.close() }
        poller.send("GET /_pushsim/devices/idle-pixel/notifications?wait=2500ms HTTP/1.1\r\nHost: x\r\n\r\n")
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(quiet.readAll() == "")   // closed by the server, without an answer
        let closedAfter = Self.seconds(since: start)
        #expect(closedAfter > 0.8 && closedAfter < 2.5, "closed after \(closedAfter) s")
        let polled = poller.readResponses(1).first ?? ""
        #expect(statusOf(polled) == 200)
        #expect(polled.contains(#""reached":false"#))
        #expect(Self.seconds(since: start) > 2)
    }

    @Test func stopEndsOpenConnectionsAndPendingAnswersPromptly() throws {
        let server = try Self.server()
        try Self.addPhone(server, "stop-pixel")
        let setup = try RawClient(port: server.port)
        setup.send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(statusOf(setup.readResponses(1).first ?? "") == 200)
        let idle = try (0..<100).map { _ in try RawClient(port: server.port) }
        let poller = try RawClient(port: server.port)
        poller.send("GET /_pushsim/devices/stop-pixel/notifications?wait=60s HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(100_000)
        let start = DispatchTime.now().uptimeNanoseconds
        server.stop()
        #expect(Self.seconds(since: start) < 1)
        #expect(poller.readAll() == "")
        #expect(idle.allSatisfy { $0.readAll() == "" })
        #expect(setup.readAll() == "")
        ([setup, poller] + idle).forEach { $0.close() }
        #expect(throws: RawClient.RawClientError.self) { try RawClient(port: server.port) }
    }

    @Test func beyondMaxConnectionsANewConnectionIsAnswered503() throws {
        let server = try Self.server { $0.maxConnections = 3 }
        defer { server.stop() }
        let held = try (0..<3).map { _ in try RawClient(port: server.port) }
        let extra = try RawClient(port: server.port)
        extra.send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = extra.readAll()
        extra.close()
        #expect(statusOf(refused) == 503, "\(refused)")
        #expect(refused.contains("Connection: close"))
        // The held ones are served; once one leaves, a newcomer is admitted.
        held[0].send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(statusOf(held[0].readResponses(1).first ?? "") == 200)
        held[0].close()
        var admitted = false
        for _ in 0..<50 where !admitted {
            usleep(20_000)
            admitted = try Self.timedRequest(server.port, "GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").0 == 200
        }
        #expect(admitted)
        held.dropFirst().forEach { $0.close() }
    }
}
