import PushSimKernel
import PushSimNetwork
import PushSimHub

/// The tutorial's backend with its defects fixed (Citations §T, §5):
/// - real accounts: a missing, malformed or wrong `Authorization` is 401 with `WWW-Authenticate`
///   (fixes c and the user-equals-password stand-in);
/// - input checked before use, with a 400 that says what is wrong (fixes f), bodies over 64 KB 413;
/// - payloads built by encoders: JSON strings escaped, XML text escaped (fixes d);
/// - a hub 410 on create-or-update is answered 410, other hub errors 400 or 503 (fixes e);
/// - `gcm` accepted as the old name of `fcm` (fixes b);
/// - sends go to `username:<recipient>` only (fixes g);
/// - tag authorisation: a registration always carries the user's own `username:` tag; the client
///   may add tags only under ``HardenedBackend/allowedTagPrefixes``; any other tag is refused with
///   403, never silently dropped (fixes i); a user may delete only registrations tagged with their
///   name, and write only a registration that is new, theirs, or for the same device handle.
public final class HardenedBackend: Host {
    /// Its primary host name in the world.
    public static let name = "backend-hardened"
    /// The public host name apps call it by, an alias of ``name``.
    public static let publicHost = "pushsim-backend-hardened.azurewebsites.net"
    /// Largest request body accepted.
    public static let maxBody = 65_536
    /// Tag prefixes a client may ask for besides its own `username:` tag.
    public static let allowedTagPrefixes = ["topic:"]

    /// User name → password.
    public var accounts: [String: String]
    /// Test-only: a bug planted on purpose, so that tests can show exploration finds and shrinks
    /// it. True removes the tag check (any requested tag is accepted, as in the tutorial: defect i
    /// comes back). Never set by scenarios.
    public var plantedBugSkipsTagCheck = false
    /// Its hub client, signed with the connection string's key (see ``useHub(connectionString:world:)``).
    private(set) var hub: NotificationHubClient
    /// The user name and password each `Authorization` value seen carries (nil: none readable).
    var credentials = CredentialMemo<(user: String, password: String)?>()

    /// Registers the backend in `world` under ``name`` and ``publicHost``, with `accounts` (user
    /// name → password). Nil when `configuration`'s hub connection string cannot be read.
    public init?(world: World, configuration: BackendConfiguration, accounts: [String: String]) {
        guard let client = NotificationHubClient(connectionString: configuration.hubConnectionString,
                                                 hubPath: configuration.hubPath, world: world, caller: Self.name) else { return nil }
        self.accounts = accounts
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

    /// Serves `api/register` and `api/notifications` to an authenticated caller: 401 without a
    /// known user's Basic credentials, 413 for a body over ``maxBody``, 404 for any other route.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let reply = HardenedReply(world: world, exchange: exchange)
        guard let user = authenticate(request.headers) else {
            world.record(layer: "backend", host: Self.name, kind: .backendAuthRefused, [.status: 401])
            return reply.world.respond(to: exchange, with: HTTPResponse(status: 401, headers: [
                "WWW-Authenticate": "Basic realm=\"PushSim\"", "Content-Type": "application/json; charset=utf-8"],
                text: #"{"error":"authentication required: send Authorization: Basic <user:password>"}"#))
        }
        guard request.body.count <= Self.maxBody else { return reply.error(413, "the request body is larger than 64 KB") }
        let segments = ASCIIText.split(request.path, separator: UInt8(ascii: "/"), omittingEmpty: true)
            ?? request.path.split(separator: "/").map(String.init)
        guard segments.count >= 2, segments[0].lowercased() == "api" else { return reply.error(404, "no such route") }
        switch (request.method, segments[1].lowercased(), segments.count) {
        case ("POST", "register", 2): register(handle: request.queryValue("handle"), reply)
        case ("PUT", "register", 3): upsert(id: segments[2], body: request.body, user: user, reply)
        case ("DELETE", "register", 3): delete(id: segments[2], user: user, reply)
        case ("POST", "notifications", 2):
            notify(pns: request.queryValue("pns"), toTag: request.queryValue("to_tag"), body: request.body, user: user, reply)
        default: reply.error(404, "no such route")
        }
    }

    /// The account behind a Basic header, or nil.
    func authenticate(_ headers: HTTPHeaders) -> String? {
        guard let header = headers["Authorization"],
              let (user, password) = credentials.value(header, decode: Self.basicCredentials) else { return nil }
        return accounts[user] == password ? user : nil
    }

    /// The user name and password of a `Basic` header (split at the first `:`), or nil
    /// (``HTTPRequest/basicCredentials(header:)``).
    static func basicCredentials(_ header: String) -> (user: String, password: String)? {
        HTTPRequest.basicCredentials(header: header)
    }

    // MARK: Registrations

    /// Whether `handle` holds a quote or white space (Unicode's White_Space property); handles are
    /// ASCII, read byte by byte, and anything else by its scalars.
    static func couldBreakOutOfQuotes(_ handle: String) -> Bool {
        if handle.allBytes({ $0 < 0x80 }) {
            return handle.containsByte { $0 == UInt8(ascii: "'") || $0 == 0x20 || (0x09...0x0D).contains($0) }
        }
        return handle.unicodeScalars.contains { $0 == "'" || $0.properties.isWhitespace }
    }

    /// `POST api/register?handle=`: as the tutorial (reuse the first registration for the handle,
    /// delete the others, else create an id), with the handle required and every page of the
    /// handle's registrations cleaned, not only the first 100.
    func register(handle: String?, _ reply: HardenedReply) {
        guard let handle, !handle.isEmpty else { return reply.error(400, "the handle query parameter is required") }
        // The handle goes into the hub's $filter between quotes: refuse what could break out of them.
        guard handle.utf8.count <= 4_096 || handle.count <= 4_096, !Self.couldBreakOutOfQuotes(handle) else {   // bytes first: O(1)
            return reply.error(400, "the handle contains characters no push handle has")
        }
        keepFirstRegistration(of: handle, continuationToken: "", kept: nil, reply) { [self] kept in
            if let kept { return reply.jsonString(kept) }
            hub.createRegistrationId { result in
                switch result {
                case .success(let id): reply.jsonString(id)
                case .failure(let e): reply.hubFailure(e)
                }
            }
        }
    }

    /// Reads the registrations for `handle` page by page (100 to a page, from the page
    /// `continuationToken` names), keeps the first one and deletes every other, then hands the
    /// kept id (nil when there was none) to `then`. The tutorial reads only the first page, so a
    /// handle that piled up more than 100 registrations kept the rest; the hub's token is a
    /// cursor, so deleting between pages skips none. The registrations the hub shows for an
    /// installation on the same handle (tagged `$InstallationId:{…}`) are neither kept nor
    /// deleted: they belong to the installation, and the registration API does not write them.
    private func keepFirstRegistration(of handle: String, continuationToken: String, kept: String?,
                                       _ reply: HardenedReply, then: @escaping (String?) -> Void) {
        hub.getRegistrationsByChannel(handle, continuationToken: continuationToken, top: Self.registrationsPerPage) { [self] result in
            switch result {
            case .failure(let e): reply.hubFailure(e)
            case .success(let page):
                let own = page.registrations.filter { !$0.tags.contains { $0.hasPrefix(Installation.installationTagPrefix) } }
                let kept = kept ?? own.first?.registrationID
                let extra = own.filter { $0.registrationID != kept }
                deleteExtra(extra[...], reply) { [self] in
                    guard let next = page.continuationToken, !next.isEmpty else { return then(kept) }
                    keepFirstRegistration(of: handle, continuationToken: next, kept: kept, reply, then: then)
                }
            }
        }
    }

    /// Registrations asked for per page when looking a handle up: the tutorial's 100.
    static let registrationsPerPage = 100

    private func deleteExtra(_ regs: ArraySlice<RegistrationDescription>, _ reply: HardenedReply, then: @escaping () -> Void) {
        guard let id = regs.first?.registrationID else { return then() }
        hub.deleteRegistration(id) { [self] result in
            if case .failure(let e) = result, e.status != 404 { return reply.hubFailure(e) }
            deleteExtra(regs.dropFirst(), reply, then: then)
        }
    }

    /// `PUT api/register/<id>` with `{"Platform", "Handle", "Tags"?, "Template"?}`; a browser
    /// sends its `Subscription` instead of a `Handle` (``browserHandle(_:)``). `Template` (a body)
    /// makes a template registration, which the hub fills at template sends (NH-TPL).
    func upsert(id: String, body: [UInt8], user: String, _ reply: HardenedReply) {
        guard let json = try? JSONParser.parse(body), json.objectMembers != nil else {
            return reply.error(400, "the body must be a JSON object {\"Platform\": …, \"Handle\": …, \"Tags\": […]}")
        }
        guard let name = json["Platform"]?.stringValue?.lowercased() else {
            return reply.error(400, "Platform is required: \(Self.serviceNames(oldNames: false))")
        }
        guard let platform = Self.platform(named: name)?.registrationPlatform else {
            if name == "mpns" { return reply.error(400, "mpns is retired; use wns") }
            return reply.error(400, "unknown Platform '\(name)': use \(Self.serviceNames(oldNames: false))")
        }
        let handle: String
        if platform == .browser {
            switch Self.browserHandle(json) {
            case .failure(let problem): return reply.error(400, problem.description)
            case .success(let h): handle = h
            }
        } else {
            guard let given = json["Handle"]?.stringValue, !given.isEmpty else { return reply.error(400, "Handle is required") }
            handle = given
        }
        if let problem = Self.handleProblem(handle, platform) { return reply.error(400, problem) }
        var requested: [String] = []
        if let tags = json["Tags"] {
            guard let list = tags.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                return reply.error(400, "Tags must be an array of strings")
            }
            requested = list.compactMap(\.stringValue)
        }
        let own = "username:" + user
        if !plantedBugSkipsTagCheck, let refused = requested.first(where: { $0 != own && !Self.allowedTagPrefixes.contains(where: $0.hasPrefix) }) {
            reply.world.record(layer: "backend", host: Self.name, kind: .backendTagRefused, [.tag: .string(refused), .user: .string(user)])
            return reply.error(403, "the tag '\(refused)' is not allowed for user '\(user)'")
        }
        var tags = [own]
        for t in requested where !tags.contains(t) { tags.append(t) }
        var description = RegistrationDescription(platform: platform, handle: handle, tags: tags, registrationID: id)
        if let template = json["Template"] {
            // A page that asks for a template registration (the hub fills it at a template send).
            guard let body = template.stringValue, !body.isEmpty else { return reply.error(400, "Template must be the template's body as a string") }
            description.template = RegistrationTemplate(bodyTemplate: body)
        }
        // Ownership: a user may write a registration that is new (the hub has none under this id),
        // already theirs, or for this same handle (another user logging in on the same device).
        // Anything else would let a user take over someone else's registration by its id.
        hub.getRegistration(id) { [self] existing in
            switch existing {
            case .success(let r):
                let sameDevice = r.handle.lowercased() == handle.lowercased()
                guard r.tags.contains(own) || sameDevice else {
                    reply.world.record(layer: "backend", host: Self.name, kind: .backendRegistrationRefused, [.id: .string(id), .user: .string(user)])
                    return reply.error(403, "the registration \(id) belongs to another user's device")
                }
            case .failure(let e) where e.status == 404: break   // new, or gone: the PUT says which
            case .failure(let e): return reply.hubFailure(e)
            }
            hub.createOrUpdateRegistration(description) { result in
                switch result {
                case .success: reply.world.respond(to: reply.exchange, with: HTTPResponse(status: 200))
                case .failure(let e) where e.status == 410:
                    reply.error(410, "the registration \(id) is gone (expired or deleted): forget it and create a new one")
                case .failure(let e): reply.hubFailure(e)
                }
            }
        }
    }

    /// `DELETE api/register/<id>`: only a registration tagged with the caller's user name.
    func delete(id: String, user: String, _ reply: HardenedReply) {
        hub.getRegistration(id) { [self] result in
            switch result {
            case .failure(let e) where e.status == 404: reply.error(404, "no registration \(id)")
            case .failure(let e): reply.hubFailure(e)
            case .success(let r):
                guard r.tags.contains("username:" + user) else { return reply.error(403, "the registration \(id) belongs to another user") }
                hub.deleteRegistration(id) { result in
                    switch result {
                    case .success: reply.world.respond(to: reply.exchange, with: HTTPResponse(status: 200))
                    case .failure(let e) where e.status == 404: reply.world.respond(to: reply.exchange, with: HTTPResponse(status: 200))
                    case .failure(let e): reply.hubFailure(e)
                    }
                }
            }
        }
    }

    /// Why a handle cannot be the platform's: APNs tokens are even-length hex (§1.5), WNS channels
    /// are https URLs under notify.windows.com (W-OVR).
    static func handleProblem(_ handle: String, _ platform: RegistrationPlatform) -> String? {
        switch platform {
        case .apple:
            let hex = handle.allBytes { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) || ($0 >= 97 && $0 <= 102) }
            return hex && handle.utf8.count % 2 == 0 ? nil : "an APNs Handle is the device token in hex"
        case .windows:
            // The whole authority must be a plain host name under notify.windows.com: no user info,
            // port, `#` or `\` that would make a URL parser see another host, and a dot before
            // `notify` (the hub sends its WNS access token to this URI).
            guard let r = HTTPRequest(method: "POST", url: handle), handle.hasPrefix("https://") else {
                return "a WNS Handle is an https channel URI under notify.windows.com"
            }
            let host = r.authority.lowercased()
            let plain = host.allBytes { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 46 }
            guard plain, host == "notify.windows.com" || host.hasSuffix(".notify.windows.com") else {
                return "a WNS Handle is an https channel URI under notify.windows.com"
            }
            return nil
        default:
            return handle.count > 4_096 ? "the Handle is too long" : nil
        }
    }
}

/// The answer to one request to the hardened backend.
struct HardenedReply {
    let world: World
    let exchange: Exchange

    func error(_ status: Int, _ message: String) {
        world.respond(to: exchange, with: HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"],
                                                       text: JSONValue.object([("error", .string(message))]).serialized()))
    }

    func jsonString(_ s: String) {
        world.respond(to: exchange, with: HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"],
                                                       text: JSONValue.string(s).serialized()))
    }

    /// Hub errors the client can act on: 400 for a request the hub refused, 413 for a payload too
    /// large for the hub (retrying cannot help), 503 with Retry-After otherwise.
    func hubFailure(_ e: HubError) {
        world.record(layer: "backend", host: HardenedBackend.name, kind: .backendHubError, [.error: .string(e.description)])
        if e.kind == .badRequest || e.kind == .argument { return error(400, "the hub refused the request: \(e.detail)") }
        if e.status == 413 { return error(413, "the notification is too large: \(e.detail)") }
        world.respond(to: exchange, with: HTTPResponse(status: 503, headers: ["Retry-After": "30", "Content-Type": "application/json; charset=utf-8"],
                                                       text: JSONValue.object([("error", .string("the notification hub is unavailable: \(e.detail)"))]).serialized()))
    }
}
