import Foundation
import PushSimKernel
import PushSimCrypto
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// `pushsim serve` verifies ES256 and RS256 signatures by default, hands out the world's keys
/// (`/_pushsim/keys/…`, the files it writes) and registers a user's own (`POST /_pushsim/keys/…`).
@Suite("Serve: signing keys")
struct ServeKeysTests {
    let identity = SimulationIdentity()
    /// A user's own keys, as their own `.p8` and service-account file would hold.
    static let userAPNsKey = DerivedKeyMemo.p256Key(derivedFrom: "a user's own APNs key")
    static let userServiceAccountKey = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.wrongServiceAccountSeed)

    func bridge(_ policy: SignaturePolicy = .verify) throws -> WorldBridge {
        var setup = WorldSetup(seed: 9)
        setup.signaturePolicy = policy
        let bridge = try WorldBridge(setup: setup, clock: .manual, anchor: testAnchor)
        bridge.configure(baseURL: "http://127.0.0.1:9999", keyFiles: ClientKeyFiles())
        return bridge
    }

    /// An APNs push to a new iPhone with `token`; the answer.
    func push(_ bridge: WorldBridge, token: String, phone: String = "bob-iphone") throws -> HTTPResponse {
        let created = bridge.ask("POST", "/_pushsim/devices", body: #"{"name":"\#(phone)","platform":"ios"}"#)
        let handle = try #require(created.json["handle"]?.stringValue ?? bridge.ask("GET", "/_pushsim/devices/\(phone)").json["handle"]?.stringValue)
        return bridge.ask("POST", "/3/device/\(handle)", headers: [("authorization", "bearer " + token), ("apns-topic", identity.app.bundleID)],
                          body: #"{"aps":{"alert":"Hi"}}"#)
    }

    func apnsToken(kid: String? = nil, key: P256PrivateKey) -> String {
        JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string(kid ?? identity.apnsKeyID))]),
                          claims: .object([("iss", .string(identity.apnsTeamID)), ("iat", .number(JSONNumber(testAnchor.unixSecondsAtZero)))]),
                          signingKey: key)
    }

    func assertion(iss: String? = nil, key: RSAPrivateKey) -> String {
        JSONWebToken.make(header: .object([("alg", .string("RS256")), ("typ", .string("JWT"))]),
                          claims: .object([("iss", .string(iss ?? identity.fcmServiceAccount)),
                                           ("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
                                           ("iat", .number(JSONNumber(testAnchor.unixSecondsAtZero))),
                                           ("exp", .number(JSONNumber(testAnchor.unixSecondsAtZero + 3_600)))]),
                          signingKey: key)
    }

    func token(_ bridge: WorldBridge, _ assertion: String) -> HTTPResponse {
        bridge.ask("POST", "/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                   body: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion)
    }

    /// Before, serve checked structure only and took any signature; now a forged one is refused.
    @Test func serveVerifiesSignaturesByDefault() throws {
        let bridge = try bridge()
        let forged = apnsToken(key: Self.userAPNsKey)
        let refused = try push(bridge, token: forged)
        #expect(refused.status == 403 && refused.bodyText == #"{"reason":"InvalidProviderToken"}"#)
        #expect(try push(bridge, token: apnsToken(key: identity.apnsSigningKey), phone: "amy-iphone").status == 200)
        let google = token(bridge, assertion(key: Self.userServiceAccountKey))
        #expect(google.status == 400 && google.bodyText == #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#)
        #expect(token(bridge, assertion(key: identity.fcmServiceAccountKey)).status == 200)
        #expect(bridge.ask("GET", "/_pushsim/info").json["signatures"]?.stringValue == "verify")
    }

    @Test func structureOnlyIsAnExplicitOptIn() throws {
        let bridge = try bridge(.structureOnly)
        #expect(try push(bridge, token: apnsToken(key: Self.userAPNsKey)).status == 200)
        #expect(token(bridge, assertion(key: Self.userServiceAccountKey)).status == 200)
        #expect(bridge.ask("GET", "/_pushsim/info").json["signatures"]?.stringValue == "structure-only")
    }

    /// The `.p8` and the service-account file are the world's keys: tokens made with them verify.
    @Test func theKeyFilesHoldTheWorldsKeys() throws {
        let bridge = try bridge()
        let p8 = bridge.ask("GET", "/_pushsim/keys/apns.p8")
        #expect(p8.status == 200 && p8.headers["content-type"] == "application/x-pem-file")
        guard case .p256(let apnsKey) = try AsymmetricPrivateKey(pem: p8.bodyText) else { Issue.record("not a P-256 .p8"); return }
        #expect(try push(bridge, token: apnsToken(key: apnsKey)).status == 200)
        let file = bridge.ask("GET", "/_pushsim/keys/service-account.json").json
        #expect(file["type"]?.stringValue == "service_account" && file["client_email"]?.stringValue == identity.fcmServiceAccount)
        #expect(file["token_uri"]?.stringValue == "http://127.0.0.1:9999/token")
        #expect(file["private_key_id"]?.stringValue?.count == 40)
        guard case .rsa(let rsa) = try AsymmetricPrivateKey(pem: file["private_key"]?.stringValue ?? "") else { Issue.record("not RSA"); return }
        #expect(token(bridge, assertion(key: rsa)).status == 200)
        let keys = bridge.ask("GET", "/_pushsim/keys").json
        #expect(keys["apns"]?.arrayValue?.first?["keyId"]?.stringValue == identity.apnsKeyID)
        #expect(keys["fcm"]?.arrayValue?.first?["publicKeys"]?.arrayValue?.count == 1)
    }

    /// A user's APNs key, registered by its public key or its `.p8`, is accepted, and stays after a reset.
    @Test func aUsersAPNsKeyRegisteredThroughTheControlAPIIsAccepted() throws {
        let bridge = try bridge()
        let token = apnsToken(kid: "USERKEY001", key: Self.userAPNsKey)
        #expect(try push(bridge, token: token).status == 403)
        let pem = AsymmetricPublicKey.p256(Self.userAPNsKey.publicKey).pemRepresentation
        let body = JSONValue.object(["keyId": "USERKEY001", "teamId": .string(identity.apnsTeamID), "publicKey": .string(pem)]).serialized()
        let registered = bridge.ask("POST", "/_pushsim/keys/apns", body: body)
        #expect(registered.status == 201 && registered.json["publicKey"]?.stringValue == pem)
        #expect(try push(bridge, token: token, phone: "amy-iphone").status == 200)
        _ = bridge.ask("POST", "/_pushsim/reset")
        #expect(try push(bridge, token: token, phone: "cy-iphone").status == 200)
        // The .p8 itself does as well.
        let p8 = AsymmetricPrivateKey.p256(DerivedKeyMemo.p256Key(derivedFrom: "another user key")).pkcs8PEMRepresentation
        let byP8 = bridge.ask("POST", "/_pushsim/keys/apns",
                              body: JSONValue.object(["keyId": "USERKEY002", "teamId": "TEAM000002", "p8": .string(p8)]).serialized())
        #expect(byP8.status == 201)
        #expect(bridge.ask("GET", "/_pushsim/keys").json["apns"]?.arrayValue?.count == 3)
    }

    /// A service account's key registered through the control API gets an access token and sends.
    @Test func aServiceAccountKeyRegisteredThroughTheControlAPIIsAccepted() throws {
        let bridge = try bridge()
        let email = "ci@pushsim-notifyusers.iam.gserviceaccount.com"
        #expect(token(bridge, assertion(iss: email, key: Self.userServiceAccountKey)).status == 400)
        let pem = AsymmetricPrivateKey.rsa(Self.userServiceAccountKey).pkcs8PEMRepresentation
        let registered = bridge.ask("POST", "/_pushsim/keys/fcm",
                                    body: JSONValue.object(["clientEmail": .string(email), "privateKey": .string(pem)]).serialized())
        #expect(registered.status == 201)
        let answer = token(bridge, assertion(iss: email, key: Self.userServiceAccountKey))
        let accessToken = try #require(answer.json["access_token"]?.stringValue)
        let pixel = try #require(bridge.ask("POST", "/_pushsim/devices", body: #"{"name":"ann-pixel","platform":"android"}"#).json["handle"]?.stringValue)
        let sent = bridge.ask("POST", "/v1/projects/\(identity.fcmProjectID)/messages:send",
                              headers: [("Authorization", "Bearer " + accessToken), ("Content-Type", "application/json")],
                              body: #"{"message":{"token":"\#(pixel)","notification":{"body":"hi"}}}"#)
        #expect(sent.status == 200)
    }

    /// Bad keys are answered 400 with the field named, never a crash.
    @Test(arguments: [
        (#"{"keyId":"K","teamId":"T","publicKey":"not a key"}"#, "apns", "\"publicKey\""),
        (#"{"keyId":"K","teamId":"T","publicKey":"-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"}"#, "apns", "\"publicKey\""),
        (#"{"keyId":"K","teamId":"T","p8":"-----BEGIN PRIVATE KEY-----\n!!\n-----END PRIVATE KEY-----"}"#, "apns", "\"p8\""),
        (#"{"keyId":"K","teamId":"T","publicKey":12}"#, "apns", "\"publicKey\""),
        (#"{"keyId":"K","teamId":"T"}"#, "apns", "\"publicKey\""),
        (#"{"teamId":"T","publicKey":"x"}"#, "apns", "\"keyId\""),
        (#"{"keyId":"K","publicKey":"x"}"#, "apns", "\"teamId\""),
        (#"{"clientEmail":"a@b","publicKey":"-----BEGIN PUBLIC KEY-----"}"#, "fcm", "\"publicKey\""),
        (#"{"clientEmail":"a@b","privateKey":"x","publicKey":"y"}"#, "fcm", "\"publicKey\""),
        (#"{"clientEmail":"no-at-sign","publicKey":"x"}"#, "fcm", "\"clientEmail\""),
        (#"[1]"#, "fcm", "JSON object"),
    ])
    func badKeysAre400NamingTheField(body: String, service: String, field: String) throws {
        let bridge = try bridge()
        let r = bridge.ask("POST", "/_pushsim/keys/\(service)", body: body)
        #expect(r.status == 400)
        #expect(r.json["error"]?["message"]?.stringValue?.contains(field) == true, "\(r.bodyText)")
    }

    /// A key of the wrong kind names its field and says which kind is wanted.
    @Test func aKeyOfTheWrongKindIs400() throws {
        let bridge = try bridge()
        let rsa = AsymmetricPublicKey.rsa(Self.userServiceAccountKey.publicKey).pemRepresentation
        let apns = bridge.ask("POST", "/_pushsim/keys/apns", body: JSONValue.object(["keyId": "K", "teamId": "T", "publicKey": .string(rsa)]).serialized())
        #expect(apns.status == 400 && apns.bodyText.contains("P-256"))
        let ec = AsymmetricPublicKey.p256(Self.userAPNsKey.publicKey).pemRepresentation
        let fcm = bridge.ask("POST", "/_pushsim/keys/fcm", body: JSONValue.object(["clientEmail": "a@b", "publicKey": .string(ec)]).serialized())
        #expect(fcm.status == 400 && fcm.bodyText.contains("RSA"))
    }
}
