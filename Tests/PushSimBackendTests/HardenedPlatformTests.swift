import Testing
import PushSimKernel
import PushSimCrypto
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
        #expect(HardenedBackend.serviceNames(oldNames: false) == "apns, fcm, wns or browser")
        #expect(HardenedBackend.serviceNames(oldNames: true) == "apns, fcm (or gcm), wns or browser")
    }

    /// `pns=browser` and `"Platform": "browser"` mean the hub's browser platform; the body carries
    /// the page's subscription as `PushSubscription.toJSON()` gives it.
    @Test func aBrowserRegistersWithItsSubscription() throws {
        #expect(HardenedBackend.platform(named: "Browser")?.registrationPlatform == .browser)
        #expect(HardenedBackend.platform(named: "browser")?.service == .webPush)
        let key = Base64URL.encode(DerivedKeyMemo.p256Key(derivedFrom: "backend tests: browser").publicKey.x963Representation)
        let auth = Base64URL.encode([UInt8](repeating: 1, count: 16))
        let endpoint = "https://updates.push.services.mozilla.com/wpush/v2/abc"
        let body = try JSONParser.parse(Array(#"{"Platform":"browser","Subscription":{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(key)","auth":"\#(auth)"}}}"#.utf8))
        let handle = try HardenedBackend.browserHandle(body).get()
        #expect(try BrowserPushChannel(pnsHandle: handle) == BrowserPushChannel(endpoint: endpoint, p256dh: key, auth: auth))
        #expect(try HardenedBackend.browserHandle(.object([("Handle", .string(handle))])).get() == handle)
        let keyless = try JSONParser.parse(Array(#"{"Subscription":{"endpoint":"\#(endpoint)"}}"#.utf8))
        #expect(throws: InstallationProblem.self) { try HardenedBackend.browserHandle(keyless).get() }
        #expect(throws: InstallationProblem.self) { try HardenedBackend.browserHandle(.object([("Handle", .string("not a handle"))])).get() }
    }

    /// The payloads are the ones the backend built by hand before: escaped JSON, escaped XML.
    @Test func textMessagesAreEncoded() {
        #expect(PushServiceDescriptor.apns.textMessage.payload("a \"b\"") == #"{"aps":{"alert":"a \"b\""}}"#)
        #expect(PushServiceDescriptor.fcm.textMessage.payload("hi") == #"{"message":{"data":{"message":"hi"}}}"#)
        #expect(PushServiceDescriptor.wns.textMessage.payload("a<b") ==
                #"<toast><visual><binding template="ToastText01"><text id="1">a&lt;b</text></binding></visual></toast>"#)
    }
}
