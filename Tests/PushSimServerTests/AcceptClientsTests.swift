import Testing
import PushSimNetwork
@testable import PushSimScenario
@testable import PushSimServer

/// `pushsim serve` opens the world to real clients: the hub takes SAS tokens signed for the
/// server's address, and APNs and FCM verify real signatures unless `--signatures structure-only`.
@Suite("Serve: the world accepts real clients")
struct AcceptClientsTests {
    @Test func signaturesAreVerifiedUnlessTheSetupSaysStructureOnly() {
        let simulation = Simulation(seed: 1)
        simulation.acceptClients(at: "http://127.0.0.1:8080")
        #expect(simulation.apns.signaturePolicy == .verify && simulation.fcm.signaturePolicy == .verify)
        #expect(simulation.hub.alsoAcceptedResourceURIs.contains("http://localhost:8080/\(simulation.identity.hubName)"))
        var setup = WorldSetup(seed: 1)
        #expect(setup.makeSimulation(anchor: testAnchor).fcm.signaturePolicy == .verify)
        setup.signaturePolicy = .structureOnly
        let opened = setup.makeSimulation(anchor: testAnchor)
        #expect(opened.apns.signaturePolicy == .structureOnly && opened.fcm.signaturePolicy == .structureOnly)
    }
}
