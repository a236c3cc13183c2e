import PushSimKernel
@testable import PushSimNetwork
import Testing

/// A server for the tests: records what reaches it (time, path, correlation) and answers 200
/// with the path as body, at once or after `delay`; `answers = false` makes it never answer.
final class WorldTestServer: Host {
    var delay: VirtualDuration?
    var answers = true
    var status = 200
    private(set) var received: [(time: VirtualTime, path: String, correlation: String, caller: String)] = []
    var extraLeftovers: [String] = []

    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        received.append((world.now, request.path, world.correlation, exchange.caller))
        guard answers else { return }
        let response = HTTPResponse(status: status, text: request.path)
        if let delay {
            world.schedule(after: delay) { world.respond(to: exchange, with: response) }
        } else {
            world.respond(to: exchange, with: response)
        }
    }

    func leftovers(world: World) -> [Leftover] { extraLeftovers.map { Leftover($0) } }
}

/// What a caller saw: when each result came back, and which.
struct WorldCallOutcome: Equatable {
    var time: VirtualTime
    var tag: String
    var result: CallResult
    var correlation: String
}

@Suite("World")
struct WorldTests {
    func ms(_ n: Int64) -> VirtualTime { .zero + .milliseconds(n) }
    func get(_ path: String, to authority: String = "server") -> HTTPRequest {
        HTTPRequest(method: "GET", authority: authority, path: path)
    }

    /// A world with a server named `server` (alias `server.example.com`) and a caller host `client`.
    func makeWorld(seed: UInt64 = 1) -> (World, WorldTestServer) {
        let world = World(seed: seed)
        let server = WorldTestServer()
        world.register(server, name: "server", aliases: ["server.example.com"])
        world.register(WorldTestServer(), name: "client")
        return (world, server)
    }

    /// Calls `request` from `client` and collects the outcome into `outcomes`.
    func call(_ world: World, _ request: HTTPRequest, tag: String, timeout: VirtualDuration = .seconds(30),
                      from: String = "client", into box: OutcomeBox) {
        world.call(request, from: from, timeout: timeout) { result in
            box.items.append(WorldCallOutcome(time: world.now, tag: tag, result: result, correlation: world.correlation))
        }
    }

    final class OutcomeBox { var items: [WorldCallOutcome] = [] }

    func kinds(_ world: World, _ kind: String) -> [TraceEvent] { world.trace.events.filter { $0.kind.name == kind } }

    // MARK: Latency

    @Test func defaultFixedLatencyIsTenMillisecondsEachWay() {
        let (world, server) = makeWorld()
        let box = OutcomeBox()
        call(world, get("/a"), tag: "a", into: box)
        #expect(world.run() == .quiescent)
        #expect(server.received.map(\.time) == [ms(10)])
        #expect(box.items.map(\.time) == [ms(20)])
        #expect(box.items.first?.result.response?.bodyText == "/a")
        #expect(box.items.first?.result.status == 200)
    }

    @Test func configuredFixedLatencyIsApplied() {
        let (world, server) = makeWorld()
        world.faults.latencyMin = .milliseconds(25)
        world.faults.latencyMax = .milliseconds(25)
        let box = OutcomeBox()
        world.schedule(at: ms(100)) { call(world, get("/a"), tag: "a", into: box) }
        world.run()
        #expect(server.received.map(\.time) == [ms(125)])
        #expect(box.items.map(\.time) == [ms(150)])
    }

    /// Fixed delays queue in lanes, other events in the heap (`World.schedule(_:after:inOrder:)`):
    /// arrivals, timers at the same instants and a latency changed mid-run must still come out
    /// by time, then in the order they were scheduled.
    @Test func fixedLatencyLanesKeepTimeThenSchedulingOrder() {
        let (world, server) = makeWorld()
        var seen: [String] = []
        let box = OutcomeBox()
        for i in 0..<3 { call(world, get("/a\(i)"), tag: "a\(i)", into: box) }
        world.schedule(at: ms(10)) { seen.append("timer@10") }       // scheduled after the calls: runs after their arrivals
        world.schedule(at: ms(5)) {
            world.faults.latencyMin = .milliseconds(3)
            world.faults.latencyMax = .milliseconds(3)
            call(world, get("/b"), tag: "b", into: box)              // arrives at 8 ms, before the first three
        }
        world.run()
        #expect(server.received.map(\.path) == ["/b", "/a0", "/a1", "/a2"])
        #expect(server.received.map(\.time) == [ms(8), ms(10), ms(10), ms(10)])
        #expect(box.items.map(\.tag) == ["b", "a0", "a1", "a2"])
        #expect(box.items.map(\.time) == [ms(11), ms(13), ms(13), ms(13)])
        #expect(seen == ["timer@10"])
    }

    /// More distinct fixed link latencies than the world keeps lanes for: the rest go to the heap,
    /// and every message still arrives at its own latency.
    @Test func manyDistinctFixedLatenciesStillArriveOnTime() {
        let world = World(seed: 1)
        let server = WorldTestServer()
        world.register(server, name: "server")
        let callers = (1...12).map { "c\($0)" }
        for (k, name) in callers.enumerated() {
            world.register(WorldTestServer(), name: name)
            world.faults.linkLatency.append(LinkLatency(between: [name, "server"], min: .milliseconds(Int64(k + 1)), max: .milliseconds(Int64(k + 1))))
        }
        let box = OutcomeBox()
        for name in callers.reversed() { call(world, get("/" + name), tag: name, from: name, into: box) }
        world.run()
        #expect(server.received.map(\.path) == callers.map { "/" + $0 })
        #expect(server.received.map(\.time) == (1...12).map { ms(Int64($0)) })
        #expect(box.items.map(\.time) == (1...12).map { ms(Int64(2 * $0)) })
    }

    /// Runs twenty calls with a 5–50 ms latency range and returns the server and caller arrival times.
    private func rangedRun(seed: UInt64) -> (requests: [VirtualTime], responses: [VirtualTime]) {
        let (world, server) = makeWorld(seed: seed)
        world.faults.latencyMin = .milliseconds(5)
        world.faults.latencyMax = .milliseconds(50)
        let box = OutcomeBox()
        for i in 0..<20 { call(world, get("/\(i)"), tag: "\(i)", into: box) }
        world.run()
        let responses = box.items.sorted { Int($0.tag)! < Int($1.tag)! }.map(\.time)
        let requests = (0..<20).map { i in server.received.first { $0.path == "/\(i)" }!.time }
        return (requests, responses)
    }

    @Test func seededLatencyRangeIsWithinBoundsAndRepeatable() {
        let first = rangedRun(seed: 42)
        let again = rangedRun(seed: 42)
        let other = rangedRun(seed: 43)
        #expect(first.requests == again.requests)
        #expect(first.responses == again.responses)
        #expect(first.requests != other.requests || first.responses != other.responses)
        // Each leg is drawn inside [5 ms, 50 ms], so a round trip is inside [10 ms, 100 ms].
        for t in first.requests { #expect(t >= ms(5) && t <= ms(50)) }
        for (req, resp) in zip(first.requests, first.responses) {
            #expect(resp - req >= .milliseconds(5) && resp - req <= .milliseconds(50))
        }
        // A range really varies: not every request took the same time.
        #expect(Set(first.requests).count > 1)
    }

    // MARK: Ordering

    @Test func continuationNeverRunsInsideCall() {
        let (world, _) = makeWorld()
        let box = OutcomeBox()
        call(world, get("/x", to: "nowhere"), tag: "x", into: box)
        #expect(box.items.isEmpty)
        world.run()
        #expect(box.items.count == 1)
    }

    @Test func requestsArriveAndResponsesReturnInOrder() {
        let (world, server) = makeWorld()
        let box = OutcomeBox()
        for name in ["a", "b", "c"] { call(world, get("/" + name), tag: name, into: box) }
        world.run()
        #expect(server.received.map(\.path) == ["/a", "/b", "/c"])
        #expect(box.items.map(\.tag) == ["a", "b", "c"])
        #expect(box.items.allSatisfy { $0.time == ms(20) })
    }

    @Test func aSlowerAnswerComesBackLater() {
        let world = World(seed: 1)
        let slow = WorldTestServer()
        slow.delay = .seconds(2)
        let fast = WorldTestServer()
        world.register(slow, name: "slow")
        world.register(fast, name: "fast")
        let box = OutcomeBox()
        call(world, get("/s", to: "slow"), tag: "slow", into: box)
        call(world, get("/f", to: "fast"), tag: "fast", into: box)
        world.run()
        #expect(box.items.map(\.tag) == ["fast", "slow"])
        #expect(box.items.map(\.time) == [ms(20), ms(2_020)])
    }

    @Test func sameInstantEventsRunInSchedulingOrder() {
        let world = World(seed: 1)
        var order: [String] = []
        // Scheduled out of time order, several at the same instant, some from inside a timer.
        world.schedule(at: ms(5)) { order.append("t5-a") }
        world.schedule(at: ms(1)) {
            order.append("t1")
            world.schedule(at: ms(5)) { order.append("t5-late") }
            world.schedule(after: .zero) { order.append("t1-zero") }
        }
        world.schedule(at: ms(5)) { order.append("t5-b") }
        world.schedule(at: ms(5)) { order.append("t5-c") }
        world.run()
        #expect(order == ["t1", "t1-zero", "t5-a", "t5-b", "t5-c", "t5-late"])
        #expect(world.now == ms(5))
    }

    // MARK: Timers

    @Test func timersFireAtTheirTimeAndCancelledOnesNever() {
        let world = World(seed: 1)
        var fired: [(String, VirtualTime)] = []
        let keep = world.schedule(after: .seconds(3)) { fired.append(("keep", world.now)) }
        let drop = world.schedule(after: .seconds(2)) { fired.append(("drop", world.now)) }
        world.schedule(at: .zero + .seconds(1)) { fired.append(("first", world.now)) }
        world.cancel(drop)
        #expect(keep != drop)
        #expect(world.run() == .quiescent)
        #expect(fired.map(\.0) == ["first", "keep"])
        #expect(fired.map(\.1) == [.zero + .seconds(1), .zero + .seconds(3)])
        // The cancelled timer is skipped: it is not counted as an event and does not move the clock.
        #expect(world.eventsProcessed == 2)
        #expect(world.now == .zero + .seconds(3))
        #expect(world.leftovers().isEmpty)
    }

    @Test func cancellingFromAnotherTimerAtTheSameInstantWorks() {
        let world = World(seed: 1)
        var fired: [String] = []
        var victim: TimerID?
        world.schedule(at: ms(7)) { fired.append("killer"); world.cancel(victim!) }
        victim = world.schedule(at: ms(7)) { fired.append("victim") }
        world.run()
        #expect(fired == ["killer"])
    }

    @Test func cancellingAFiredTimerIsHarmless() {
        let world = World(seed: 1)
        var count = 0
        let t = world.schedule(after: .seconds(1)) { count += 1 }
        world.run()
        world.cancel(t)
        world.schedule(after: .seconds(1)) { count += 10 }
        world.run()
        #expect(count == 11)
    }

    // MARK: Correlation

    @Test func correlationIsInheritedByCallsHandlersContinuationsAndTimers() {
        let (world, server) = makeWorld()
        var seen: [String: String] = [:]
        world.schedule(at: ms(1)) {
            let c = world.newCorrelation()
            seen["start"] = c
            world.call(get("/one"), from: "client") { _ in
                seen["continuation"] = world.correlation
                world.schedule(after: .seconds(1)) { seen["timer"] = world.correlation }
            }
        }
        world.schedule(at: ms(2)) {
            seen["second"] = world.newCorrelation()
            world.call(get("/two"), from: "client") { _ in seen["continuation2"] = world.correlation }
        }
        world.run()
        #expect(seen["start"] == "c0001")
        #expect(seen["second"] == "c0002")
        #expect(seen["continuation"] == "c0001")
        #expect(seen["timer"] == "c0001")
        #expect(seen["continuation2"] == "c0002")
        #expect(server.received.map(\.correlation) == ["c0001", "c0002"])
        // The trace carries the chain, and the world forgets it once the run ends.
        let requests = kinds(world, "http.request")
        #expect(requests.map(\.correlation) == ["c0001", "c0002"])
        let responses = kinds(world, "http.response")
        #expect(responses.map(\.correlation) == ["c0001", "c0002"])
        #expect(world.correlation == "")
        #expect(world.journal.entries.map(\.correlation) == ["c0001", "c0002"])
    }

    @Test func timersOutsideAChainHaveNoCorrelation() {
        let world = World(seed: 1)
        var seen: String?
        world.schedule(after: .seconds(1)) { seen = world.correlation }
        world.schedule(at: .zero) { world.newCorrelation() }
        world.run()
        #expect(seen == "")
    }

    // MARK: Journal and leftovers

    @Test func journalRecordsEveryCallWithItsResult() {
        let (world, _) = makeWorld()
        let box = OutcomeBox()
        call(world, get("/ok", to: "server.example.com"), tag: "ok", into: box)
        call(world, get("/dns", to: "nowhere"), tag: "dns", into: box)
        #expect(world.journal.entries.count == 2)
        #expect(world.journal.entries.allSatisfy { $0.result == nil && $0.completedAt == nil })
        world.run()
        let entries = world.journal.entries
        #expect(entries.map(\.from) == ["client", "client"])
        #expect(entries.map(\.to) == ["server", "nowhere"]) // the alias is journalled under the primary name
        #expect(entries.map(\.request.path) == ["/ok", "/dns"])
        #expect(entries[0].result?.status == 200)
        #expect(entries[0].completedAt == ms(20))
        #expect(entries[1].result == .failure(.noSuchHost))
        #expect(entries[1].completedAt == .zero)
        #expect(world.journal.requests(to: "server").count == 1)
    }

    @Test func journalCanBeSwitchedOff() {
        let (world, _) = makeWorld()
        world.journal.isRecording = false
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", into: box)
        world.run()
        #expect(world.journal.entries.isEmpty)
        #expect(box.items.count == 1)
    }

    @Test func leftoversListCallsInFlightTimersAndHostLeftovers() {
        let (world, server) = makeWorld()
        server.answers = false
        server.extraLeftovers = ["1 thing kept"]
        world.schedule(at: .zero) {
            world.newCorrelation()
            world.call(HTTPRequest(method: "POST", authority: "server", path: "/a"), from: "client") { _ in }
            world.call(HTTPRequest(method: "GET", authority: "server.example.com", path: "/b"), from: "client") { _ in }
        }
        world.schedule(after: .hours(1)) {}
        world.run(until: .zero + .seconds(1))
        #expect(world.leftovers().map(\.line) == [
            "network: call POST server/a from client still in flight [c0001]",
            "network: call GET server.example.com/b from client still in flight [c0001]",
            "network: 1 timer(s) not yet fired",
            "server: 1 thing kept",
        ])
        world.run()
        #expect(world.leftovers().map(\.line) == ["server: 1 thing kept"])
    }

    // MARK: Running

    @Test func runUntilStopsAtTheTimeAndMovesTheClock() {
        let world = World(seed: 1)
        var fired: [VirtualTime] = []
        world.schedule(at: .zero + .seconds(10)) { fired.append(world.now) }
        #expect(world.run(until: .zero + .seconds(5)) == .stoppedAt(.zero + .seconds(5)))
        #expect(world.now == .zero + .seconds(5))
        #expect(fired.isEmpty)
        // Events at exactly the stop time still run.
        #expect(world.run(until: .zero + .seconds(10)) == .quiescent)
        #expect(fired == [.zero + .seconds(10)])
        // With nothing left, the clock still moves to the stop time.
        #expect(world.run(until: .zero + .seconds(20)) == .quiescent)
        #expect(world.now == .zero + .seconds(20))
        // New work is scheduled relative to the moved clock.
        world.schedule(after: .seconds(1)) { fired.append(world.now) }
        world.run()
        #expect(fired.last == .zero + .seconds(21))
    }

    @Test func eventLimitEndsTheRunWithAMessage() {
        var limits = RunLimits()
        limits.maxEvents = 5
        let world = World(seed: 1, limits: limits)
        var ticks = 0
        func tick() { ticks += 1; world.schedule(after: .seconds(1)) { tick() } }
        world.schedule(at: .zero) { tick() }
        let end = world.run()
        #expect(end.isLimit)
        if case .limitReached(let message) = end { #expect(message.hasPrefix("event limit reached: 5 events")) }
        #expect(ticks == 5)
        #expect(world.eventsProcessed == 5)
        #expect(world.leftovers().map(\.line) == ["network: 1 timer(s) not yet fired"])
    }

    @Test func timeLimitEndsTheRunWithoutRunningTheLateEvent() {
        let world = World(seed: 1, limits: RunLimits(maxTime: .zero + .hours(1)))
        var fired: [String] = []
        world.schedule(after: .minutes(30)) { fired.append("early") }
        world.schedule(after: .hours(2)) { fired.append("late") }
        let end = world.run()
        #expect(end.isLimit)
        if case .limitReached(let message) = end { #expect(message.hasPrefix("virtual time limit reached")) }
        #expect(fired == ["early"])
        #expect(world.now == .zero + .minutes(30))
        world.limits = RunLimits()
        #expect(world.run() == .quiescent)
        #expect(fired == ["early", "late"])
    }

    // MARK: Hosts and determinism

    @Test func aliasesResolveToThePrimaryName() {
        let (world, server) = makeWorld()
        #expect(world.primaryName("server.example.com") == "server")
        #expect(world.primaryName("server") == "server")
        #expect(world.primaryName("nope") == nil)
        #expect(world.hostNames == ["server", "client"])
        #expect(world.host(named: "server.example.com") === server)
    }

    @Test func randomStreamsAreNamedForksOfTheSeed() {
        let a = World(seed: 5), b = World(seed: 5), c = World(seed: 6)
        var x = a.randomStream("apns"), y = b.randomStream("apns"), z = c.randomStream("apns"), w = a.randomStream("fcm")
        let xs = (0..<4).map { _ in x.next() }
        #expect(xs == (0..<4).map { _ in y.next() })
        #expect(xs != (0..<4).map { _ in z.next() })
        #expect(xs != (0..<4).map { _ in w.next() })
    }

    @Test func sameSeedGivesTheSameTraceBytes() {
        func trace(seed: UInt64) -> String {
            let (world, server) = makeWorld(seed: seed)
            server.delay = .milliseconds(3)
            world.faults.latencyMin = .milliseconds(1)
            world.faults.latencyMax = .milliseconds(90)
            world.faults.rules = [LinkFault(effect: .loss(Ratio(1, 4)))]
            for i in 0..<30 {
                world.schedule(at: .zero + .milliseconds(Int64(i * 7))) {
                    world.newCorrelation()
                    world.call(HTTPRequest(method: "GET", authority: "server", path: "/\(i)"), from: "client", timeout: .seconds(1)) { _ in }
                }
            }
            world.run()
            return TraceFormat.jsonLines(world.trace.events)
        }
        let a = trace(seed: 99)
        #expect(a == trace(seed: 99))
        #expect(a != trace(seed: 100))
        #expect(a.contains("fault.injected"))
    }
}
