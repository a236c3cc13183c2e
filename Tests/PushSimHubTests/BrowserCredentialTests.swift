import PushSimCrypto
import PushSimKernel
@testable import PushSimHub
import Testing

/// The hub's browser credential (NH-BROWSER, NH-DOTNET `BrowserCredential.cs`, RFC 8292): its
/// three fields checked, each refusal naming the field.
@Suite("Hub browser credential")
struct BrowserCredentialTests {
    static let key = try? P256PrivateKey(derivedFrom: Array("hub-vapid".utf8))
    static let publicKey = Base64URL.encode(key?.publicKey.x963Representation ?? [])
    static let privateKey = Base64URL.encode(key?.rawRepresentation ?? [])

    @Test func acceptsAMatchingPairAndSignsWithIt() throws {
        let c = try BrowserCredential(subject: "mailto:ops@example.com", vapidPublicKey: Self.publicKey, vapidPrivateKey: Self.privateKey)
        #expect(c.signingKey?.publicKey.x963Representation == Self.key?.publicKey.x963Representation)
        #expect(throws: Never.self) {
            try BrowserCredential(subject: "https://example.com/contact", vapidPublicKey: Self.publicKey, vapidPrivateKey: Self.privateKey)
        }
    }

    @Test func refusesEachFieldByName() {
        let other = Base64URL.encode((try? P256PrivateKey(derivedFrom: Array("other".utf8)))?.publicKey.x963Representation ?? [])
        let cases: [(String, String, String, String)] = [
            ("ops@example.com", Self.publicKey, Self.privateKey, "subject must be"),
            ("mailto:a@b.c", "BAAA", Self.privateKey, "vapidPublicKey must be"),
            ("mailto:a@b.c", Self.publicKey, Base64URL.encode([1, 2, 3]), "vapidPrivateKey must be"),
            ("mailto:a@b.c", other, Self.privateKey, "vapidPublicKey is not the public key of vapidPrivateKey."),
        ]
        for (subject, pub, priv, wording) in cases {
            do {
                _ = try BrowserCredential(subject: subject, vapidPublicKey: pub, vapidPrivateKey: priv)
                Issue.record("accepted \(subject) \(pub) \(priv)")
            } catch {
                #expect(error.description.hasPrefix(wording))
            }
        }
    }
}
