import Testing
import PushSim

@Test func myBackendAndMyAppDeliverToTheRightUserOnly() {
    let simulation = Simulation(seed: 1)
    simulation.addBackend(MyBackend(simulation), name: "my-backend")
    let bob = simulation.addDevice("bob-iphone", .ios, user: "bob", backendHost: "my-backend", logic: MyApp())
    let alice = simulation.addDevice("alice-pixel", .android, client: .recommended, user: "alice", backendHost: "my-backend")
    var shown: [String] = []
    bob.onNotificationShown = { shown.append($0.text) }
    for phone in [bob, alice] { simulation.at(.zero) { phone.install() } }
    simulation.at(.zero + .seconds(1)) { bob.login(user: "bob", password: "bob"); alice.login(user: "alice", password: "alice") }
    simulation.at(.zero + .seconds(5)) { alice.send("Hi Bob", to: "bob", via: [.apns]) }
    simulation.at(.zero + .seconds(9)) { bob.refreshHandle() }   // a new APNs token: MyApp registers it
    simulation.at(.zero + .seconds(15)) { alice.send("Still there?", to: "bob", via: [.apns]) }
    let end = simulation.run()
    #expect(shown == ["From alice: Hi Bob", "From alice: Still there?"])
    #expect(alice.displayed.isEmpty)
    #expect(simulation.hub.registrations(tag: "username:bob", now: simulation.world.now).map(\.handle) == [bob.handle?.uppercased()])
    #expect(simulation.checkInvariants().allSatisfy { $0.holds })
    #expect(Explanation.narrate(simulation.report(end: end)).contains("From alice: Still there?"))
}
