import PushSimKernel
import PushSimCrypto
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Names and secrets shared by the hub tests: one app on three platforms, one hub.
enum TestIdentity {
    static let namespace = "pushsim"
    static let hubName = "notifyusers"
    static let hubHost = "pushsim.servicebus.windows.net"
    static let hubResource = "https://pushsim.servicebus.windows.net/notifyusers"
    static let full = SharedAccessRule(keyName: "DefaultFullSharedAccessSignature", key: "full-key", rights: HubRight.allCases)
    static let listen = SharedAccessRule(keyName: "DefaultListenSharedAccessSignature", key: "listen-key", rights: [.listen])
    static let sendOnly = SharedAccessRule(keyName: "SendOnly", key: "send-key", rights: [.send])

    static let bundleID = "com.example.notify"
    static let androidPackage = "com.example.notify"
    static let senderID = "1234567890"
    static let windowsFamily = "Example.Notify_8wekyb3d8bbwe"
    static let apnsPrivateKey = DerivedKeyMemo.p256Key(derivedFrom: "hub tests: APNs key")
    static let apnsKey = APNsSigningKey(keyID: "KEYID00001", teamID: "TEAMID0001", privateKey: apnsPrivateKey)
    static let serviceAccountKey = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.sampleServiceAccountSeed)
    /// A key Google does not have for the service account.
    static let otherServiceAccountKey = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.wrongServiceAccountSeed)
    static let fcmProject = FCMProject(projectID: "example-notify", projectNumber: senderID,
                                       serviceAccount: "hub@example-notify.iam.gserviceaccount.com", serviceAccountKey: serviceAccountKey.publicKey)
    static let wnsApp = WNSApp(packageSID: "ms-app://s-1-15-2-111-222-333", secret: "wns-secret", packageFamily: windowsFamily)

    static var apnsCredential: APNsCredential {
        APNsCredential(keyID: apnsKey.keyID, teamID: apnsKey.teamID, privateKey: apnsPrivateKey, bundleID: bundleID)
    }
    static var fcmCredential: FCMCredential {
        FCMCredential(projectID: fcmProject.projectID, serviceAccount: fcmProject.serviceAccount, privateKey: serviceAccountKey)
    }
    static var wnsCredential: WNSCredential { WNSCredential(packageSID: wnsApp.packageSID, secret: wnsApp.secret) }

    static func configuration(ttl: VirtualDuration? = nil, apns: APNsCredential? = apnsCredential,
                              fcm: FCMCredential? = fcmCredential, wns: WNSCredential? = wnsCredential) -> HubConfiguration {
        var configuration = HubConfiguration(namespace: namespace, hubName: hubName, accessRules: [full, listen, sendOnly],
                                             registrationTimeToLive: ttl)
        configuration.apns = apns
        configuration.fcm = fcm
        configuration.wns = wns
        return configuration
    }
}

/// A world holding the hub, a backend-like caller (`backend`, not a registered host) with an
/// SDK client, and, when asked, the fake APNs, FCM and WNS.
final class HubWorld {
    /// The id of the `n`th send the hub took ("?" before it took one), in the live hub's form.
    func ntf(_ n: Int) -> String { hub.notificationID(number: n) ?? "?" }

    let world: World
    let hub: NotificationHub
    let client: NotificationHubClient
    private(set) var apns: APNsService?
    private(set) var fcm: FCMService?
    private(set) var wns: WNSService?
    static let caller = "backend"

    init(seed: UInt64 = 1, services: Bool = true, configuration: HubConfiguration = TestIdentity.configuration()) {
        world = World(seed: seed)
        if services {
            apns = APNsService(world: world, configuration: APNsConfiguration(keys: [TestIdentity.apnsKey]))
            fcm = FCMService(world: world, projects: [TestIdentity.fcmProject])
            wns = WNSService(world: world, apps: [TestIdentity.wnsApp])
        }
        hub = NotificationHub(world: world, configuration: configuration)
        client = NotificationHubClient(connectionString: configuration.connectionString(for: TestIdentity.full),
                                       hubPath: TestIdentity.hubName, world: world, caller: Self.caller)!
    }

    /// A hub answering in the classic shape (``HubAnswerShape/classic``): `ETag` and
    /// `Content-Location` headers, Atom content types, addresses under `registrations`.
    static func classic(services: Bool = true) -> HubWorld {
        var configuration = TestIdentity.configuration()
        configuration.answerShape = .classic
        return HubWorld(services: services, configuration: configuration)
    }

    /// The ETag of an entry answer as its description gives it, `W/"n"`: where the SDK reads it,
    /// in either answer shape.
    static func etag(_ r: HTTPResponse?) -> String? {
        guard let body = r?.body, case .success(let d) = AtomRegistration.parseEntry(body), let n = d.etag else { return nil }
        return "W/\"\(n)\""
    }

    /// A client using another access rule's connection string.
    func client(rule: SharedAccessRule) -> NotificationHubClient {
        NotificationHubClient(connectionString: hub.configuration.connectionString(for: rule), hubPath: TestIdentity.hubName,
                              world: world, caller: Self.caller)!
    }

    /// Starts an asynchronous operation, runs the world until nothing is left, and returns its answer.
    func wait<T>(_ start: (@escaping (T) -> Void) -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> T? {
        var out: T?
        start { out = $0 }
        world.run()
        if out == nil { Issue.record("the operation never completed", sourceLocation: sourceLocation) }
        return out
    }

    /// Moves the clock forward by `d`, running whatever falls due.
    func advance(_ d: VirtualDuration) { world.run(until: world.now + d) }

    // MARK: Raw REST

    enum Auth {
        case full, listen, sendOnly, none
        case header(String)
    }

    /// A SAS header for `rule`, valid for an hour from now unless `expiresAt` is given.
    func sas(_ rule: SharedAccessRule = TestIdentity.full, key: String? = nil, keyName: String? = nil,
             resource: String = TestIdentity.hubResource, expiresAt: Int64? = nil) -> String {
        SharedAccessSignature.token(resource: resource, keyName: keyName ?? rule.keyName, key: key ?? rule.key,
                                    expiresAtUnixSeconds: expiresAt ?? world.anchor.unixSeconds(world.now) + 3_600)
    }

    /// Sends one raw request to the hub and returns its answer (nil, with an issue, on a transport failure).
    func raw(_ method: String, _ path: String, query: [(String, String)] = [("api-version", "2015-01")],
             headers: [(String, String)] = [], body: [UInt8] = [], auth: Auth = .full,
             sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse? {
        var h = HTTPHeaders()
        switch auth {
        case .full: h.add("Authorization", sas(TestIdentity.full))
        case .listen: h.add("Authorization", sas(TestIdentity.listen))
        case .sendOnly: h.add("Authorization", sas(TestIdentity.sendOnly))
        case .none: break
        case .header(let v): h.add("Authorization", v)
        }
        for (n, v) in headers { h.add(n, v) }
        let request = HTTPRequest(method: method, authority: TestIdentity.hubHost, path: path, query: query, headers: h, body: body)
        let result: CallResult? = wait({ done in world.call(request, from: Self.caller) { done($0) } }, sourceLocation: sourceLocation)
        guard let response = result?.response else {
            Issue.record("no HTTP answer: \(result?.summary ?? "none")", sourceLocation: sourceLocation)
            return nil
        }
        return response
    }

    /// `<hub>/…` path.
    func path(_ rest: String) -> String { "/\(TestIdentity.hubName)/\(rest)" }

    // MARK: Registrations through the client

    func createID(sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let r = wait({ client.createRegistrationId($0) }, sourceLocation: sourceLocation)
        guard case .success(let id)? = r else {
            Issue.record("create registration id failed: \(String(describing: r))", sourceLocation: sourceLocation)
            return "?"
        }
        return id
    }

    func put(_ id: String, _ platform: RegistrationPlatform, _ handle: String, tags: [String] = [],
             sourceLocation: SourceLocation = #_sourceLocation) -> Result<RegistrationDescription, HubError>? {
        wait({ client.createOrUpdateRegistration(RegistrationDescription(platform: platform, handle: handle, tags: tags,
                                                                         registrationID: id), $0) }, sourceLocation: sourceLocation)
    }

    /// Create Registration ID, then create-or-update; returns the id.
    @discardableResult
    func register(_ platform: RegistrationPlatform, _ handle: String, tags: [String] = [],
                  sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let id = createID(sourceLocation: sourceLocation)
        let r = put(id, platform, handle, tags: tags, sourceLocation: sourceLocation)
        if case .failure(let e)? = r { Issue.record("registration failed: \(e)", sourceLocation: sourceLocation) }
        return id
    }

    func byChannel(_ handle: String, top: Int = 100) -> [RegistrationDescription]? {
        guard case .success(let list)? = wait({ client.getRegistrationsByChannel(handle, top: top, $0) }) else { return nil }
        return list
    }

    /// Whether GET `registrations/<id>` answers 200.
    func exists(_ id: String) -> Bool { raw("GET", path("registrations/\(id)"))?.status == 200 }

    // MARK: Sends

    /// Raw native send; `tags` is the `ServiceBusNotification-Tags` expression.
    func send(format: String?, body: String, tags: String? = nil, headers extra: [(String, String)] = [],
              auth: Auth = .full, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse? {
        var headers: [(String, String)] = []
        if let format { headers.append(("ServiceBusNotification-Format", format)) }
        if let tags { headers.append(("ServiceBusNotification-Tags", tags)) }
        return raw("POST", path("messages/"), headers: headers + extra, body: Array(body.utf8), auth: auth, sourceLocation: sourceLocation)
    }

    // MARK: Trace

    func events(_ kind: String) -> [TraceEvent] { world.trace.events.filter { $0.kind.name == kind } }
    /// The message of an error answer's `<Detail>`: the text before its tracking part.
    func detail(_ response: HTTPResponse?) -> String? {
        guard let response, let doc = try? XMLDocumentParser.parse(response.body), let text = doc.root.first("Detail")?.text else { return nil }
        return HubErrorDetail.split(text).message
    }
    /// Requests the hub made to hosts answering at `authority`.
    func hubRequests(authority: String) -> [RequestJournal.Entry] {
        world.journal.entries.filter { $0.from == NotificationHub.name && $0.request.authority == authority }
    }
}

/// A phone or PC reduced to what the push services need: it asks its service for a handle over
/// the device channel and answers `/push` with 200 while the app is installed, 410 after.
final class TestDevice: Host {
    let name: String
    let serviceHost: String
    let appID: String
    let environment: String
    var installed = true
    private(set) var handle: String?
    private(set) var pushes: [(time: VirtualTime, service: String, body: String)] = []

    init(_ world: World, name: String, serviceHost: String, appID: String, environment: String) {
        self.name = name
        self.serviceHost = serviceHost
        self.appID = appID
        self.environment = environment
        world.register(self, name: name)
    }

    static func iPhone(_ w: HubWorld, _ name: String) -> TestDevice {
        TestDevice(w.world, name: name, serviceHost: APNsService.deviceHost, appID: TestIdentity.bundleID, environment: "production").obtain(w)
    }
    static func android(_ w: HubWorld, _ name: String) -> TestDevice {
        TestDevice(w.world, name: name, serviceHost: FCMService.deviceHost, appID: TestIdentity.androidPackage,
                   environment: TestIdentity.senderID).obtain(w)
    }
    static func windows(_ w: HubWorld, _ name: String) -> TestDevice {
        TestDevice(w.world, name: name, serviceHost: WNSService.deviceHost, appID: TestIdentity.windowsFamily, environment: "").obtain(w)
    }

    /// Asks the service for a handle and waits for it.
    private func obtain(_ w: HubWorld) -> TestDevice {
        let ask = DeviceRegisterRequest(app: appID, install: 1, environment: environment)
        let request = HTTPRequest(method: "POST", authority: serviceHost, path: DeviceChannel.registerPath, body: ask.body)
        let result: CallResult? = w.wait { done in w.world.call(request, from: name) { done($0) } }
        if let body = result?.response?.body, let json = try? JSONParser.parse(body) { handle = json["handle"]?.stringValue }
        if handle == nil { Issue.record("\(name) got no handle: \(result?.summary ?? "none")") }
        return self
    }

    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        guard request.path == DeviceChannel.pushPath, installed else {
            return world.respond(to: exchange, with: HTTPResponse(status: 410))
        }
        pushes.append((world.now, request.headers[DeviceChannel.serviceHeader] ?? "?", request.bodyText))
        world.respond(to: exchange, with: HTTPResponse(status: 200))
    }
}

/// A stand-in PNS for outage tests: answers each request with `answer(request, index)` (index from
/// 0, counted per host) and keeps what it received.
final class ScriptedPNS: Host {
    private(set) var requests: [(time: VirtualTime, request: HTTPRequest)] = []
    var answer: (HTTPRequest, Int) -> HTTPResponse

    init(_ world: World, name: String, aliases: [String], answer: @escaping (HTTPRequest, Int) -> HTTPResponse) {
        self.answer = answer
        world.register(self, name: name, aliases: aliases)
    }

    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let index = requests.count
        requests.append((world.now, request))
        world.respond(to: exchange, with: answer(request, index))
    }

    /// `{"reason": …}` as APNs answers errors.
    static func apns(_ status: Int, _ reason: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("content-type", "application/json")] + headers),
                     text: JSONValue.object([("reason", .string(reason))]).serialized())
    }
}

/// Payloads that pass the fake services' checks.
enum Payload {
    static let apple = #"{"aps":{"alert":"Hello"}}"#
    static let fcm = #"{"message":{"notification":{"title":"Hi","body":"Hello"}}}"#
    static let toast = #"<toast><visual><binding template="ToastGeneric"><text>Hello</text></binding></visual></toast>"#
}
