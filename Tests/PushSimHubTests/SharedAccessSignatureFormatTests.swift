import PushSimCrypto
import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// The hub's shared access signatures are the real ones (HMAC-SHA256), so that a token made by an
/// Azure SDK, or by Microsoft's documented recipe, verifies.
@Suite("Shared access signatures: the real format")
struct SharedAccessSignatureFormatTests {
    /// Pinned against Python's `hmac` and `base64` for the same inputs (an independent implementation):
    /// `base64(hmac_sha256(b"SomeKey+Value=", "https%3A%2F%2Fpushsim.servicebus.windows.net%2Fnotifyusers\n1767229200"))`.
    @Test func theTokenIsMicrosoftsRecipe() {
        let token = SharedAccessSignature.token(resource: "https://pushsim.servicebus.windows.net/NotifyUsers",
                                                keyName: "DefaultFullSharedAccessSignature", key: "SomeKey+Value=",
                                                expiresAtUnixSeconds: 1_767_229_200)
        #expect(token == "SharedAccessSignature sr=https%3A%2F%2Fpushsim.servicebus.windows.net%2Fnotifyusers"
                + "&sig=7F0ANLbzE0JQ6XZuc5TzjIYcNwsrqsL6YYfPMmRNKEw%3D&se=1767229200&skn=DefaultFullSharedAccessSignature")
    }

    @Test func theHubAcceptsATokenMadeByTheRecipeAndRefusesAnotherKey() {
        let w = HubWorld(services: false)
        let se = w.world.anchor.unixSeconds(w.world.now) + 600
        let sr = percentEncode(TestIdentity.hubResource.lowercased())
        func header(key: String) -> String {
            let sig = SharedAccessSignature.signature("\(sr)\n\(se)", key: key)
            return "SharedAccessSignature sr=\(sr)&sig=\(percentEncode(sig))&se=\(se)&skn=\(TestIdentity.full.keyName)"
        }
        #expect(w.raw("POST", w.path("registrationIDs/"), auth: .header(header(key: TestIdentity.full.key)))?.status == 201)
        let wrong = w.raw("POST", w.path("registrationIDs/"), auth: .header(header(key: TestIdentity.full.key + "x")))
        #expect(wrong?.status == 401)
        #expect(w.detail(wrong) == "InvalidSignature: The token has an invalid signature.")
        // A signature that is not Base64 at all is refused the same way, never trapped on.
        let garbage = "SharedAccessSignature sr=\(sr)&sig=%%%&se=\(se)&skn=\(TestIdentity.full.keyName)"
        #expect(w.raw("POST", w.path("registrationIDs/"), auth: .header(garbage))?.status == 401)
    }

    /// An SDK signs the endpoint it was given: behind `pushsim serve` that is the server's address.
    @Test func aTokenSignedForTheServersAddressIsAcceptedOnlyWhenTheHubIsToldSo() {
        let w = HubWorld(services: false)
        let token = w.sas(resource: "http://127.0.0.1:8080/")
        let refused = w.raw("POST", w.path("registrationIDs/"), auth: .header(token))
        #expect(refused?.status == 401)
        #expect(w.detail(refused)?.hasPrefix("InvalidAudience:") == true)
        let served = HubWorld(services: false)
        served.hub.alsoAcceptedResourceURIs = ["http://127.0.0.1:8080/\(TestIdentity.hubName)"]
        #expect(served.raw("POST", served.path("registrationIDs/"), auth: .header(served.sas(resource: "http://127.0.0.1:8080/")))?.status == 201)
        // Ports are not compared (the .NET SDK signs without one); another host is refused.
        #expect(served.raw("POST", served.path("registrationIDs/"), auth: .header(served.sas(resource: "http://127.0.0.1:9999/")))?.status == 201)
        #expect(served.raw("POST", served.path("registrationIDs/"), auth: .header(served.sas(resource: "http://10.0.0.1:8080/")))?.status == 401)
    }

    /// The .NET SDK's token for one request: `sr` is the request's URL with `http` for its scheme,
    /// no query and a trailing slash, lower-cased, then URL-encoded by `HttpUtility.UrlEncode`
    /// (lower-case hex), and signed as it is written (NH-DOTNET `TokenProvider.NormalizeAppliesTo`,
    /// `SharedAccessSignatureBuilder`).
    static func dotNetToken(for url: String, _ w: HubWorld) -> String {
        var sr = ""
        for b in url.lowercased().utf8 {
            let plain = (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7A) || "-_.!*()".utf8.contains(b)
            sr += plain ? String(UnicodeScalar(b)) : "%" + (b < 16 ? "0" : "") + String(b, radix: 16)
        }
        let se = w.world.anchor.unixSeconds(w.world.now) + 1_200
        let sig = SharedAccessSignature.signature("\(sr)\n\(se)", key: TestIdentity.full.key)
        return "SharedAccessSignature sr=\(sr)&sig=\(percentEncode(sig))&se=\(se)&skn=\(TestIdentity.full.keyName)"
    }

    /// The Java SDK's token: the whole request URI, query included, lower-cased and URL-encoded
    /// (NH-JAVA `SasTokenProvider.generateSasToken`).
    @Test func theJavaSDKsTokenForARequestWithItsQueryCoversThatRequest() {
        let w = HubWorld(services: false)
        let token = Self.dotNetToken(for: "https://pushsim.servicebus.windows.net/notifyusers/registrationids?api-version=2015-01", w)
        #expect(w.raw("POST", w.path("registrationids"), auth: .header(token))?.status == 201)
        #expect(w.raw("GET", w.path("registrations"), auth: .header(token))?.status == 401)
    }

    @Test func theDotNetSDKsTokenForARequestCoversThatRequest() {
        let w = HubWorld(services: false)
        let ids = Self.dotNetToken(for: "http://pushsim.servicebus.windows.net/notifyusers/registrationids/", w)
        #expect(w.raw("POST", w.path("registrationids"), auth: .header(ids))?.status == 201)
        let id = w.createID()
        let one = Self.dotNetToken(for: "http://pushsim.servicebus.windows.net/notifyusers/registrations/\(id)/", w)
        #expect(w.raw("PUT", w.path("registrations/\(id)"), headers: RegistrationTests.sdkAtomType,
                      body: RegistrationTests.sdkCreateBody(tags: "a"), auth: .header(one))?.status == 200)
        // A token for one resource covers what is below it, not its neighbours.
        let refused = w.raw("POST", w.path("messages"), headers: [("ServiceBusNotification-Format", "apple")],
                            body: Array(#"{"aps":{}}"#.utf8), auth: .header(ids))
        #expect(refused?.status == 401)
        #expect(w.detail(refused) == "InvalidAudience: The token was issued for "
                + "'pushsim.servicebus.windows.net/notifyusers/registrationids', not for this resource.")
        #expect(w.raw("GET", w.path("registrations/\(id)"), auth: .header(ids))?.status == 401)
        // Signed for the hub over http, a token covers every call, as over https.
        let hub = Self.dotNetToken(for: "http://pushsim.servicebus.windows.net/notifyusers/", w)
        #expect(w.raw("GET", w.path("registrations/\(id)"), auth: .header(hub))?.status == 200)
        // Behind pushsim serve, the request's URL at the server's address.
        w.hub.alsoAcceptedResourceURIs = ["http://127.0.0.1:8080/\(TestIdentity.hubName)"]
        // (The SDK drops the port before it signs.)
        let served = Self.dotNetToken(for: "http://127.0.0.1/notifyusers/registrations/\(id)/", w)
        #expect(w.raw("GET", w.path("registrations/\(id)"), auth: .header(served))?.status == 200)
        #expect(w.raw("GET", w.path("registrations/\(id)x"), auth: .header(served))?.status == 401)
    }
}
