import PushSimKernel
import PushSimCrypto
import PushSimNetwork

/// A Firebase project as the fake knows it, with the service account allowed to send to it.
public struct FCMProject: Sendable, Equatable {
    /// The project id in `/v1/projects/<id>/messages:send`; the send path may give ``projectNumber`` instead.
    public var projectID: String
    /// The sender id apps register with.
    public var projectNumber: String
    /// The service account allowed to send (its e-mail, `client_email`: the `iss` of its OAuth assertions).
    public var serviceAccount: String
    /// The public halves of the service account's keys, which Google keeps (a service account may
    /// have several keys at once): an assertion must verify with one of them (RS256).
    public var serviceAccountKeys: [RSAPublicKey]
    /// The APNs auth key uploaded in the project's Cloud Messaging settings (a `.p8` key with its
    /// key id and team id, F-APNS-KEY), which FCM signs its provider tokens with when it relays a
    /// send to an iOS app instance (`FCMService+Relay.swift`); nil: none uploaded, and such sends
    /// get 401 `THIRD_PARTY_AUTH_ERROR`.
    public var apnsAuthKey: APNsSigningKey?
    /// A project for ``FCMService/projects``, its service account with one key.
    public init(projectID: String, projectNumber: String, serviceAccount: String, serviceAccountKey: RSAPublicKey) {
        self.projectID = projectID
        self.projectNumber = projectNumber
        self.serviceAccount = serviceAccount
        self.serviceAccountKeys = [serviceAccountKey]
    }
}

/// The fake Firebase Cloud Messaging: the HTTP v1 API (`POST /v1/projects/<p>/messages:send` on
/// `fcm.googleapis.com`), Google's OAuth token endpoint (`POST /token` on `oauth2.googleapis.com`,
/// JWT-bearer grant, one-hour tokens, §2.1 F-MIG), and the device side (`DeviceChannel` on `mtalk.google.com`).
///
/// Offline storage imitates §2.5 (F-COLL): up to 100 non-collapsible messages per device (one
/// more drops them all, and the app is told messages were deleted); per collapse key only the
/// newest; at most 4 collapse keys (the oldest key goes, the docs leave which unspecified);
/// each message dropped when its TTL passes (default and maximum 4 weeks; TTL 0: now or never).
/// When the store overflows, the app is told on its next connection: FCM sends it
/// `{"message_type":"deleted_messages"}`, which the Android SDK turns into `onDeletedMessages()`.
///
/// A token with no sign of life (issued, asked for again by the app, or delivered to) for
/// ``tokenInactivityLimit`` (270 days) has expired: sends get 404 `UNREGISTERED` and the app gets a
/// new token when it next asks (§2.6, F-TOK). Injected ``faults`` apply to `messages:send` only.
/// The retired legacy endpoints (`/fcm/send`, the GCM hosts) answer as they do today (`RetiredEndpoints`).
///
/// A send may name a topic or a condition over topics instead of a token (§2.7, F-TOPIC): tokens join
/// topics through the Instance ID API on ``instanceIDHost`` (`FCMService+InstanceID.swift`) or from
/// the device, and the send hands each subscriber a copy (`FCMService+Topics.swift`).
///
/// A send may name a Firebase installation ID (`message.fid`) instead of a token (§2.2, FA-PY-FID):
/// an Android app names its FID when it asks for a token, and a send to the FID goes to the newest
/// token issued for it (`FCMInstallations`); a FID FCM does not know is `UNREGISTERED`.
public final class FCMService: FakePushService, CallReceiver {
    /// The push service it plays (`PushServiceDescriptor.fcm`), which gives its names and hosts.
    public static let descriptor = PushServiceDescriptor.fcm
    /// `fcm`: the host name in the world and the service's name in traces.
    public static let name = descriptor.name
    /// The trace field of its message ids (``PushServiceDescriptor/messageIDField``).
    static let messageIDField = PushServiceDescriptor.fcm.messageIDField
    /// `fcm.googleapis.com`: the HTTP v1 send API.
    public static let apiHost = PushServiceDescriptor.fcm.providerHosts[0]
    /// Google's OAuth token endpoint, where service-account JWTs are exchanged for access tokens.
    public static let oauthHost = "oauth2.googleapis.com"
    /// `iid.googleapis.com`: the Instance ID server API, where the Admin SDKs manage topic
    /// subscriptions (IID-SERVER; `FCMService+InstanceID.swift`).
    public static let instanceIDHost = "iid.googleapis.com"
    /// The HTTP v1 API, Google's OAuth token endpoint and the Instance ID API (``FakePushService/publicHosts``).
    public static var publicHosts: [String] { [apiHost, oauthHost, instanceIDHost].map { $0.lowercased() } }
    /// `/v1/projects/…` is the HTTP v1 API; `/token` and `/oauth2/v4/token` the token endpoint;
    /// `/iid/…` the Instance ID API.
    public static func loopbackHost(path: String, target: String) -> String? {
        if path.hasBytePrefix("/v1/projects/") { return apiHost }
        if path.hasBytePrefix("/iid/") { return instanceIDHost }
        if path == "/token" || path == "/oauth2/v4/token" { return oauthHost }
        return nil
    }
    /// An HTTP v1 send, `…/messages:send`; not a token request.
    public static func isProviderSend(_ request: HTTPRequest) -> Bool { request.path.hasByteSuffix("/messages:send") }
    /// `mtalk.google.com`: where devices register for tokens and connect (`DeviceChannel`).
    public static let deviceHost = PushServiceDescriptor.fcm.deviceHost

    /// The projects that exist; read on every request.
    public var projects: [FCMProject]
    /// How service-account assertions' signatures are checked: verified with the service account's
    /// public keys (the default), or their structure only (`pushsim serve --signatures structure-only`).
    public var signaturePolicy = SignaturePolicy.verify
    /// Sets ``signaturePolicy``.
    public func checkSignatures(_ policy: SignaturePolicy) { signaturePolicy = policy }
    /// Registers `key` for the service account `email`, as creating or uploading a key in the
    /// Google Cloud console does: added to the account's keys wherever it may send. An account no
    /// project knows gets the sending rights of the first project (the sample app's), as a new
    /// service account given the Firebase messaging role would.
    public func register(serviceAccountKey key: RSAPublicKey, for email: String) {
        let known = projects.indices.filter { projects[$0].serviceAccount == email }
        for index in known where !projects[index].serviceAccountKeys.contains(key) { projects[index].serviceAccountKeys.append(key) }
        guard known.isEmpty, let first = projects.first else { return }
        projects.append(FCMProject(projectID: first.projectID, projectNumber: first.projectNumber, serviceAccount: email, serviceAccountKey: key))
    }
    /// Injected faults, asked in order on every `messages:send` request; the first that hits wins.
    public var faults: [ServiceFault] = []
    /// How long a token may go without a sign of life before it expires (F-TOK: 270 days on
    /// Android); nil never expires tokens.
    public var tokenInactivityLimit: VirtualDuration? = .days(270)
    /// The state every notification touches: OAuth tokens, the random stream,
    /// faults, the message memo and pushes in flight.
    /// Unchecked for exclusivity in release builds only, for the reason given on `WorldHotState`;
    /// each part is reached through the forwarding property below it.
    private struct HotState {
        var accessTokens = AccessTokens()
        var random: SeededRandom
        var faultInterpreter: ServiceFaultInterpreter
        var messageMemo = FCMMessageMemo()
        var lastSendPath: (path: String, project: String)?
        var plainProjectID: String?
        var pushes = PendingPushes<Push>()
    }
    // The handles issued are a value of their own, declared as the hot state is: registering a
    // device calls back for a new handle, which draws from the random stream in `HotState`.
    #if DEBUG
    private var hot: HotState
    var issued = HandleRegistry()
    #else
    @exclusivity(unchecked) private var hot: HotState
    @exclusivity(unchecked) var issued = HandleRegistry()
    #endif
    /// The handles issued.
    package var tokens: HandleRegistry { issued }
    var accessTokens: AccessTokens { _read { yield hot.accessTokens } _modify { yield &hot.accessTokens } }
    var random: SeededRandom { _read { yield hot.random } _modify { yield &hot.random } }
    private var faultInterpreter: ServiceFaultInterpreter { _read { yield hot.faultInterpreter } _modify { yield &hot.faultInterpreter } }
    private var queues: [String: FCMOfflineQueue] = [:]   // by device
    /// The Firebase installation IDs apps named when they asked for tokens, and their tokens.
    var installations = FCMInstallations()
    /// Which tokens are subscribed to which topics, per project (`FCMTopicRegistry`).
    var topicRegistry = FCMTopicRegistry()
    /// The APNs device tokens iOS app instances bound their FCM tokens to, by FCM token (`FCMService+Relay.swift`).
    var apnsBindings: [String: FCMAPNsBinding] = [:]
    /// Per project number, key id and team id: the APNs provider token FCM signed with that key, the key, and when FCM signs a new one.
    var relayProviderTokens: [String: (jwt: String, key: APNsSigningKey, renewAt: VirtualTime)] = [:]
    /// The last good send body, so that the copies of one fan-out are parsed once.
    private var messageMemo: FCMMessageMemo { _read { yield hot.messageMemo } _modify { yield &hot.messageMemo } }
    /// The last good send path and the project it names.
    private var lastSendPath: (path: String, project: String)? { _read { yield hot.lastSendPath } _modify { yield &hot.lastSendPath } }
    /// The last project id found to need no JSON escape in a success body (a fan-out's copies all
    /// name the same project, which is then not scanned again for each).
    private var plainProjectID: String? { _read { yield hot.plainProjectID } _modify { yield &hot.plainProjectID } }
    /// Messages handed to devices, waiting for the device's answer.
    private var pushes: PendingPushes<Push> { _read { yield hot.pushes } _modify { yield &hot.pushes } }

    struct Push {
        var entry: FCMOfflineQueue.Entry
        var device: String
        /// Where the registry keeps the token, when the send looked it up (not for a message kept
        /// while the device was away).
        var place: HandlePlace?
    }

    /// Registers the service in `world` under ``name``, ``apiHost``, ``oauthHost``, ``instanceIDHost``,
    /// ``deviceHost`` and the retired GCM hosts.
    public init(world: World, projects: [FCMProject]) {
        self.projects = projects
        self.hot = HotState(random: world.randomStream(FCMService.name),
                            faultInterpreter: ServiceFaultInterpreter(world: world, service: FCMService.name))
        world.register(self, name: Self.name, aliases: [Self.apiHost, Self.oauthHost, Self.instanceIDHost, Self.deviceHost] + RetiredEndpoints.gcmHosts)
    }

    /// Retired legacy endpoints first (`RetiredEndpoints`), then Chrome's web push paths
    /// (`/fcm/send/<token>`, `/wp/<token>`) to the world's ``WebPushService`` when it has one, then
    /// by host: ``deviceHost`` to the device channel, ``oauthHost`` to the token endpoint,
    /// ``instanceIDHost`` to the Instance ID API, any other to `messages:send`.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        if RetiredEndpoints.isRetiredGoogle(request) {
            return RetiredEndpoints.answer(request, exchange: exchange, world: world, service: Self.name)
        }
        // Chrome's web push endpoints share the host (Citations §9.6): the Web Push service answers them.
        if request.authority == Self.apiHost, WebPushEndpoints.isChromePushPath(request.path),
           let webPush = world.host(named: WebPushService.name) as? WebPushService {
            return webPush.handle(request, exchange: exchange, world: world)
        }
        switch request.authority {
        case Self.deviceHost: handleDevice(request, exchange: exchange, world: world)
        case Self.oauthHost: handleTokenRequest(request, exchange: exchange, world: world)
        case Self.instanceIDHost: handleInstanceID(request, exchange: exchange, world: world)
        default: handleSend(request, exchange: exchange, world: world)
        }
    }

    /// Per device, sorted: a pending `onDeletedMessages()` notice, then each message still kept offline.
    public func leftovers(world: World) -> [Leftover] {
        queues.keys.sorted().flatMap { device in
            (queues[device]!.deletedNotice == nil ? [] : [Leftover("onDeletedMessages() pending for \(device)")])
                + queues[device]!.messages.map { Leftover("message \($0.name) kept for \(device), undelivered", pendingIDs: [$0.name]) }
        }
    }

    // MARK: OAuth

    /// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`; the JWT's `iss`
    /// names the service account, `scope` must include firebase.messaging or cloud-platform (F-DISC).
    ///
    /// The assertion must be signed with RS256 (RFC 7518 §3.3) by one of the service account's
    /// keys. Google answers 400 `{"error":"invalid_grant","error_description":"Invalid JWT
    /// Signature."}` when it is not, and the same when the `iss` names no account it knows
    /// (Citations §2.1: GCP-PY-10004, GAPI-147); PushSim gives that answer for a header whose `alg`
    /// is not RS256 too. Under ``SignaturePolicy/structureOnly`` the signature is not verified.
    private func handleTokenRequest(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let form = splitTarget("?" + request.bodyText).query
        func value(_ k: String) -> String? { form.first(where: { $0.0 == k })?.1 }
        func refuse(_ error: String, _ description: String) {
            world.respond(to: exchange, with: HTTPResponse(status: 400, headers: ["content-type": "application/json"],
                text: JSONValue.object([("error", .string(error)), ("error_description", .string(description))]).serialized()))
        }
        guard value("grant_type") == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return refuse("unsupported_grant_type", "Invalid grant_type: \(value("grant_type") ?? "")")
        }
        guard let assertion = value("assertion"), let jwt = JSONWebToken.parse(assertion),
              let iss = jwt.claims["iss"]?.stringValue, let project = projects.first(where: { $0.serviceAccount == iss }),
              (signaturePolicy == .structureOnly ? jwt.hasSignatureShape(algorithm: "RS256")
                : Self.isSigned(jwt, byOneOf: project.serviceAccountKeys)) else {
            return refuse("invalid_grant", "Invalid JWT Signature.")
        }
        let scopes = (jwt.claims["scope"]?.stringValue ?? "").split(separator: " ")
        guard scopes.contains("https://www.googleapis.com/auth/firebase.messaging")
                || scopes.contains("https://www.googleapis.com/auth/cloud-platform") else {
            return refuse("invalid_scope", "Invalid OAuth scope or ID token audience provided.")
        }
        guard let iat = jwt.claims["iat"]?.int64Value, let exp = jwt.claims["exp"]?.int64Value,
              exp > iat, !exp.subtractingReportingOverflow(iat).overflow, exp - iat <= 3_600,
              world.unixSeconds(judging: exchange.caller) < exp else {
            return refuse("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.")
        }
        let token = "ya29." + random.string(count: 40, from: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        accessTokens.issue(token, to: project.serviceAccount, expiresAt: world.now + .seconds(3_599))
        world.record(layer: "fcm", host: Self.name, kind: .fcmAccessTokenIssued, [.account: .string(iss)])
        world.respond(to: exchange, with: HTTPResponse(status: 200, headers: ["content-type": "application/json"],
            text: #"{"access_token":"\#(token)","expires_in":3599,"token_type":"Bearer"}"#))
    }

    /// Whether `jwt` is an RS256 token signed by one of `keys`.
    private static func isSigned(_ jwt: JSONWebToken, byOneOf keys: [RSAPublicKey]) -> Bool {
        jwt.header["alg"]?.stringValue == "RS256" && keys.contains { jwt.hasValidRS256Signature(by: $0) }
    }

    // MARK: Send

    private func handleSend(_ request: HTTPRequest, exchange: Exchange, world: World) {
        var reply = Reply(exchange: exchange)
        func fail(_ e: FCMError) {
            world.record(layer: "fcm", host: Self.name, kind: .fcmRejected, [.status: .int(e.httpStatus), .error: .string(e.errorCode ?? e.status)])
            reply.send(e.response, world: world)
        }
        if let fault = faultInterpreter.match(&faults, at: world.now), let e = apply(fault, to: &reply, world: world) { return fail(e) }
        // "/v1/projects/<p>/messages:send"
        guard request.method == "POST", let projectName = project(inSendPath: request.path) else {
            return fail(FCMError(404, "NOT_FOUND", "The requested URL \(request.path) was not found on this server.", errorCode: nil))
        }
        // OAuth 2 bearer token (F-SEND): missing, unknown or expired → 401 UNAUTHENTICATED (F-ERRDOC, PYFCM-334).
        guard let checked = accessTokens.check(authorization: request.headers["authorization"], now: world.now) else {
            return fail(.missingCredentials)
        }
        guard case .valid(let account) = checked else { return fail(checked == .expired ? .expiredCredentials : .invalidCredentials) }
        guard let project = projects.first(where: { ($0.projectID == projectName || $0.projectNumber == projectName) && $0.serviceAccount == account })
        else { return fail(.permissionDenied(project: projectName)) }
        let message: FCMMessage
        switch messageMemo.parse(body: request.body) {
        case .failure(let e): return fail(e)
        case .success(let m): message = m
        }
        let token: String, place: HandlePlace
        switch message.target {
        case .topic(let topic):
            // The bare name only: the v1 API takes no `/topics/` prefix (FA-NODE-203).
            guard FCMTopicName.isValid(topic) else { return fail(.invalidTopic) }
            return fanOut(message, to: .topic(topic), project: project, reply: reply, world: world)
        case .condition(let text):
            guard case .success(let condition) = FCMCondition.parse(text) else { return fail(.invalidCondition) }
            return fanOut(message, to: .condition(condition), project: project, reply: reply, world: world)
        case .token(let t):
            guard let p = issued.place(of: t) else {
                return fail(looksLikeFCMToken(t) ? .unregistered
                            : .invalidArgument("The registration token is not a valid FCM registration token", field: "message.token"))
            }
            (token, place) = (t, p)
        case .fid(let fid):
            // A FID FCM does not know is UNREGISTERED whatever its shape: Google's own integration
            // test sends `fid: "not-a-fid"` and expects UnregisteredError (FA-PY-FID).
            guard let t = installations.token(of: fid), let p = issued.place(of: t) else { return fail(.unregistered) }
            (token, place) = (t, p)
        }
        let record = issued.recordReadInPlace(at: place)
        if !faults.isEmpty, let fault = faultInterpreter.match(&faults, at: world.now,
                                                               target: FaultTarget(token: token, device: record.device, app: record.app,
                                                                                   installation: installations.fid(of: token))),
           let e = apply(fault, to: &reply, world: world) {
            return fail(e)
        }
        guard record.environment == project.projectNumber else { return fail(.senderIDMismatch) }
        if record.invalidatedAt != nil { return fail(.unregistered) }
        // No sign of life for 270 days: the token expired (§2.6, F-TOK).
        if let limit = tokenInactivityLimit, world.now >= record.lastActiveAt + limit {
            issued.invalidate(token, at: record.lastActiveAt + limit)
            world.record(layer: "fcm", host: Self.name, kind: .fcmTokenExpired,
                         [.token: .string(shortToken(token)), .device: .string(record.device), .inactiveSince: .string(record.lastActiveAt.description)])
            dropTopics(of: token, why: "the token expired", world: world)
            return fail(.unregistered)
        }
        // An iOS app instance's token: FCM relays the send to APNs (FCMService+Relay.swift); a dry run stays in FCM.
        if !message.validateOnly, let binding = apnsBindings[token] {
            return acceptRelayed(message, token: token, binding: binding, device: record.device, project: project, reply: reply, world: world)
        }
        accept(message, project: project, record: record, place: place, token: token, reply: reply, world: world)
    }

    /// Traces an injected fault and returns the error it answers with, or nil when the send goes
    /// on (a `.slow` fault delays the answer, a `.lostAnswer` loses it).
    private func apply(_ fault: ServiceFault, to reply: inout Reply, world: World) -> FCMError? {
        let e = FCMError.injected(fault.effect)
        reply.take(fault, service: Self.name, status: e?.httpStatus, reason: e.map { $0.errorCode ?? $0.status } ?? "", world: world)
        return e
    }

    private func accept(_ message: FCMMessage, project: FCMProject, record: HandleRecord?, place: HandlePlace? = nil, token: String = "",
                        reply: Reply, world: World) {
        // Success body: {"name":"projects/<id>/messages/<message id>"} (F-SEND).
        let (name, body) = message.validateOnly ? FCMSuccessBody.plain(project: project.projectID, messageID: "fake_message_id")
            : successBody(project: project.projectID, milliseconds: world.anchor.unixMilliseconds(world.now))
        world.record(layer: "fcm", host: Self.name, kind: .fcmAccepted,
                     [Self.messageIDField: .string(name), .device: .string(record?.device ?? "-"), .validateOnly: .bool(message.validateOnly)])
        reply.send(HTTPResponse(status: 200, headers: Self.jsonContentType, body: body), world: world)
        guard !message.validateOnly, let record else { return }
        deliver(entry(name: name, message: message, token: token, app: record.app, world: world), device: record.device, place: place, world: world)
    }

    /// What FCM keeps of one copy of a message for one token: it expires after the message's TTL
    /// (default and most: 4 weeks, F-MSG).
    func entry(name: String, message: FCMMessage, token: String, app: String, world: World) -> FCMOfflineQueue.Entry {
        FCMOfflineQueue.Entry(name: name, message: message, token: token, app: app,
                              expiresAt: world.now + .seconds(message.ttlSeconds ?? FCMMessage.maxTTLSeconds), correlation: world.correlation)
    }

    /// The message name for a new message id, `0:<Unix ms>%<16 hex digits>` (the shape of real
    /// FCM ids), and the success body naming it.
    func successBody(project: String, milliseconds: Int64) -> (name: String, body: [UInt8]) {
        if plainProjectID != project {
            guard !project.needsJSONEscape else {
                return FCMSuccessBody.plain(project: project, messageID: String.concatenating("0:", String(milliseconds), "%", random.hex(bytes: 8)))
            }
            plainProjectID = project
        }
        return FCMSuccessBodyFastPath.write(project: project, milliseconds: milliseconds, random: &random)
    }

    static let jsonContentType: HTTPHeaders = ["content-type": "application/json; charset=UTF-8"]

    /// ``project(inSendPath:)-swift.type.method``, remembering the last send path (the copies of
    /// a fan-out all use the same one, so the comparison is one of identical strings).
    private func project(inSendPath path: String) -> String? {
        if let last = lastSendPath, last.path == path { return last.project }
        let project = Self.project(inSendPath: path)
        if let project { lastSendPath = (path, project) }
        return project
    }

    /// The `<p>` of `/v1/projects/<p>/messages:send`, or nil for any other path.
    static func project(inSendPath path: String) -> String? {
        let prefix = "/v1/projects/", suffix = "/messages:send"
        guard path.hasBytePrefix(prefix), path.hasByteSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count else { return nil }
        let project = String(path.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count))!
        return project.containsByte(where: { $0 == UInt8(ascii: "/") }) ? nil : project
    }

    func deliver(_ entry: FCMOfflineQueue.Entry, device: String, place: HandlePlace? = nil, world: World) {
        world.pushToDevice(service: Self.name, device: device, handle: entry.token, app: entry.app, message: entry.name, headers: [],
                           payload: entry.message.devicePayload, replyTo: self, tag: pushes.add(Push(entry: entry, device: device, place: place)))
    }

    /// A device answered a message (or could not be reached).
    public func receive(_ result: CallResult, tag: UInt64, world: World) {
        let push = pushes.take(tag)
        let (entry, device) = (push.entry, push.device)
        switch DeviceAnswer(result) {
        case .shown:
            if let place = push.place { issued.touch(at: place, time: world.now) } else { issued.touch(entry.token, at: world.now) }
            world.record(layer: "fcm", host: Self.name, kind: .fcmDelivered, [Self.messageIDField: .string(entry.name), .device: .string(device)])
        case .handleGone:
            issued.invalidate(entry.token, at: world.now)
            world.record(layer: "fcm", host: Self.name, kind: .fcmTokenInvalidated,
                         [.token: .string(shortToken(entry.token)), .device: .string(device), .why: "app no longer installed for this token"])
            dropTopics(of: entry.token, why: "the token is dead", world: world)
        case .unreachable:
            if entry.message.ttlSeconds == 0 {
                world.record(layer: "fcm", host: Self.name, kind: .notificationDropped,
                             [Self.messageIDField: .string(entry.name), .reason: "device unreachable and ttl is 0"])
                return
            }
            var queue = queues[device] ?? FCMOfflineQueue()
            for event in queue.add(entry) {
                world.record(layer: "fcm", host: Self.name, kind: .notificationDropped, [Self.messageIDField: .string(event.name), .reason: .string(event.reason)])
            }
            queues[device] = queue
            world.record(layer: "fcm", host: Self.name, kind: .fcmStored, [Self.messageIDField: .string(entry.name), .device: .string(device), .pending: .int(queue.messages.count)])
        }
    }

    /// Tells the app that FCM deleted its stored messages: `{"message_type":"deleted_messages"}`,
    /// the message the Android SDK turns into `onDeletedMessages()` (F-COLL; `message_type` is a
    /// key FCM reserves, F-MSG). Kept for the next connection if the device is unreachable again.
    private func tellDeleted(_ notice: FCMOfflineQueue.DeletedNotice, device: String, world: World) {
        world.inCorrelation(notice.correlation) {
            world.pushToDevice(service: Self.name, device: device, handle: notice.token, app: notice.app,
                               headers: [(DeviceChannel.eventHeader, "deleted_messages")],
                               payload: Array(#"{"message_type":"deleted_messages"}"#.utf8)) { [self] status in
                switch status {
                case 200?:
                    world.record(layer: "fcm", host: Self.name, kind: .fcmDeletedMessagesSent, [.device: .string(device)])
                case nil:
                    var queue = queues[device] ?? FCMOfflineQueue()
                    if queue.deletedNotice == nil { queue.deletedNotice = notice }
                    queues[device] = queue
                default:
                    world.record(layer: "fcm", host: Self.name, kind: .notificationDropped,
                                 [Self.messageIDField: "deleted_messages", .reason: "the app that should hear of the deleted messages is gone"])
                }
            }
        }
    }

    // MARK: Device side

    private func handleDevice(_ request: HTTPRequest, exchange: Exchange, world: World) {
        switch request.path {
        case DeviceChannel.registerPath:
            // `environment` carries the sender id (project number) the app registers with.
            let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            let answered = issued.answerRegister(request, exchange: exchange, world: world, service: Self.name, issuedKind: .fcmTokenIssued,
                                                 inactivityLimit: tokenInactivityLimit,
                                                 make: { random.string(count: 22, from: alphabet) + ":APA91b" + random.string(count: 134, from: alphabet) })
            if let (ask, token) = answered, let fid = ask.installation {
                // A new token for the same installation replaces the old one, which leaves its topics.
                if let old = installations.token(of: fid), old != token { dropTopics(of: old, why: "the installation got a new token", world: world) }
                installations.answered(token, to: fid)
            }
            // The Firebase iOS SDK names the app's APNs token: FCM relays sends for this token to it (FIOS-TOKEN).
            if let (ask, token) = answered, let tuple = ask.apnsToken, let binding = FCMAPNsBinding(tupleString: tuple, bundleID: ask.app) {
                apnsBindings[token] = binding
            }
        case DeviceChannel.topicsPath:
            answerDeviceTopicRequest(request, exchange: exchange, world: world)
        case DeviceChannel.connectPath:
            world.respond(to: exchange, with: HTTPResponse(status: 200))
            guard var queue = queues.removeValue(forKey: exchange.caller) else { return }
            let (notice, entries) = queue.drain()
            if let notice { tellDeleted(notice, device: exchange.caller, world: world) }
            for entry in entries {
                world.inCorrelation(entry.correlation) {
                    if entry.expiresAt <= world.now {
                        world.record(layer: "fcm", host: Self.name, kind: .notificationDropped, [Self.messageIDField: .string(entry.name), .reason: "ttl passed while the device was offline"])
                    } else {
                        deliver(entry, device: exchange.caller, world: world)
                    }
                }
            }
        default:
            world.respond(to: exchange, with: HTTPResponse(status: 404))
        }
    }
}

/// `<prefix>:APA91b<rest>` in base64url characters: the shape of FCM registration tokens.
func looksLikeFCMToken(_ t: String) -> Bool {
    guard let colon = t.firstIndex(of: ":") else { return false }
    let ok: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    let head = t[..<colon], tail = t[t.index(after: colon)...]
    return !head.isEmpty && head.allSatisfy(ok) && tail.hasPrefix("APA91b") && tail.allSatisfy(ok)
}
