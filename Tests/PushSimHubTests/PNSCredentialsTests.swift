import PushSimNetwork
@testable import PushSimHub
import Testing

/// The hub's credentials, held one per adapter (`PNSCredentials`): each service's accessor reads
/// back what was set, and setting one leaves the others alone.
@Suite("Hub credentials by adapter")
struct PNSCredentialsTests {
    @Test("a new configuration holds no credential")
    func noneByDefault() {
        let c = HubConfiguration(namespace: "n", hubName: "h", accessRules: [])
        #expect(c.apns == nil && c.fcm == nil && c.wns == nil)
        for adapter in PNSAdapter.allCases { #expect(!c.credentials.has(adapter)) }
    }

    @Test("each service's credential reads back from its own slot, and clearing it clears only that one")
    func slotsAreIndependent() {
        var c = HubConfiguration(namespace: "n", hubName: "h", accessRules: [])
        c.apns = TestIdentity.apnsCredential
        c.fcm = TestIdentity.fcmCredential
        c.wns = TestIdentity.wnsCredential
        #expect(c.apns == TestIdentity.apnsCredential)
        #expect(c.fcm == TestIdentity.fcmCredential)
        #expect(c.wns == TestIdentity.wnsCredential)
        c.fcm = nil
        #expect(c.fcm == nil && !c.credentials.has(.fcm))
        #expect(c.credentials.has(.apns) && c.credentials.has(.wns))
        #expect(c.apns == TestIdentity.apnsCredential && c.wns == TestIdentity.wnsCredential)
    }

    @Test("every adapter has its own slot: the credential types name distinct adapters, one per case")
    func oneSlotPerAdapter() {
        let adapters = [APNsCredential.adapter, FCMCredential.adapter, WNSCredential.adapter, BrowserCredential.adapter]
        #expect(adapters.map(\.rawValue).sorted() == PNSAdapter.allCases.map(\.rawValue))
        #expect(adapters.map(\.service.name) == (PushServiceDescriptor.all + [.webPush]).map(\.name))
    }
}

/// The registration `$filter` fields come from the platform table: every platform's handle element
/// is accepted, as the SDKs write it.
@Suite("Hub registration filter fields")
struct HandleFilterFieldTests {
    @Test func everyPlatformsHandleElementFilters() {
        for platform in RegistrationPlatform.allCases {
            #expect(NotificationHub.handleFilterValue("\(platform.handleElement) eq 'h1'") == "h1", "\(platform)")
        }
        #expect(NotificationHub.handleFilterValue("Tags eq 'h1'") == nil)
    }
}
