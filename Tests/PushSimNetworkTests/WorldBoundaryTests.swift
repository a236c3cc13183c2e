import PushSimKernel
@testable import PushSimNetwork
import Testing

/// An echo server: answers 200 at once.
private final class EchoServer: Host {
    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        world.respond(to: exchange, with: HTTPResponse(status: 200, text: request.path))
    }
    func leftovers(world: World) -> [Leftover] { [] }
}

/// What `pushsim serve` relies on at the world's edge: callers outside the world and a journal
/// that keeps only the newest calls.
@Suite struct WorldBoundaryTests {
    private func world() -> World {
        let world = World(seed: 1)
        world.register(EchoServer(), name: "server")
        world.register(EchoServer(), name: "inside")
        return world
    }

    /// With an outside latency of zero, a caller outside the world (not a host of it) is answered
    /// at the instant it called; hosts of the world still take the network's 10 ms each way.
    @Test func outsideCallersTakeTheOutsideLatency() {
        let w = world()
        w.outsideLatency = .zero
        var outsideAt: VirtualTime?, insideAt: VirtualTime?
        w.call(HTTPRequest(method: "GET", authority: "server", path: "/a"), from: "sdk#1") { _ in outsideAt = w.now }
        w.call(HTTPRequest(method: "GET", authority: "server", path: "/b"), from: "inside") { _ in insideAt = w.now }
        w.run()
        #expect(outsideAt == .zero)
        #expect(insideAt == .zero + .milliseconds(20))
    }

    /// Without it (scenarios), an outside caller takes the network's latency like any host.
    @Test func withoutAnOutsideLatencyOutsideCallersAreLikeHosts() {
        let w = world()
        var at: VirtualTime?
        w.call(HTTPRequest(method: "GET", authority: "server", path: "/a"), from: "sdk#1") { _ in at = w.now }
        w.run()
        #expect(at == .zero + .milliseconds(20))
    }

    /// Fault rules still apply to outside callers' messages: a partition of every link loses them.
    @Test func faultRulesStillApplyToOutsideCallers() {
        let w = world()
        w.outsideLatency = .zero
        w.faults.rules = [LinkFault(effect: .partition)]
        var result: CallResult?
        w.call(HTTPRequest(method: "GET", authority: "server", path: "/a"), from: "sdk#1", timeout: .seconds(1)) { result = $0 }
        w.run()
        #expect(result == .failure(.timedOut))
    }

    /// The journal keeps the newest calls and numbers every call since the world began; outcomes
    /// of calls still kept are filled in, those of dropped calls are not kept.
    @Test func theJournalKeepsTheNewestCalls() {
        let w = world()
        w.journal.retention = Retention(keeping: 16)
        for i in 0..<100 { w.call(HTTPRequest(method: "GET", authority: "server", path: "/\(i)"), from: "inside") { _ in } }
        w.run()
        #expect(w.journal.count == 100)
        #expect(w.journal.entries.count <= 16 + 2 + 1)
        #expect(w.journal.dropped == 100 - w.journal.entries.count)
        #expect(w.journal.entries.last?.request.path == "/99")
        #expect(w.journal.entries.allSatisfy { $0.result?.status == 200 })
        #expect(w.journal.entries(from: 98).map(\.request.path) == ["/98", "/99"])
        #expect(w.journal.entries(from: 0).count == w.journal.entries.count)
        #expect(w.journal.entries(from: 1_000).isEmpty)
    }
}
