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
        #expect(served.raw("POST", served.path("registrationIDs/"), auth: .header(served.sas(resource: "http://127.0.0.1:9999/")))?.status == 401)
    }
}
