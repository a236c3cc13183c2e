import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimCrypto
@testable import PushSimServer
import Testing

/// A simulated browser made through the control API, and an application server under test
/// sending to its subscription as pywebpush does: encrypted for `keys.p256dh` and `keys.auth`,
/// VAPID-signed; the browser decrypts and shows the text (Citations §9.9).
@Suite(.serialized) struct ServeBrowserTests {
    @Test func aBrowserShowsWhatAnOutsideServerEncryptedForIt() async throws {
        let s = try TestServer()
        let vapid = ServeWebPushTests.key
        let made = try await s.json("POST", "/_pushsim/browsers",
                                    body: #"{"name":"bob-firefox","vendor":"firefox","applicationServerKey":"\#(Base64URL.encode(vapid.publicKey.x963Representation))"}"#)
        #expect(made.status == 201)
        #expect(made.value["permission"]?.stringValue == "granted")
        let subscription = try await s.json("GET", "/_pushsim/browsers/bob-firefox/subscription")
        #expect(subscription.status == 200)
        let endpoint = try #require(subscription.value["endpoint"]?.stringValue)
        let p256dh = try #require(subscription.value["keys"]?["p256dh"]?.stringValue.flatMap(Base64URL.decode))
        let auth = try #require(subscription.value["keys"]?["auth"]?.stringValue.flatMap(Base64URL.decode))
        #expect(auth.count == 16)
        // What pywebpush does with the subscription: a fresh sender key and salt, aes128gcm.
        let sender = try P256PrivateKey(rawRepresentation: [0] + [UInt8](repeating: 9, count: 31))
        let body = try WebPushEncryption.encrypt(Array(#"{"title":"Hello","body":"from pywebpush"}"#.utf8),
                                                 userAgentPublicKey: try P256PublicKey(x963Representation: p256dh), authSecret: auth,
                                                 applicationServerPrivateKey: sender, salt: [UInt8](repeating: 5, count: 16))
        let origin = "https://updates.push.services.mozilla.com"
        let now = try await s.unixNow()
        let sent = try await s.request("POST", String(endpoint.dropFirst(origin.count)),
                                       headers: ["TTL": "60", "Content-Encoding": "aes128gcm", "Authorization": ServeWebPushTests.vapid(aud: origin, exp: now + 600)],
                                       bytes: body)
        #expect(sent.status == 201, "\(sent.body)")
        _ = try await s.json("POST", "/_pushsim/clock/advance", body: #"{"by":"1s"}"#)
        let shown = try await s.json("GET", "/_pushsim/browsers/bob-firefox/notifications")
        #expect(shown.value["notifications"]?.arrayValue?.compactMap { $0["text"]?.stringValue } == ["Hello: from pywebpush"])
    }

    @Test func aDeniedBrowserHasNoSubscriptionAndMistakesAreNamed() async throws {
        let s = try TestServer()
        let key = Base64URL.encode(ServeWebPushTests.key.publicKey.x963Representation)
        let made = try await s.json("POST", "/_pushsim/browsers", body: #"{"name":"ann","vendor":"chrome","prompt":"deny","applicationServerKey":"\#(key)"}"#)
        #expect(made.status == 201 && made.value["subscription"] == .null)
        #expect(made.value["subscribeErrors"]?.arrayValue == [.string("NotAllowedError")])
        #expect(try await s.json("GET", "/_pushsim/browsers/ann/subscription").status == 404)
        #expect(try await s.json("POST", "/_pushsim/browsers", body: #"{"name":"x","vendor":"opera"}"#).status == 400)
        #expect(try await s.json("POST", "/_pushsim/browsers", body: #"{"name":"ann","vendor":"edge"}"#).status == 409)
        #expect(try await s.json("GET", "/_pushsim/browsers/nobody").status == 404)
        #expect(try await s.json("POST", "/_pushsim/browsers/ann/subscribe", body: #"{}"#).status == 400)
        let listed = try await s.json("GET", "/_pushsim/browsers")
        #expect(listed.value["browsers"]?.arrayValue?.count == 1)
    }
}
