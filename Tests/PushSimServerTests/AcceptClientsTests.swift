import Testing
import PushSimNetwork
@testable import PushSimScenario
@testable import PushSimServer

/// `pushsim serve` asks every fake to accept real clients (`FakePushService.acceptRealClients`):
/// APNs and FCM then check real signatures' structure and claims only.
@Suite("Serve: every fake accepts real clients")
struct AcceptClientsTests {
    @Test func apnsAndFCMCheckStructureOnly() {
        let simulation = Simulation(seed: 1)
        #expect(simulation.apns.signaturePolicy == .simulated && simulation.fcm.signaturePolicy == .simulated)
        simulation.acceptClients(at: "http://127.0.0.1:8080")
        #expect(simulation.apns.signaturePolicy == .structureOnly)
        #expect(simulation.fcm.signaturePolicy == .structureOnly)
        #expect(simulation.hub.alsoAcceptedResourceURIs.contains("http://localhost:8080/\(simulation.identity.hubName)"))
    }
}
