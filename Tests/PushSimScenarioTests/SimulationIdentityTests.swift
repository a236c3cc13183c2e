import Testing
import PushSimCrypto
import PushSimDevices
import PushSimServices
import PushSimHub
@testable import PushSimScenario

/// The simulation's identity: each push service's account is held by the service's wiring
/// (``SimulationIdentity/account(_:)``), its values are the ones PushSim always had, and a
/// changed identity reaches the fakes, the hub and the devices' app.
@Suite("Simulation identity")
struct SimulationIdentityTests {
    /// The fixed identity's values, as they were spelt out before they moved to the wiring
    /// files and the platform entries: every golden trace depends on them.
    @Test func theFixedIdentityKeepsItsValues() {
        let id = SimulationIdentity()
        #expect(id.apnsKeyID == "PSIMKEY001" && id.apnsTeamID == "PSIMTEAM01")
        #expect(id.apnsKey.privateKey == DerivedKeyMemo.p256Key(derivedFrom: DerivedKeyMemo.sampleAPNsKeySeed))
        #expect(id.fcmProjectID == "pushsim-notifyusers" && id.fcmSenderID == "482910364851")
        #expect(id.fcmServiceAccount == "hub@pushsim-notifyusers.iam.gserviceaccount.com")
        #expect(id.fcmServiceAccountKey == DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.sampleServiceAccountSeed))
        #expect(id.wnsPackageSID.hasPrefix("ms-app://s-1-15-2-2411820470-") && id.wnsSecret == "wns-client-secret-stand-in")
        #expect(id.app == AppIdentity(bundleID: "com.pushsim.notifyusers", androidPackage: "com.pushsim.notifyusers",
                                      fcmSenderID: "482910364851", windowsPackageFamily: "PushSim.NotifyUsers_8wekyb3d8bbwe",
                                      backendHost: "pushsim-backend.azurewebsites.net"))
    }

    /// Setting one service's account field leaves the other services' accounts alone.
    @Test func accountsAreHeldPerService() {
        var id = SimulationIdentity()
        id.apnsKeyID = "OTHERKEY01"
        let otherKey = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.wrongServiceAccountSeed)
        id.fcmServiceAccountKey = otherKey
        id.wnsSecret = "other-wns"
        #expect(id.apnsKey == APNsSigningKey(keyID: "OTHERKEY01", teamID: "PSIMTEAM01",
                                             privateKey: DerivedKeyMemo.p256Key(derivedFrom: DerivedKeyMemo.sampleAPNsKeySeed)))
        #expect(id.fcmAccount.privateKey == otherKey && id.fcmProjectID == "pushsim-notifyusers")
        #expect(id.wnsAccount.secret == "other-wns" && id.wnsPackageSID == SimulationIdentity().wnsPackageSID)
    }

    /// A changed identity is what the fakes accept, what the hub is given and what the app registers.
    @Test func aChangedIdentityReachesFakesHubAndApp() {
        var id = SimulationIdentity()
        id.apnsKeyID = "OTHERKEY01"
        id.fcmProjectID = "other-project"
        id.wnsSecret = "other-wns"
        id.app.bundleID = "com.example.other"
        let simulation = Simulation(seed: 1, identity: id)
        #expect(simulation.hub.configuration.apns?.keyID == "OTHERKEY01")
        #expect(simulation.hub.configuration.apns?.bundleID == "com.example.other")
        #expect(simulation.hub.configuration.fcm?.projectID == "other-project")
        #expect(simulation.hub.configuration.wns?.secret == "other-wns")
        #expect(simulation.fcm.projects.map(\.projectID) == ["other-project"])
        #expect(simulation.identity.app[.ios].appID == "com.example.other")
    }
}
