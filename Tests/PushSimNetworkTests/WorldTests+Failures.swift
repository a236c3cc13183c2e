import PushSimKernel
@testable import PushSimNetwork
import Testing

/// The world when calls fail: unknown or offline hosts, lost messages, partitions, late answers.
extension WorldTests {
    // MARK: Transport failures

    @Test func callToUnknownHostFailsWithNoSuchHostAtOnce() {
        let (world, _) = makeWorld()
        let box = OutcomeBox()
        world.schedule(at: ms(3)) { call(world, get("/x", to: "nowhere.example"), tag: "x", into: box) }
        world.run()
        #expect(box.items == [WorldCallOutcome(time: ms(3), tag: "x", result: .failure(.noSuchHost), correlation: "")])
        #expect(world.journal.entries.first?.to == "nowhere.example")
        #expect(world.journal.entries.first?.result == .failure(.noSuchHost))
        #expect(kinds(world, "http.failure").first?[.error] == "no such host")
    }

    @Test func callerNeedNotBeARegisteredHost() {
        let (world, server) = makeWorld()
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", from: "unregistered-caller", into: box)
        world.run()
        #expect(box.items.map(\.result.status) == [200])
        #expect(server.received.map(\.caller) == ["unregistered-caller"])
    }

    @Test func offlineCallerFailsAtOnceAndNothingIsSent() {
        let (world, server) = makeWorld()
        world.setOnline("client", false)
        #expect(!world.isOnline("client"))
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", into: box)
        world.run()
        #expect(box.items.map(\.result) == [.failure(.callerOffline)])
        #expect(box.items.map(\.time) == [.zero])
        #expect(server.received.isEmpty)
        #expect(kinds(world, "host.offline").map(\.host) == ["client"])
    }

    @Test func offlineTargetIsUnreachableAfterTheRoundTrip() {
        let (world, server) = makeWorld()
        world.setOnline("server.example.com", false) // by alias: the primary name goes offline
        #expect(!world.isOnline("server"))
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", timeout: .seconds(5), into: box)
        world.run()
        #expect(box.items.map(\.result) == [.failure(.unreachable)])
        #expect(box.items.map(\.time) == [ms(20)])
        #expect(server.received.isEmpty)
        #expect(kinds(world, "http.refused").map(\.time) == [ms(10)])
    }

    @Test func targetBackOnlineIsReachedAgain() {
        let (world, server) = makeWorld()
        world.setOnline("server", false)
        world.setOnline("server", true)
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", into: box)
        world.run()
        #expect(box.items.map(\.result.status) == [200])
        #expect(server.received.count == 1)
    }

    // MARK: Faults

    @Test func lossRuleDropsTheRequestAndTheCallerTimesOut() {
        let (world, server) = makeWorld()
        world.faults.rules = [LinkFault(between: ["client", "server"], effect: .loss(.always))]
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", timeout: .seconds(5), into: box)
        world.run()
        #expect(server.received.isEmpty)
        #expect(box.items.map(\.result) == [.failure(.timedOut)])
        #expect(box.items.map(\.time) == [.zero + .seconds(5)])
        let injected = kinds(world, "fault.injected")
        #expect(injected.count == 1)
        #expect(injected.first?[.fault] == "loss 1/1 client<->server")
        #expect(injected.first?[.lost] == "request")
        #expect(kinds(world, "http.failure").first?[.error] == "timed out")
    }

    /// A rule names the hosts whose links it covers: before, a list of one or three names silently
    /// covered every link in the world.
    @Test func aRuleCoversOnlyLinksBetweenTheHostsItNames() {
        let three = LinkFault(between: ["client", "server", "hub"], effect: .partition)
        #expect(three.applies(from: "client", to: "server", at: .zero) && three.applies(from: "hub", to: "client", at: .zero))
        #expect(!three.applies(from: "client", to: "elsewhere", at: .zero))
        let one = LinkFault(between: ["client"], effect: .partition)
        #expect(!one.applies(from: "client", to: "server", at: .zero))
        #expect(LinkFault(effect: .partition).applies(from: "client", to: "elsewhere", at: .zero))
    }

    @Test func lossRuleOnAnotherLinkOrWithZeroRatioDropsNothing() {
        let (world, server) = makeWorld()
        world.faults.rules = [LinkFault(between: ["client", "elsewhere"], effect: .loss(.always)),
                              LinkFault(between: ["client", "server"], effect: .loss(.never))]
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", into: box)
        world.run()
        #expect(server.received.count == 1)
        #expect(box.items.map(\.result.status) == [200])
        #expect(kinds(world, "fault.injected").isEmpty)
    }

    @Test func partialLossIsDeterministicPerSeed() {
        func lostCount(seed: UInt64) -> (lost: Int, pattern: [Bool]) {
            let (world, _) = makeWorld(seed: seed)
            world.faults.rules = [LinkFault(effect: .loss(Ratio(1, 2)))]
            let box = OutcomeBox()
            for i in 0..<40 { call(world, get("/\(i)"), tag: "\(i)", timeout: .seconds(1), into: box) }
            world.run()
            let pattern = (0..<40).map { i in box.items.first { $0.tag == "\(i)" }!.result == .failure(.timedOut) }
            return (kinds(world, "fault.injected").count, pattern)
        }
        let a = lostCount(seed: 7), b = lostCount(seed: 7)
        #expect(a.pattern == b.pattern)
        #expect(a.lost > 0 && a.lost < 80)
        #expect(a.pattern.contains(true) && a.pattern.contains(false))
    }

    @Test func partitionAppliesOnlyInsideItsWindow() {
        let (world, server) = makeWorld()
        world.faults.rules = [LinkFault(between: ["server", "client"], window: ms(1_000)..<ms(2_000), effect: .partition)]
        let box = OutcomeBox()
        for t: Int64 in [500, 999, 1_000, 1_500, 1_999, 2_000] {
            world.schedule(at: ms(t)) { call(world, get("/\(t)"), tag: "\(t)", timeout: .seconds(3), into: box) }
        }
        world.run()
        // Requests sent inside [1 s, 2 s) are lost; the one at 0.999 s arrives, but its answer
        // (sent at 1.009 s) falls inside the window and is lost on the way back.
        #expect(server.received.map(\.path) == ["/500", "/999", "/2000"])
        let byTag = Dictionary(uniqueKeysWithValues: box.items.map { ($0.tag, $0.result) })
        #expect(byTag["500"] == .response(HTTPResponse(status: 200, text: "/500")))
        #expect(byTag["999"] == .failure(.timedOut))
        #expect(byTag["1000"] == .failure(.timedOut))
        #expect(byTag["1500"] == .failure(.timedOut))
        #expect(byTag["1999"] == .failure(.timedOut))
        #expect(byTag["2000"]?.status == 200)
        let injected = kinds(world, "fault.injected")
        #expect(injected.map { $0[.lost]?.description ?? "" } == ["request", "response", "request", "request"]) // 1.000 s request, 1.009 s answer, …
        #expect(injected.allSatisfy { $0[.fault] == "partition server<->client" })
    }

    @Test func lostResponseMeansTimeoutAndTheCallStaysInFlightUntilThen() {
        let (world, server) = makeWorld()
        // The request goes through at 0; the answer at 10 ms falls into the partition.
        world.faults.rules = [LinkFault(between: ["client", "server"], window: ms(5)..<ms(60_000), effect: .partition)]
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", timeout: .seconds(2), into: box)
        #expect(world.run(until: .zero + .seconds(1)) == .stoppedAt(.zero + .seconds(1)))
        #expect(server.received.count == 1)
        #expect(box.items.isEmpty)
        #expect(world.leftovers().map(\.line).contains("network: call GET server/x from client still in flight []"))
        world.run()
        #expect(box.items.map(\.result) == [.failure(.timedOut)])
        #expect(box.items.map(\.time) == [.zero + .seconds(2)])
        #expect(kinds(world, "fault.injected").first?[.lost] == "response")
        #expect(world.leftovers().isEmpty)
    }

    @Test func answerAfterTheTimeoutIsRecordedAsLateAndNotDelivered() {
        let (world, server) = makeWorld()
        server.delay = .seconds(5)
        let box = OutcomeBox()
        call(world, get("/x"), tag: "x", timeout: .seconds(1), into: box)
        world.run()
        #expect(box.items.map(\.result) == [.failure(.timedOut)])
        #expect(box.items.map(\.time) == [.zero + .seconds(1)])
        let late = kinds(world, "http.late-response")
        #expect(late.count == 1)
        #expect(late.first?.time == .zero + .seconds(5) + .milliseconds(10))
        #expect(late.first?[.status] == 200)
        #expect(kinds(world, "http.response").isEmpty)
    }

    @Test func answerSentInTimeButArrivingAfterTheTimeoutIsATimeout() {
        let (world, _) = makeWorld()
        let box = OutcomeBox()
        // Request arrives at 10 ms, the answer is sent then and would arrive at 20 ms: too late for 15 ms.
        call(world, get("/x"), tag: "x", timeout: .milliseconds(15), into: box)
        world.run()
        #expect(box.items.map(\.result) == [.failure(.timedOut)])
        #expect(box.items.map(\.time) == [ms(15)])
    }

    @Test func secondAnswerToTheSameExchangeIsIgnored() {
        final class Twice: Host {
            func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
                world.respond(to: exchange, with: HTTPResponse(status: 200))
                world.respond(to: exchange, with: HTTPResponse(status: 500))
            }
        }
        let world = World(seed: 1)
        world.register(Twice(), name: "twice")
        let box = OutcomeBox()
        call(world, get("/x", to: "twice"), tag: "x", into: box)
        world.run()
        #expect(box.items.map(\.result.status) == [200])
        #expect(kinds(world, "http.late-response").count == 1)
    }
}
