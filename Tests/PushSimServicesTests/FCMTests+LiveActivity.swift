import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// `apns.live_activity_token` through the FCM → APNs relay (Citations §2.10, F-LIVE).
@Suite("FCM → APNs relay of a Live Activity token (Citations §2.10)")
struct FCMLiveActivityRelayTests {
    static let update: JSONValue = ["aps": ["timestamp": 1_767_225_600, "event": "update", "content-state": ["home": 1]]]

    /// An update token APNs issues to the bench's iPhone (asked from the iPhone, as ActivityKit asks).
    private func liveActivityToken(_ bench: RelayBench) -> String {
        let ask = LiveActivityTokenRequest(app: RelayBench.bundle, install: 1, environment: "production", kind: .update, subject: "a1", generation: 1)
        var token = ""
        bench.fcm.world.call(HTTPRequest(method: "POST", authority: APNsService.deviceHost, path: LiveActivityTokenRequest.path, body: ask.body),
                             from: bench.iphone.name) { result in
            token = result.response.flatMap { try? JSONParser.parse($0.body) }?["token"]?.stringValue ?? ""
        }
        bench.fcm.world.run()
        return token
    }

    @Test func theTranslationTakesTheLiveActivityPushTypeAndTopic() {
        let r = FCMAPNsTranslation.request(message: ["apns": ["live_activity_token": "00ff", "headers": ["apns-priority": "10"], "payload": Self.update]],
                                           bundleID: "com.example.notes", messageID: "0:1%ab", unixSeconds: 1_000)
        let headers = Dictionary(r.headers, uniquingKeysWith: { a, _ in a })
        #expect(headers["apns-push-type"] == "liveactivity")
        #expect(headers["apns-topic"] == "com.example.notes.push-type.liveactivity")
        #expect(headers["apns-priority"] == "10")
    }

    @Test func aSendNamingALiveActivityTokenGoesToThatToken() throws {
        let bench = RelayBench()
        let token = liveActivityToken(bench)
        let r = bench.send(["apns": ["live_activity_token": .string(token), "payload": Self.update]])
        #expect(r.status == 200)
        let push = try #require(bench.iphone.pushes.last)
        #expect(push.headers[DeviceChannel.handleHeader] == token)
        #expect(push.headers["apns-push-type"] == "liveactivity")
    }

    @Test func apnsExpiredTokenIsUnregisteredButTheFCMTokenStays() {
        let bench = RelayBench()
        let token = liveActivityToken(bench)
        bench.iphone.uninstall()
        let fields: KeyValuePairs<String, JSONValue> = ["apns": ["live_activity_token": .string(token), "payload": Self.update]]
        #expect(bench.send(fields).status == 200)   // APNs learns on delivery
        expectFCMError(bench.send(fields), 404, "NOT_FOUND", "UNREGISTERED")
        #expect(bench.apnsAnswers.last?.1 == "ExpiredToken")
        #expect(bench.fcm.fcm.tokens[bench.fcmToken]?.invalidatedAt == nil)
    }
}
