import Testing
import PushSim

/// The Swift API as the DocC catalog shows it (PushSim.md, Architecture.md): build a world in a
/// few lines, run it, assert.
@Suite struct SwiftAPITests {
    @Test func readmeExampleWorks() {
        let sim = Simulation(seed: 7)
        let bob = sim.addDevice("bob-iphone", .ios)
        let alice = sim.addDevice("alice-pixel", .android)
        sim.at(.zero) { bob.install(); alice.install() }
        sim.at(.zero + .seconds(1)) { bob.login(user: "bob", password: "bob"); alice.login(user: "alice", password: "alice") }
        sim.at(.zero + .seconds(5)) { alice.send("Hi Bob", to: "bob", via: [.apns]) }
        sim.run()
        #expect(bob.inbox.map(\.text) == ["From alice: Hi Bob"])
        #expect(alice.inbox.isEmpty)
    }

    @Test func journalShowsTheExactAPNsRequestTheHubMade() throws {
        let sim = Simulation(seed: 1)
        let bob = sim.addDevice("bob-iphone", .ios)
        let alice = sim.addDevice("alice-pixel", .android)
        sim.at(.zero) { bob.install(); alice.install() }
        sim.at(.zero + .seconds(1)) { bob.login(user: "bob", password: "bob"); alice.login(user: "alice", password: "alice") }
        sim.at(.zero + .seconds(5)) { alice.send("Hi", to: "bob", via: [.apns]) }
        sim.run()
        let pushes = sim.world.journal.requests(to: "apns").filter { $0.request.path.hasPrefix("/3/device/") }
        #expect(pushes.count == 1)
        let push = try #require(pushes.first)
        #expect(push.from == "hub")
        #expect(push.request.headers["apns-topic"] == "com.pushsim.notifyusers")
        #expect(push.request.headers["authorization"]?.hasPrefix("bearer ") == true)
        #expect(push.request.bodyText == #"{"aps":{"alert":"From alice: Hi"}}"#)
        #expect(push.result?.status == 200)
    }
}
