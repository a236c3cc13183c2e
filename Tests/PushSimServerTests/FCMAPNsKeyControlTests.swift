import Foundation
import PushSimKernel
import PushSimCrypto
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// `GET|POST /_pushsim/fcm/apns-key`: the Firebase project's APNs auth key, which FCM relays a
/// send to an iPhone app's FCM token with. The bridge driven directly (no sockets).
@Suite struct FCMAPNsKeyControlTests {
    let keys = ServeKeysTests()

    /// A send straight to FCM for `fcmToken`, with an access token bought with the world's service account.
    func send(_ bridge: WorldBridge, to fcmToken: String) -> HTTPResponse {
        let access = keys.token(bridge, keys.assertion(key: keys.identity.fcmServiceAccountKey)).json["access_token"]?.stringValue ?? ""
        return bridge.ask("POST", "/v1/projects/\(keys.identity.fcmProjectID)/messages:send",
                          headers: [("authorization", "Bearer " + access), ("content-type", "application/json")],
                          body: #"{"message":{"token":"\#(fcmToken)","notification":{"title":"Hi"}}}"#)
    }

    @Test func eachStateGivesTheRelaysAnswer() throws {
        let bridge = try keys.bridge()
        #expect(bridge.ask("GET", "/_pushsim/fcm/apns-key").json["state"]?.stringValue == "uploaded")
        let created = bridge.ask("POST", "/_pushsim/devices", body: #"{"name":"ann-iphone","platform":"ios","firebase":true}"#)
        #expect(created.status == 201)
        let fcmToken = try #require(bridge.ask("GET", "/_pushsim/devices/ann-iphone").json["fcmToken"]?.stringValue)
        #expect(send(bridge, to: fcmToken).status == 200)

        let missing = bridge.ask("POST", "/_pushsim/fcm/apns-key", body: #"{"state":"missing"}"#)
        #expect(missing.status == 200 && missing.json["state"]?.stringValue == "missing" && missing.json["keyId"] == .null)
        let refused = send(bridge, to: fcmToken)
        #expect(refused.status == 401)
        #expect(refused.json["error"]?["details"]?.arrayValue?.first?["errorCode"]?.stringValue == "THIRD_PARTY_AUTH_ERROR")

        let wrong = bridge.ask("POST", "/_pushsim/fcm/apns-key", body: #"{"state":"wrong-team"}"#)
        #expect(wrong.json["teamId"]?.stringValue == FCMAPNsKeyState.wrongTeamID)
        #expect(send(bridge, to: fcmToken).status == 401)

        // A key of one's own: APNs must know it too.
        let pem = AsymmetricPrivateKey.p256(ServeKeysTests.userAPNsKey).pkcs8PEMRepresentation
        let own = bridge.ask("POST", "/_pushsim/fcm/apns-key",
                             body: JSONValue.object([("keyId", "MYKEY00001"), ("teamId", "MYTEAM0001"), ("p8", .string(pem))]).serialized())
        #expect(own.status == 200 && own.json["state"]?.stringValue == "own")
        #expect(send(bridge, to: fcmToken).status == 401)
        let registered = bridge.ask("POST", "/_pushsim/keys/apns",
                                    body: JSONValue.object([("keyId", "MYKEY00001"), ("teamId", "MYTEAM0001"), ("p8", .string(pem))]).serialized())
        #expect(registered.status == 201)
        #expect(send(bridge, to: fcmToken).status == 200)

        _ = bridge.ask("POST", "/_pushsim/reset")
        #expect(bridge.ask("GET", "/_pushsim/fcm/apns-key").json["state"]?.stringValue == "uploaded")
    }

    @Test(arguments: [#"{"state":"lost"}"#, #"{}"#, #"{"keyId":"K","teamId":"T","p8":"not a key"}"#, #"[1]"#])
    func badBodiesAre400AndNothingChanges(body: String) throws {
        let bridge = try keys.bridge()
        #expect(bridge.ask("POST", "/_pushsim/fcm/apns-key", body: body).status == 400)
        #expect(bridge.ask("GET", "/_pushsim/fcm/apns-key").json["state"]?.stringValue == "uploaded")
    }
}
