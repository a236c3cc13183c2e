import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel
import PushSimCrypto

/// A world with the fake FCM (two projects), one app server and one Android phone whose app
/// registered with the first project's sender id, and a valid OAuth access token.
final class FCMBench {
    static let package = "com.example.notes"
    static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"
    /// The service accounts' private keys (kept already made: `DerivedKeyMemo`).
    static let notesKey = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.sampleServiceAccountSeed)
    static let chessKey = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.wrongServiceAccountSeed)
    let project = FCMProject(projectID: "notes-app", projectNumber: "123456789012",
                             serviceAccount: "sender@notes-app.iam.gserviceaccount.com", serviceAccountKey: FCMBench.notesKey.publicKey)
    let otherProject = FCMProject(projectID: "chess-app", projectNumber: "987654321098",
                                  serviceAccount: "sender@chess-app.iam.gserviceaccount.com", serviceAccountKey: FCMBench.chessKey.publicKey)
    let world: World
    let fcm: FCMService
    let server: Probe
    let phone: FakeDevice
    var token = ""
    private(set) var accessToken = ""
    private(set) var accessTokenIssuedAt = VirtualTime.zero

    init(seed: UInt64 = 21) {
        world = World(seed: seed)
        fcm = FCMService(world: world, projects: [project, otherProject])
        server = Probe(world: world, name: "app-server")
        phone = FakeDevice(world: world, name: "pixel", serviceHost: FCMService.deviceHost)
        token = phone.register(app: Self.package, environment: project.projectNumber)
        renewAccessToken()
    }

    func renewAccessToken() {
        accessTokenIssuedAt = world.now
        accessToken = json(requestAccessToken(assertion()))?["access_token"]?.stringValue ?? ""
    }

    /// Renews the access token when it is 50 minutes old (it lives one hour).
    func renewAccessTokenIfOld() {
        if world.now >= accessTokenIssuedAt + .minutes(50) { renewAccessToken() }
    }

    var unixNow: Int64 { world.anchor.unixSeconds(world.now) }

    /// A service-account assertion (JWT-bearer grant), by default valid for one hour from now.
    func assertion(iss: String? = nil, scope: String = FCMBench.messagingScope, iat: Int64? = nil, exp: Int64? = nil,
                   signingKey: RSAPrivateKey? = nil) -> String {
        let issued = iat ?? unixNow
        return JSONWebToken.make(
            header: ["alg": "RS256", "typ": "JWT"],
            claims: ["iss": .string(iss ?? project.serviceAccount), "scope": .string(scope),
                     "aud": "https://oauth2.googleapis.com/token",
                     "iat": .number(JSONNumber(issued)), "exp": .number(JSONNumber(exp ?? issued + 3_600))],
            signingKey: signingKey ?? Self.notesKey)
    }

    func requestAccessToken(_ assertion: String, grantType: String = "urn:ietf:params:oauth:grant-type:jwt-bearer") -> HTTPResponse {
        let form = "grant_type=\(percentEncode(grantType))&assertion=\(percentEncode(assertion))"
        return server.roundTrip(HTTPRequest(method: "POST", authority: FCMService.oauthHost, path: "/token",
                                            headers: ["content-type": "application/x-www-form-urlencoded"],
                                            body: Array(form.utf8)), in: world)
    }

    /// `{"token": …, …fields}`: a message to the phone unless `token` says otherwise.
    func message(token: String? = nil, _ fields: KeyValuePairs<String, JSONValue> = [:]) -> JSONValue {
        .object([("token", .string(token ?? self.token))] + fields.map { ($0.key, $0.value) })
    }

    func request(raw body: String, project: String? = nil, auth: Auth = .current, method: String = "POST", path: String? = nil) -> HTTPRequest {
        var h: HTTPHeaders = ["content-type": "application/json"]
        switch auth {
        case .current: h.add("authorization", "Bearer " + accessToken)
        case .missing: break
        case .header(let v): h.add("authorization", v)
        }
        return HTTPRequest(method: method, authority: FCMService.apiHost,
                           path: path ?? "/v1/projects/\(project ?? self.project.projectID)/messages:send", headers: h, body: Array(body.utf8))
    }

    func send(raw body: String, project: String? = nil, auth: Auth = .current, method: String = "POST", path: String? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse {
        server.roundTrip(request(raw: body, project: project, auth: auth, method: method, path: path), in: world, sourceLocation: sourceLocation)
    }

    /// Sends `{"message": message}` (plus `validate_only` when set).
    func send(_ message: JSONValue, validateOnly: Bool? = nil, project: String? = nil, auth: Auth = .current,
              sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse {
        var root: [(String, JSONValue)] = []
        if let validateOnly { root.append(("validate_only", .bool(validateOnly))) }
        root.append(("message", message))
        return send(raw: JSONValue.object(root).serialized(), project: project, auth: auth, sourceLocation: sourceLocation)
    }

    /// Queues a send without running the world (for bursts to an offline phone).
    func queue(_ message: JSONValue) {
        server.send(request(raw: JSONValue.object([("message", message)]).serialized()), in: world)
    }
}

/// A Google RPC error body: `{"error":{"code","message","status","details":[…]}}`.
struct GoogleError {
    var code: Int64?
    var message: String?
    var status: String?
    var details: [JSONValue]?

    init(_ r: HTTPResponse) {
        let e = json(r)?["error"]
        code = e?["code"]?.int64Value
        message = e?["message"]?.stringValue
        status = e?["status"]?.stringValue
        details = e?["details"]?.arrayValue
    }

    var fcmErrorCode: String? {
        details?.first { $0["@type"]?.stringValue == "type.googleapis.com/google.firebase.fcm.v1.FcmError" }?["errorCode"]?.stringValue
    }
    var violatedFields: [String] {
        let badRequest = details?.first { $0["@type"]?.stringValue == "type.googleapis.com/google.rpc.BadRequest" }
        return badRequest?["fieldViolations"]?.arrayValue?.compactMap { $0["field"]?.stringValue } ?? []
    }
}

/// Expects an FCM error with an FcmError detail first in `details`.
func expectFCMError(_ r: HTTPResponse, _ http: Int, _ status: String, _ errorCode: String, message: String? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let e = GoogleError(r)
    #expect(r.status == http, sourceLocation: sourceLocation)
    #expect(e.code == Int64(http), sourceLocation: sourceLocation)
    #expect(e.status == status, sourceLocation: sourceLocation)
    #expect(e.details?.first?["@type"]?.stringValue == "type.googleapis.com/google.firebase.fcm.v1.FcmError", sourceLocation: sourceLocation)
    #expect(e.details?.first?["errorCode"]?.stringValue == errorCode, sourceLocation: sourceLocation)
    if let message { #expect(e.message == message, sourceLocation: sourceLocation) }
}

@Suite("FCM HTTP v1 send: errors and success (Citations §2.1–§2.3)")
struct FCMSendTests {
    @Test func missingAuthorizationIsUnauthenticated() {
        let bench = FCMBench()
        let r = bench.send(bench.message(), auth: .missing)
        let e = GoogleError(r)
        #expect(r.status == 401)
        #expect(e.code == 401 && e.status == "UNAUTHENTICATED")
        // Worded as the live service words it (firebase-admin-dotnet#503).
        #expect(e.message == "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.")
        #expect(e.details == nil)
        #expect(r.headers["content-type"] == "application/json; charset=UTF-8")
        #expect(GoogleError(bench.send(bench.message(), auth: .header("key=AAAA-legacy-server-key"))).status == "UNAUTHENTICATED")
        // A token the service never issued: the same 401, without the expiry's ErrorInfo.
        let madeUp = GoogleError(bench.send(bench.message(), auth: .header("Bearer ya29.made-up")))
        #expect(madeUp.code == 401 && madeUp.message?.hasPrefix("Request had invalid authentication credentials.") == true && madeUp.details == nil)
    }

    @Test func uninstalledAppIsUnregisteredAfterADeliveryAttempt() {
        let bench = FCMBench()
        bench.phone.uninstall()
        #expect(bench.send(bench.message()).status == 200) // FCM has not learnt anything yet
        #expect(bench.phone.refused == 1)
        expectFCMError(bench.send(bench.message()), 404, "NOT_FOUND", "UNREGISTERED", message: "Requested entity was not found.")
        #expect(bench.phone.refused == 1)
    }

    @Test func wellFormedUnknownTokenIsUnregistered() {
        let bench = FCMBench()
        let stranger = String(repeating: "a", count: 22) + ":APA91b" + String(repeating: "b", count: 134)
        expectFCMError(bench.send(bench.message(token: stranger)), 404, "NOT_FOUND", "UNREGISTERED")
    }

    @Test func malformedJSONIsInvalidArgument() {
        let bench = FCMBench()
        expectFCMError(bench.send(raw: #"{"message":{"token":"#), 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT",
                       message: "Invalid JSON payload received.")
        expectFCMError(bench.send(raw: "[]"), 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", message: "Invalid JSON payload received.")
    }

    @Test func messageWithoutTargetIsInvalidArgument() {
        let bench = FCMBench()
        let r = bench.send(.object(["data": ["a": "b"]]))
        expectFCMError(r, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT",
                       message: "Exactly one of message.fid, message.token, message.topic or message.condition must be set.")
    }

    @Test func messageWithTwoTargetsIsInvalidArgument() {
        let bench = FCMBench()
        expectFCMError(bench.send(bench.message(["topic": "news"])), 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT",
                       message: "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'topic'")
        #expect(bench.phone.pushes.isEmpty)
    }

    @Test func nonStringDataValueIsInvalidArgumentWithFCMsWording() {
        let bench = FCMBench()
        let r = bench.send(bench.message(["data": ["score": 1]]))
        expectFCMError(r, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", message: "Invalid value at 'message.data[0].value' (TYPE_STRING), 1")
        #expect(GoogleError(r).violatedFields == ["message.data[0].value"])
        let second = bench.send(bench.message(["data": ["a": "ok", "b": true]]))
        #expect(GoogleError(second).message == "Invalid value at 'message.data[1].value' (TYPE_STRING), true")
    }

    @Test(arguments: ["from", "message_type", "google.sent_time", "gcm.notification.title"])
    func reservedDataKeyIsInvalidArgument(key: String) {
        let bench = FCMBench()
        expectFCMError(bench.send(bench.message(["data": .object([(key, .string("x"))])])), 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT",
                       message: "Invalid data payload key: \(key)")
    }

    @Test(arguments: [JSONValue.string("3.5"), "-1s", "2419201s", "soon", 60])
    func badTTLIsInvalidArgument(ttl: JSONValue) {
        let bench = FCMBench()
        let r = bench.send(bench.message(["android": .object([("ttl", ttl)])]))
        expectFCMError(r, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", message: "Invalid value at 'message.android.ttl'.")
        #expect(GoogleError(r).violatedFields == ["message.android.ttl"])
    }

    @Test(arguments: ["0s", "3.5s", "2419200s"])
    func ttlFromZeroToFourWeeksIsAccepted(ttl: String) {
        let bench = FCMBench()
        #expect(bench.send(bench.message(["android": ["ttl": .string(ttl)]])).status == 200)
    }

    @Test func payloadOver4096BytesIsInvalidArgument() {
        let bench = FCMBench()
        let frame = #"{"data":{"k":""}}"#.utf8.count // the message without its target
        #expect(bench.send(bench.message(["data": ["k": .string(filler(4_096 - frame))]])).status == 200)
        expectFCMError(bench.send(bench.message(["data": ["k": .string(filler(4_097 - frame))]])), 400, "INVALID_ARGUMENT",
                       "INVALID_ARGUMENT", message: "Message is too big")
    }

    @Test(arguments: ["not-a-token", "", "abc:APA91b!!"])
    func malformedTokenIsInvalidArgumentOnMessageToken(token: String) {
        let bench = FCMBench()
        let r = bench.send(bench.message(token: token))
        expectFCMError(r, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", message: "The registration token is not a valid FCM registration token")
        #expect(GoogleError(r).violatedFields == ["message.token"])
        #expect(GoogleError(r).details?.count == 2)
    }

    @Test func tokenOfAnotherSenderIsSenderIdMismatch() {
        let bench = FCMBench()
        let tablet = FakeDevice(world: bench.world, name: "tablet", serviceHost: FCMService.deviceHost)
        let chessToken = tablet.register(app: "com.example.chess", environment: bench.otherProject.projectNumber)
        expectFCMError(bench.send(bench.message(token: chessToken)), 403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH", message: "SenderId mismatch")
        #expect(tablet.pushes.isEmpty)
    }

    @Test func projectTheAccountDoesNotOwnIsPermissionDenied() {
        let bench = FCMBench()
        for other in [bench.otherProject.projectID, bench.otherProject.projectNumber, "no-such-project"] {
            let r = bench.send(bench.message(), project: other)
            let e = GoogleError(r)
            #expect(r.status == 403)
            #expect(e.code == 403 && e.status == "PERMISSION_DENIED")
            #expect(e.message == "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(other)' (or it may not exist).")
            #expect(e.details == nil)
        }
        #expect(bench.phone.pushes.isEmpty)
    }

    @Test func validateOnlyAnswersFakeMessageIdAndDeliversNothing() {
        let bench = FCMBench()
        let r = bench.send(bench.message(["data": ["a": "b"]]), validateOnly: true)
        #expect(r.status == 200)
        #expect(r.bodyText == #"{"name":"projects/notes-app/messages/fake_message_id"}"#)
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.events("fcm.delivered").isEmpty)
        // validate_only still validates.
        expectFCMError(bench.send(bench.message(["data": ["a": 1]]), validateOnly: true), 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT")
    }

    @Test func acceptedMessageIsNamedAndDelivered() throws {
        let bench = FCMBench()
        let message = bench.message(["data": ["room": "42"], "notification": ["title": "Hi", "body": "Alice wrote"]])
        let r = bench.send(message)
        #expect(r.status == 200)
        let name = try #require(json(r)?["name"]?.stringValue)
        let prefix = "projects/notes-app/messages/0:\(bench.world.anchor.unixMilliseconds(.zero + .milliseconds(50)))%"
        #expect(name.hasPrefix(prefix), "\(name)")
        let suffix = name.dropFirst(prefix.count)
        #expect(suffix.count == 16 && suffix.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(r.bodyText == #"{"name":"\#(name)"}"#)
        #expect(bench.phone.pushes.map(\.text) == [message.serialized()])
        #expect(bench.phone.pushes.first?.headers[DeviceChannel.appHeader] == FCMBench.package)
        // The project number works in the path too; the name still uses the project id.
        let byNumber = bench.send(message, project: bench.project.projectNumber)
        #expect(json(byNumber)?["name"]?.stringValue?.hasPrefix("projects/notes-app/messages/0:") == true)
    }

    /// A topic message is named `projects/<id>/messages/<number>` (FCM-TOPIC-ID), not with a
    /// token message's `0:<ms>%<hex>` id.
    @Test func topicMessageIsAcceptedWithANumericID() {
        let bench = FCMBench()
        let r = bench.send(.object(["topic": "news", "data": ["a": "b"]]))
        #expect(r.status == 200)
        let name = json(r)?["name"]?.stringValue ?? ""
        #expect(name.hasPrefix("projects/notes-app/messages/"))
        let id = name.dropFirst("projects/notes-app/messages/".count)
        #expect(id.count == 19 && id.allSatisfy(\.isNumber))
    }

    // `/fcm/send` is the retired legacy API: see RetiredEndpointTests.
    @Test(arguments: ["/v1/projects/notes-app/messages:sendAll", "/v1/projects/notes-app"])
    func unknownPathIsNotFound(path: String) {
        let bench = FCMBench()
        let r = bench.send(raw: JSONValue.object([("message", bench.message())]).serialized(), path: path)
        let e = GoogleError(r)
        #expect(r.status == 404 && e.status == "NOT_FOUND")
        #expect(e.message == "The requested URL \(path) was not found on this server.")
    }

    @Test func tokenIsStablePerInstallAndNewPerInstall() {
        let bench = FCMBench()
        #expect(bench.phone.register(app: FCMBench.package, environment: bench.project.projectNumber) == bench.token)
        let second = bench.phone.register(app: FCMBench.package, install: 2, environment: bench.project.projectNumber)
        #expect(second != bench.token)
        #expect(looksLikeFCMToken(second) && looksLikeFCMToken(bench.token))
    }
}
