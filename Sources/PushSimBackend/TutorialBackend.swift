import PushSimKernel
import PushSimNetwork
import PushSimHub

/// The app backend of Microsoft's "push notifications to specific users" tutorial, as written
/// (Citations §T; NH-NOTIFY): the Basic-auth test handler, `RegisterController` and
/// `NotificationsController`, talking to the hub through ``NotificationHubClient``.
///
/// Its known defects are kept on purpose and marked in the trace with a `defect` field:
/// b (`pns=gcm` matches no case: 500), c (no Authorization header: 500), d (payloads built by
/// concatenation), e (a hub 410 never reaches the client as 410), f (missing `Tags`: 500),
/// g (send goes to `username:<to> || from:<sender>`), i (any tags accepted).
///
/// One deliberate update: the tutorial's `fcm` case used FCM legacy, which the hub retired on
/// 20 June 2024 (AZ-FCMLEG). Here `fcm` registers an `FcmV1RegistrationDescription` and sends the
/// same concatenated data payload wrapped in `{"message":…}` — what the tutorial code must become
/// to run at all today. Everything else is as written.
public final class TutorialBackend: Host {
    /// Its primary host name in the world.
    public static let name = "backend"
    /// The public host name apps call it by, an alias of ``name``.
    public static let publicHost = "pushsim-backend.azurewebsites.net"

    /// The settings it was made with.
    public let configuration: BackendConfiguration
    /// Its hub client, signed with the connection string's key (see ``useHub(connectionString:world:)``).
    private(set) var hub: NotificationHubClient
    /// What each `Authorization` value seen decides (the handler's steps depend on its text alone).
    var credentials = CredentialMemo<TutorialAuthentication.Outcome>()

    /// Registers the backend in `world` under ``name`` and ``publicHost``. Nil when
    /// `configuration`'s hub connection string cannot be read.
    public init?(world: World, configuration: BackendConfiguration) {
        guard let client = NotificationHubClient(connectionString: configuration.hubConnectionString,
                                                 hubPath: configuration.hubPath, world: world, caller: Self.name) else { return nil }
        self.configuration = configuration
        self.hub = client
        world.register(self, name: Self.name, aliases: [Self.publicHost])
    }

    /// Calls the hub from now on with `connectionString`'s key, as an operator pasting another
    /// connection string into the app's settings would (a Listen key's sends are then refused with
    /// 401); false, and nothing changes, when the SDK cannot read the string.
    @discardableResult
    public func useHub(connectionString: String, world: World) -> Bool {
        BackendHubKey.replace(&hub, connectionString: connectionString, world: world, caller: Self.name)
    }

    /// ASP.NET's default `maxRequestLength`: 4096 KB. A larger body makes ASP.NET throw
    /// `HttpException` ("Maximum request length exceeded") before the app runs: 500. (IIS's own
    /// 30,000,000-byte `maxAllowedContentLength` would answer 404.13 first for bigger bodies; not
    /// modelled. PushSim's reading of the hosting defaults, not in the tutorial text.)
    public static let maxRequestLength = 4_194_304

    /// Runs a request as the tutorial's code does: a body over ``maxRequestLength`` is 500 first;
    /// then the Basic-auth handler (403, or 500 for an exception), then Web API's
    /// `api/{controller}/{id}` routing to `RegisterController` and `NotificationsController`;
    /// 404 for any other route.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let reply = Reply(world: world, exchange: exchange)
        guard request.body.count <= Self.maxRequestLength else {
            return reply.exception("HttpException: Maximum request length exceeded (ASP.NET maxRequestLength 4096 KB)")
        }
        let user: String
        let outcome: TutorialAuthentication.Outcome
        if let header = request.headers["Authorization"] {
            outcome = credentials.value(header) { TutorialAuthentication.authenticate(header: $0) }
        } else {
            outcome = TutorialAuthentication.authenticate(request.headers)
        }
        switch outcome {
        case .user(let u): user = u
        case .forbidden:
            world.record(layer: "backend", host: Self.name, kind: .backendAuthRefused, [.status: 403])
            return reply.status(403)
        case .exception(let text):
            return reply.exception(text, defect: text.hasPrefix("InvalidOperation") ? "c" : nil)
        }
        // Web API's route template `api/{controller}/{id}`: anything outside `api/` matches no controller.
        let segments = ASCIIText.split(request.path, separator: UInt8(ascii: "/"), omittingEmpty: true)
            ?? request.path.split(separator: "/").map(String.init)
        let controller = segments.count > 1 && segments[0].lowercased() == "api" ? segments[1].lowercased() : ""
        switch (request.method, controller, segments.count) {
        case ("POST", "register", 2): register(handle: request.queryValue("handle"), reply)
        case ("PUT", "register", 3): upsert(id: segments[2], body: request.body, user: user, reply)
        case ("DELETE", "register", 3): delete(id: segments[2], reply)
        case ("POST", "notifications", 2):
            notify(pns: request.queryValue("pns"), toTag: request.queryValue("to_tag"), body: request.body, user: user, reply)
        default:
            reply.status(404)
        }
    }

    // MARK: RegisterController

    /// `POST api/register?handle=`: keep the first registration found for the handle, delete the
    /// others, create a new id when none was found; answer the id as a JSON string.
    func register(handle: String?, _ reply: Reply) {
        func finish(_ id: String?) {
            if let id { return reply.json(id: id) }
            hub.createRegistrationId { result in
                switch result {
                case .success(let id): reply.json(id: id)
                case .failure(let e): reply.exception("\(e.kind.rawValue) from CreateRegistrationIdAsync: \(e.detail)")
                }
            }
        }
        guard let handle else { return finish(nil) }
        hub.getRegistrationsByChannel(handle, top: 100) { [self] result in
            switch result {
            case .failure(let e):
                reply.exception("\(e.kind.rawValue) from GetRegistrationsByChannelAsync: \(e.detail)")
            case .success(let found):
                deleteAll(Array(found.dropFirst()), reply) { finish(found.first?.registrationID) }
            }
        }
    }

    private func deleteAll(_ regs: [RegistrationDescription], _ reply: Reply, then: @escaping () -> Void) {
        guard let first = regs.first, let id = first.registrationID else { return then() }
        hub.deleteRegistration(id) { [self] result in
            if case .failure(let e) = result {
                return reply.exception("\(e.kind.rawValue) from DeleteRegistrationAsync: \(e.detail)")
            }
            deleteAll(Array(regs.dropFirst()), reply, then: then)
        }
    }

    /// `PUT api/register/<id>` with `{"Platform","Handle","Tags"}`.
    func upsert(id: String, body: [UInt8], user: String, _ reply: Reply) {
        // Web API model binding: a body that does not parse leaves `deviceUpdate` null.
        let update = try? JSONParser.parse(body)
        guard let update, update.objectMembers != nil else {
            return reply.exception("NullReferenceException: the request body did not bind to DeviceRegistration", defect: "f")
        }
        let platform: RegistrationPlatform
        switch update["Platform"]?.stringValue {
        case "mpns": platform = .mpns
        case "wns": platform = .windows
        case "apns": platform = .apple
        case "fcm": platform = .fcmV1
        default: return reply.status(400)   // HttpResponseException(BadRequest)
        }
        guard let handle = update["Handle"]?.stringValue else {
            return reply.exception("ArgumentNullException: Handle is null", defect: "f")
        }
        guard let tagValues = update["Tags"]?.arrayValue else {
            return reply.exception("ArgumentNullException: new HashSet<string>(null) for missing Tags", defect: "f")
        }
        // "add check if user is allowed to add these tags" — left undone: any tag is accepted (defect i).
        var tags: [String] = []
        for t in tagValues.compactMap(\.stringValue) + ["username:" + user] where !tags.contains(t) { tags.append(t) }
        if tags.count > 1 {
            reply.world.record(layer: "backend", host: Self.name, kind: .backendTagsUnchecked,
                               [.tags: .string(tags.joined(separator: ",")), .defect: "i"])
        }
        let description = RegistrationDescription(platform: platform, handle: handle, tags: tags, registrationID: id)
        hub.createOrUpdateRegistration(description) { [self] result in
            switch result {
            case .success: reply.status(200)
            case .failure(let e): returnGoneIfHubResponseIsGone(e, reply)
            }
        }
    }

    /// The tutorial's `catch (MessagingException e) { ReturnGoneIfHubResponseIsGone(e); }` (defect e).
    private func returnGoneIfHubResponseIsGone(_ e: HubError, _ reply: Reply) {
        guard e.kind != .transport && e.kind != .argument else {
            // Not a MessagingException: not caught at all.
            return reply.exception("TimeoutException from CreateOrUpdateRegistrationAsync: \(e.detail)")
        }
        switch configuration.hubSDK {
        case .current:
            reply.exception("NullReferenceException in ReturnGoneIfHubResponseIsGone: \(e.kind.rawValue) has no WebException inside (hub said \(e.status.map(String.init) ?? "?"))", defect: "e")
        case .classic:
            if e.status == 410 {
                reply.exception("HttpRequestException(\"Gone\") thrown for the hub's 410: Web API answers 500, not 410", defect: "e")
            } else {
                reply.world.record(layer: "backend", host: Self.name, kind: .backendErrorSwallowed,
                                   [.hubStatus: .int(e.status ?? 0), .defect: "e"])
                reply.status(200)
            }
        }
    }

    /// `DELETE api/register/<id>`.
    func delete(id: String, _ reply: Reply) {
        hub.deleteRegistration(id) { result in
            switch result {
            case .success: reply.status(200)
            case .failure(let e): reply.exception("\(e.kind.rawValue) from DeleteRegistrationAsync: \(e.detail)")
            }
        }
    }
}
