import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimCrypto
@testable import PushSimServer
import Testing

/// An application server posting Web Push messages through `pushsim serve`, to endpoints made
/// with the control API, as pywebpush or web-push would (Citations §9).
@Suite(.serialized) struct ServeWebPushTests {
    static let key = (try? P256PrivateKey(rawRepresentation: [0] + [UInt8](repeating: 3, count: 31)))!

    static func vapid(aud: String, exp: Int64) -> String {
        let claims = JSONValue.object([("aud", .string(aud)), ("exp", .number(JSONNumber(exp))), ("sub", .string("mailto:ops@example.com"))])
        let input = Base64URL.encode(#"{"typ":"JWT","alg":"ES256"}"#) + "." + Base64URL.encode(claims.serialized())
        let token = input + "." + Base64URL.encode(key.signature(for: Array(input.utf8)).rawRepresentation)
        return "vapid t=\(token), k=\(Base64URL.encode(key.publicKey.x963Representation))"
    }

    func subscribe(_ s: TestServer, _ vendor: String) async throws -> String {
        let body = #"{"vendor":"\#(vendor)","applicationServerKey":"\#(Base64URL.encode(Self.key.publicKey.x963Representation))"}"#
        let created = try await s.json("POST", "/_pushsim/webpush/subscriptions", body: body)
        #expect(created.status == 201)
        return try #require(created.value["endpoint"]?.stringValue)
    }

    @Test func aMessagePostedByPathIsTakenAndKeptForTheAbsentBrowser() async throws {
        let s = try TestServer()
        let endpoint = try await subscribe(s, "firefox")
        #expect(endpoint.hasPrefix("https://updates.push.services.mozilla.com/wpush/v2/"))
        let path = String(endpoint.dropFirst("https://updates.push.services.mozilla.com".count))
        let now = try await s.unixNow()
        let sent = try await s.request("POST", path, headers: ["TTL": "3600", "Authorization": Self.vapid(aud: "https://updates.push.services.mozilla.com", exp: now + 600)])
        #expect(sent.status == 201, "\(sent.body)")
        #expect(sent.headers["location"]?.hasPrefix("https://updates.push.services.mozilla.com/m/") == true)
        _ = try await s.json("POST", "/_pushsim/clock/advance", body: #"{"by":"1s"}"#)   // the push to the browser fails meanwhile
        let listed = try await s.json("GET", "/_pushsim/webpush/subscriptions")
        #expect(listed.value["subscriptions"]?.arrayValue?.first?["kept"]?.arrayValue?.count == 1)
        // The audience must be the real origin, not the server's own.
        let wrong = try await s.request("POST", path, headers: ["TTL": "60", "Authorization": Self.vapid(aud: s.base, exp: now + 600)])
        #expect(wrong.status == 401 && wrong.body.contains("Invalid VAPID audience"))
    }

    @Test func aHostHeaderReachesSafarisServiceAndUnsubscribeMakesItGone() async throws {
        let s = try TestServer()
        let endpoint = try await subscribe(s, "safari")
        let path = String(endpoint.dropFirst("https://web.push.apple.com".count))
        let now = try await s.unixNow()
        let auth = Self.vapid(aud: "https://web.push.apple.com", exp: now + 600)
        let sent = try await s.request("POST", path, headers: ["Host": "web.push.apple.com", "TTL": "60", "Authorization": auth])
        #expect(sent.status == 201, "\(sent.body)")
        #expect(sent.headers["apns-id"] != nil)
        let gone = try await s.request("DELETE", "/_pushsim/webpush/subscriptions?endpoint=" + percentEncode(endpoint))
        #expect(gone.status == 200)
        let after = try await s.request("POST", path, headers: ["TTL": "60", "Authorization": auth])
        #expect(after.status == 410 && after.body == #"{"reason":"Unregistered"}"#)
        let bad = try await s.json("POST", "/_pushsim/webpush/subscriptions", body: #"{"vendor":"opera"}"#)
        #expect(bad.status == 400)
    }
}
