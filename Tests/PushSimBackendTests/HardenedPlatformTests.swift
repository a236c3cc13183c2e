import Testing
import PushSimNetwork
import PushSimHub
@testable import PushSimBackend

/// The hardened backend takes its services from ``PushServiceDescriptor/all``: every described
/// service is accepted by its name and maps to the hub platform of its format; its 400s spell the
/// names as before.
@Suite("Hardened backend: platforms from the service descriptors")
struct HardenedPlatformTests {
    @Test func everyDescribedServiceIsAcceptedByName() {
        for service in PushServiceDescriptor.all {
            let platform = HardenedBackend.platform(named: service.name.uppercased())
            #expect(platform?.service == service)
            #expect(platform?.registrationPlatform == RegistrationPlatform(sendFormat: service.hubFormat))
        }
        #expect(HardenedBackend.platform(named: "gcm")?.service == .fcm)
        #expect(HardenedBackend.platform(named: "mpns") == nil && HardenedBackend.platform(named: "baidu") == nil)
    }

    @Test func refusalsSpellTheServiceNames() {
        #expect(HardenedBackend.serviceNames(oldNames: false) == "apns, fcm or wns")
        #expect(HardenedBackend.serviceNames(oldNames: true) == "apns, fcm (or gcm) or wns")
    }

    /// The payloads are the ones the backend built by hand before: escaped JSON, escaped XML.
    @Test func textMessagesAreEncoded() {
        #expect(PushServiceDescriptor.apns.textMessage.payload("a \"b\"") == #"{"aps":{"alert":"a \"b\""}}"#)
        #expect(PushServiceDescriptor.fcm.textMessage.payload("hi") == #"{"message":{"data":{"message":"hi"}}}"#)
        #expect(PushServiceDescriptor.wns.textMessage.payload("a<b") ==
                #"<toast><visual><binding template="ToastText01"><text id="1">a&lt;b</text></binding></visual></toast>"#)
    }
}
