import Testing
import PushSim
import OwnBackend

@Test func myBackendDeliversToTheRightUserOnly() {
    let simulation = Simulation(seed: 1)
    simulation.addBackend(MyBackend(simulation), name: "my-backend")
    let bob = simulation.addDevice("bob-iphone", .ios, client: .recommended, user: "bob", backendHost: "my-backend")
    let alice = simulation.addDevice("alice-pixel", .android, client: .recommended, user: "alice", backendHost: "my-backend")
    var shown: [String] = []
    bob.onNotificationShown = { shown.append($0.text) }
    for phone in [bob, alice] { simulation.at(.zero) { phone.install() } }
    simulation.at(.zero + .seconds(1)) { bob.login(user: "bob", password: "bob"); alice.login(user: "alice", password: "alice") }
    simulation.at(.zero + .seconds(5)) { alice.send("Hi Bob", to: "bob", via: [.apns]) }
    let end = simulation.run()

    #expect(shown == ["From alice: Hi Bob"])
    #expect(alice.displayed.isEmpty)
    #expect(simulation.hub.registrations(tag: "username:bob", now: simulation.world.now).map(\.platform) == [.apple])
    #expect(simulation.checkInvariants().allSatisfy { $0.holds })
    #expect(Explanation.narrate(simulation.report(end: end)).contains("From alice: Hi Bob"))
}
