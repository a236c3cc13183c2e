import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel
import PushSimCrypto

/// An ``FCMBench`` with the fake APNs beside it and an iPhone whose app has the Firebase SDK: it
/// has an APNs token, and an FCM token bound to it; the project holds the APNs auth key.
final class RelayBench {
    static let bundle = "com.example.notes"
    let fcm: FCMBench
    let apns: APNsService
    let key = APNsSigningKey(keyID: "KEY1234567", teamID: "TEAM123456", privateKey: DerivedKeyMemo.p256Key(derivedFrom: "relay bench key"))
    let iphone: FakeDevice
    var apnsToken = ""
    var fcmToken = ""

    init(sandbox: Bool = false, uploadKey: Bool = true) {
        fcm = FCMBench()
        apns = APNsService(world: fcm.world, configuration: APNsConfiguration(keys: [key]))
        iphone = FakeDevice(world: fcm.world, name: "iphone", serviceHost: APNsService.deviceHost)
        apnsToken = iphone.register(app: Self.bundle, environment: sandbox ? "sandbox" : "production")
        fcmToken = askFCM(apnsToken: FCMAPNsBinding.tupleString(apnsToken: apnsToken, sandbox: sandbox))
        if uploadKey { fcm.fcm.uploadAPNsAuthKey(key, project: fcm.project.projectID) }
    }

    /// The Firebase SDK's token request from the iPhone, naming `apnsToken` (the `p_`/`s_` form).
    func askFCM(apnsToken: String) -> String {
        let ask = DeviceRegisterRequest(app: Self.bundle, install: 1, environment: fcm.project.projectNumber, apnsToken: apnsToken)
        let r = Probe(world: fcm.world, name: "iphone-sdk-\(apnsToken.count)")
            .roundTrip(HTTPRequest(method: "POST", authority: FCMService.deviceHost, path: DeviceChannel.registerPath, body: ask.body), in: fcm.world)
        return json(r)?["handle"]?.stringValue ?? ""
    }

    /// The provider requests APNs answered, as `(status, body)`.
    var apnsAnswers: [(Int, String)] {
        fcm.world.trace.events.filter { $0.kind == .apnsAccepted || $0.kind == .apnsRejected }
            .map { ($0[.status].flatMap { Int($0.description) } ?? 200, $0[.reason]?.description ?? "") }
    }

    func send(_ fields: KeyValuePairs<String, JSONValue>, validateOnly: Bool? = nil) -> HTTPResponse {
        fcm.send(fcm.message(token: fcmToken, fields), validateOnly: validateOnly)
    }
}

@Suite("FCM → APNs relay (Citations §2.9)")
struct FCMRelayTests {
    @Test func aSendToAnIPhonesFCMTokenReachesItThroughAPNs() {
        let bench = RelayBench()
        #expect(bench.fcm.fcm.apnsBinding(of: bench.fcmToken) == FCMAPNsBinding(apnsToken: bench.apnsToken, sandbox: false, bundleID: RelayBench.bundle))
        let r = bench.send(["notification": ["title": "Match", "body": "Kick-off"], "data": ["match": "42"]])
        #expect(r.status == 200)
        #expect(json(r)?["name"]?.stringValue?.hasPrefix("projects/notes-app/messages/0:") == true)
        #expect(bench.iphone.pushes.count == 1)
        let payload = bench.iphone.pushes.first.flatMap { try? JSONParser.parse($0.body) }
        #expect(payload?["aps"]?["alert"]?["title"]?.stringValue == "Match")
        #expect(payload?["match"]?.stringValue == "42")
        #expect(bench.iphone.pushes.first?.headers["apns-push-type"] == "alert")
        #expect(bench.fcm.world.trace.events.contains { $0.kind == .fcmRelayed })
    }

    @Test func aSandboxTokenIsRelayedToTheSandbox() {
        let bench = RelayBench(sandbox: true)
        #expect(bench.send(["notification": ["body": "hi"]]).status == 200)
        let relayed = bench.fcm.world.trace.events.first { $0.kind == .fcmRelayed }
        #expect(relayed?[.authority]?.description == APNsService.sandboxHost)
        #expect(bench.iphone.pushes.count == 1)
    }

    @Test func withoutAKeyTheAnswerIs401ThirdPartyAuthErrorAndAPNsIsNotAsked() {
        let bench = RelayBench(uploadKey: false)
        let r = bench.send(["notification": ["title": "Match"]])
        expectFCMError(r, 401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR")
        #expect(GoogleError(r).message == FCMError.missingCredentials.message)
        #expect(bench.apnsAnswers.isEmpty)
        #expect(bench.iphone.pushes.isEmpty)
    }

    @Test func aWrongTeamKeyIsRefusedByAPNsAnd401() {
        let bench = RelayBench(uploadKey: false)
        var wrong = bench.key
        wrong.teamID = "WRONGTEAM1"
        bench.fcm.fcm.uploadAPNsAuthKey(wrong, project: bench.fcm.project.projectNumber)
        let r = bench.send(["notification": ["title": "Match"]])
        expectFCMError(r, 401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR")
        #expect(bench.apnsAnswers.map(\.1) == ["InvalidProviderToken"])
        // Uploading the right key fixes it at once.
        bench.fcm.fcm.uploadAPNsAuthKey(bench.key, project: bench.fcm.project.projectID)
        #expect(bench.send(["notification": ["title": "Match"]]).status == 200)
    }

    /// The right key, then a wrong-team one, then the right one again within 20 minutes: FCM goes on
    /// with the token it signed for the right key (a new one would be 429 TooManyProviderTokenUpdates).
    @Test func theRightKeyUploadedAgainKeepsItsProviderToken() {
        let bench = RelayBench()
        #expect(bench.send(["notification": ["title": "one"]]).status == 200)
        var wrong = bench.key
        wrong.teamID = "WRONGTEAM1"
        bench.fcm.fcm.uploadAPNsAuthKey(wrong, project: bench.fcm.project.projectID)
        bench.fcm.world.advance(by: .minutes(1))
        expectFCMError(bench.send(["notification": ["title": "two"]]), 401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR")
        bench.fcm.fcm.uploadAPNsAuthKey(bench.key, project: bench.fcm.project.projectID)
        bench.fcm.world.advance(by: .minutes(1))
        #expect(bench.send(["notification": ["title": "three"]]).status == 200)
        #expect(bench.iphone.pushes.count == 2)
    }

    @Test func anUninstalledAppIsUnregisteredOnceAPNsKnows() {
        let bench = RelayBench()
        bench.iphone.uninstall()
        #expect(bench.send(["notification": ["title": "one"]]).status == 200)   // APNs learns on delivery
        expectFCMError(bench.send(["notification": ["title": "two"]]), 404, "NOT_FOUND", "UNREGISTERED")
        #expect(bench.fcm.fcm.tokens[bench.fcmToken]?.invalidatedAt != nil)
        // FCM now knows: the third send does not reach APNs.
        let asked = bench.apnsAnswers.count
        expectFCMError(bench.send(["notification": ["title": "three"]]), 404, "NOT_FOUND", "UNREGISTERED")
        #expect(bench.apnsAnswers.count == asked)
    }

    @Test func aDryRunStaysInFCM() {
        let bench = RelayBench(uploadKey: false)
        #expect(bench.send(["notification": ["title": "x"]], validateOnly: true).status == 200)
        #expect(bench.apnsAnswers.isEmpty)
    }

    @Test func aTopicCopyForAnIPhoneIsRelayed() {
        let bench = RelayBench()
        _ = bench.fcm.batch("batchAdd", "news", [bench.fcmToken, bench.fcm.token])
        let r = bench.fcm.send(.object([("topic", "news"), ("notification", ["title": "Headline"])]))
        #expect(r.status == 200)
        #expect(bench.iphone.pushes.count == 1)
        #expect(bench.fcm.phone.pushes.count == 1)
        #expect(bench.apnsAnswers.map(\.0) == [200])
    }

    @Test(arguments: [
        (200, "", nil), (403, "InvalidProviderToken", "THIRD_PARTY_AUTH_ERROR"), (403, "ExpiredProviderToken", "THIRD_PARTY_AUTH_ERROR"),
        (410, "Unregistered", "UNREGISTERED"), (400, "BadDeviceToken", "UNREGISTERED"), (429, "TooManyRequests", "QUOTA_EXCEEDED"),
        (503, "ServiceUnavailable", "UNAVAILABLE"), (400, "PayloadTooLarge", "INVALID_ARGUMENT"),
    ] as [(Int, String, String?)])
    func apnsAnswersMapToFCMErrors(status: Int, reason: String, errorCode: String?) {
        #expect(FCMService.relayError(apnsStatus: status, reason: reason)?.errorCode == errorCode)
    }
}

@Suite("FCM → APNs translation (Citations §2.9)")
struct FCMAPNsTranslationTests {
    func translate(_ message: JSONValue) -> (headers: [String: String], payload: JSONValue?) {
        let r = FCMAPNsTranslation.request(message: message, bundleID: "com.example.notes", messageID: "0:1%ab", unixSeconds: 1_000)
        return (Dictionary(r.headers, uniquingKeysWith: { a, _ in a }), try? JSONParser.parse(r.payload))
    }

    @Test func notificationBecomesTheAlertAndDataCustomKeys() {
        let (headers, payload) = translate(["notification": ["title": "T", "body": "B"], "data": ["k": "v"]])
        #expect(payload?["aps"]?["alert"]?.serialized() == #"{"title":"T","body":"B"}"#)
        #expect(payload?["k"]?.stringValue == "v")
        #expect(payload?[FCMAPNsTranslation.messageIDKey]?.stringValue == "0:1%ab")
        #expect(headers["apns-topic"] == "com.example.notes")
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-expiration"] == String(1_000 + 30 * 86_400))
    }

    @Test func thePayloadsOwnAlertAndKeysWin() {
        let (_, payload) = translate(["notification": ["title": "T"], "data": ["k": "from data"],
                                      "apns": ["payload": ["aps": ["alert": "mine", "badge": 3], "k": "from payload"]]])
        #expect(payload?["aps"]?["alert"]?.stringValue == "mine")
        #expect(payload?["aps"]?["badge"]?.int64Value == 3)
        #expect(payload?["k"]?.stringValue == "from payload")
    }

    @Test func headersArePassedOnAndDefaultsFillTheRest() {
        let (headers, _) = translate(["notification": ["body": "B"],
                                      "apns": ["headers": ["apns-priority": "5", "apns-collapse-id": "score", "APNS-Expiration": "0"]]])
        #expect(headers["apns-priority"] == "5")
        #expect(headers["apns-collapse-id"] == "score")
        #expect(headers["apns-expiration"] == "0")
    }

    @Test func aDataOnlyMessageIsABackgroundPushAtPriority5() {
        let (headers, payload) = translate(["data": ["k": "v"], "apns": ["payload": ["aps": ["content-available": 1]]]])
        #expect(headers["apns-push-type"] == "background")
        #expect(headers["apns-priority"] == "5")
        #expect(payload?["aps"]?["alert"] == nil)
    }

    @Test(arguments: [("p_0a1B", true, "0a1b", false), ("s_ff", true, "ff", true), ("x_ff", false, "", false),
                      ("p_", false, "", false), ("p_zz", false, "", false), ("", false, "", false), ("pff", false, "", false)])
    func theSDKsAPNsTokenFormIsRead(text: String, valid: Bool, hex: String, sandbox: Bool) {
        let binding = FCMAPNsBinding(tupleString: text, bundleID: "b")
        #expect((binding != nil) == valid)
        if let binding { #expect(binding.apnsToken == hex && binding.sandbox == sandbox) }
    }
}
