import PushSimKernel
@testable import PushSimNetwork
import Testing

/// Answers 200 with the request's path, after `delay` if set; never answers when `silent`.
private final class EchoServer: Host {
    var delay: VirtualDuration?
    var silent = false
    private(set) var authorities: [String] = []

    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        authorities.append(request.authority)
        guard !silent else { return }
        let response = HTTPResponse(status: 200, text: request.path)
        if let delay { world.schedule(after: delay) { world.respond(to: exchange, with: response) } }
        else { world.respond(to: exchange, with: response) }
    }
}

/// Collects results handed to it as a ``CallReceiver``.
private final class Collector: Host, CallReceiver {
    private(set) var results: [(tag: UInt64, summary: String, body: String, at: VirtualTime)] = []
    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {}
    func receive(_ result: CallResult, tag: UInt64, world: World) {
        results.append((tag, result.summary, result.response?.bodyText ?? "", world.now))
    }
}

@Suite("World call table and receivers")
struct WorldCallTableTests {
    private func request(_ path: String, to authority: String = "server") -> HTTPRequest {
        HTTPRequest(method: "GET", authority: authority, path: path)
    }

    /// A world with an echo server under `serverName` and a collecting client named `client`.
    private func setUp(serverName: String = "server") -> (World, EchoServer, Collector) {
        let world = World(seed: 1)
        let server = EchoServer()
        let client = Collector()
        world.register(server, name: serverName)
        world.register(client, name: "client")
        return (world, server, client)
    }

    @Test func aReceiverGetsEachResultWithItsTag() {
        let (world, _, client) = setUp()
        for i in UInt64(0)..<5 { world.call(request("/\(i)"), from: "client", replyTo: client, tag: i * 10) }
        world.run()
        #expect(client.results.map(\.tag).sorted() == [0, 10, 20, 30, 40])
        for r in client.results { #expect(r.summary == "200" && r.body == "/\(r.tag / 10)") }
    }

    /// Slots are reused once a call finishes; an event left over for the finished call (its
    /// timeout) must not touch the call that reuses the slot.
    @Test func aReusedSlotIsNotHitByTheOldCallsTimeout() {
        let (world, server, client) = setUp()
        world.call(request("/first"), from: "client", timeout: .seconds(1), replyTo: client, tag: 1)
        world.run(until: .zero + .milliseconds(500)) // first answered; its timeout (1 s) still queued
        server.delay = .seconds(5)
        world.call(request("/second"), from: "client", timeout: .seconds(10), replyTo: client, tag: 2)
        world.run()
        #expect(client.results.map(\.tag) == [1, 2])
        #expect(client.results.map(\.summary) == ["200", "200"])
        #expect(world.leftovers().isEmpty)
    }

    /// A burst larger than the slab keeps is given back once the last call ends; the timeouts of
    /// the burst's calls, still queued, must then miss the calls made in the new, smaller slab.
    @Test func aReleasedSlabIsNotHitByTimeoutsOfItsCalls() {
        let (world, server, client) = setUp()
        for i in UInt64(0)..<5_000 { world.call(request("/\(i)"), from: "client", timeout: .seconds(1), replyTo: client, tag: i) }
        world.run(until: .zero + .milliseconds(500)) // all answered, slab released; 5,000 timeouts queued
        #expect(client.results.count == 5_000)
        server.delay = .seconds(5)
        world.call(request("/after"), from: "client", timeout: .seconds(10), replyTo: client, tag: 9_999)
        world.run()
        #expect(client.results.count == 5_001)
        #expect(client.results.last?.tag == 9_999 && client.results.last?.summary == "200")
        #expect(world.leftovers().isEmpty)
    }

    @Test func timeoutsOfDifferentLengthsFireInTimeOrder() {
        let world = World(seed: 1)
        let server = EchoServer()
        server.silent = true
        let client = Collector()
        world.register(server, name: "server")
        world.register(client, name: "client")
        world.call(request("/long"), from: "client", timeout: .seconds(30), replyTo: client, tag: 30)
        world.call(request("/short"), from: "client", timeout: .seconds(10), replyTo: client, tag: 10)
        world.call(request("/long2"), from: "client", timeout: .seconds(30), replyTo: client, tag: 31)
        world.run()
        #expect(client.results.map(\.tag) == [10, 30, 31])
        #expect(client.results.allSatisfy { $0.summary == TransportFailure.timedOut.rawValue })
        let seconds: [Int64] = client.results.map { $0.at.microseconds / 1_000_000 }
        #expect(seconds == [10, 30, 30])
    }

    /// Timeouts wait beside the event queue (`CallDeadlines`) and come out exactly where an event
    /// per call would have: a timer due at the same instant fires before the timeout of a call
    /// made after it was set, and after the timeout of a call made before.
    @Test func aTimeoutKeepsItsPlaceAmongEventsDueAtTheSameInstant() {
        let (world, server, client) = setUp()
        server.silent = true
        var order: [String] = []
        world.schedule(at: .zero + .seconds(10)) { order.append("timer set before the call") }
        world.call(request("/x"), from: "client", timeout: .seconds(10)) { result in order.append("timeout: \(result.summary)") }
        world.schedule(at: .zero + .seconds(10)) { order.append("timer set after the call") }
        world.run()
        #expect(order == ["timer set before the call", "timeout: \(TransportFailure.timedOut.rawValue)", "timer set after the call"])
        #expect(world.now == .zero + .seconds(10))
    }

    /// Answered calls leave their deadlines behind; passing over them must not move the clock
    /// (the run ends at the last answer, not at a deadline of a call long answered), and a silent
    /// call among thousands of answered ones still times out at its own deadline.
    @Test func answeredCallsLeaveNoTimeoutAndDoNotMoveTheClock() {
        let (world, server, client) = setUp()
        for i in UInt64(0)..<3_000 { world.call(request("/\(i)"), from: "client", timeout: .seconds(30), replyTo: client, tag: i) }
        world.run()
        #expect(client.results.count == 3_000)
        #expect(world.now == .zero + .milliseconds(20))
        world.run(until: .zero + .seconds(5))
        for i in UInt64(3_000)..<6_000 { world.call(request("/\(i)"), from: "client", timeout: .seconds(30), replyTo: client, tag: i) }
        world.run(until: .zero + .seconds(6))
        #expect(client.results.count == 6_000)
        server.silent = true
        world.call(request("/silent"), from: "client", timeout: .seconds(30), replyTo: client, tag: 9_999)
        world.run()
        #expect(client.results.count == 6_001)
        #expect(client.results.last?.tag == 9_999 && client.results.last?.summary == TransportFailure.timedOut.rawValue)
        #expect(client.results.last?.at == .zero + .seconds(36))
        #expect(world.now == .zero + .seconds(36))
        #expect(world.leftovers().isEmpty)
    }

    /// More timeout lengths than the deadline queues hold: the others get an event per call, and
    /// every timeout still fires at its time, in order.
    @Test func manyTimeoutLengthsAllFireInOrder() {
        let (world, server, client) = setUp()
        server.silent = true
        for s in (1...12).reversed() { world.call(request("/\(s)"), from: "client", timeout: .seconds(Int64(s)), replyTo: client, tag: UInt64(s)) }
        world.run()
        #expect(client.results.map(\.tag) == Array(1...12).map(UInt64.init))
        #expect(client.results.map { $0.at.microseconds / 1_000_000 } == Array(1...12).map(Int64.init))
    }

    /// `fleet#7` reaches the host registered as `fleet`, which sees the whole authority; a name
    /// whose part before `#` is unknown is still no such host.
    @Test func subAddressesReachTheirHost() {
        let (world, fleet, client) = setUp(serverName: "fleet")
        world.call(request("/push", to: "fleet#7"), from: "client", replyTo: client, tag: 7)
        world.call(request("/push", to: "nobody#7"), from: "client", replyTo: client, tag: 8)
        world.run()
        #expect(fleet.authorities == ["fleet#7"])
        #expect(client.results.map(\.summary).sorted() == ["200", TransportFailure.noSuchHost.rawValue])
    }

    @Test func aSubAddressCanBeOfflineOnItsOwn() {
        let (world, _, client) = setUp(serverName: "fleet")
        world.setOnline("fleet#2", false)
        world.call(request("/push", to: "fleet#1"), from: "client", replyTo: client, tag: 1)
        world.call(request("/push", to: "fleet#2"), from: "client", replyTo: client, tag: 2)
        world.run()
        #expect(client.results.sorted { $0.tag < $1.tag }.map(\.summary) == ["200", TransportFailure.unreachable.rawValue])
    }
}
