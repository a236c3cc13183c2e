import PushSimKernel
import PushSimCrypto
import PushSimNetwork

/// Settings of the fake APNs.
public struct APNsConfiguration: Sendable {
    /// Keys allowed to sign provider tokens.
    public var keys: [APNsSigningKey]
    /// How long after APNs learns that an app is gone from a device it starts answering 410.
    /// Apple delays and fuzzes this on purpose (§1.9, A-FORUM-670868, -745902); default 0.
    public var unregisteredReportDelay: VirtualDuration = .zero
    /// The longest APNs keeps a notification for an offline device. Apple gives no figure;
    /// 30 days is the commonly cited one (§1.9, unconfirmed).
    public var maxStorage: VirtualDuration = .days(30)
    /// How many pushes one device token may get before APNs answers 429 `TooManyRequests`
    /// ("too many requests to the same device token in a short time", §1.7, A-RESP, A-FORUM-806522).
    /// Default nil (off): Apple publishes no number, so any default would be invented, and
    /// scenarios that do not ask for the limit keep their behaviour. Only accepted pushes count.
    public var perTokenRateLimit: RateLimit?
    /// Whether a background push (`apns-push-type: background`) without an `apns-priority` header
    /// is accepted as priority 5. Default false: it is refused with 400 `BadPriority`.
    ///
    /// Apple's "Sending notification requests to APNs"
    /// (https://developer.apple.com/documentation/usernotifications/setting_up_a_remote_notification_server/sending_notification_requests_to_apns)
    /// says that when `apns-priority` is omitted APNs sets the priority to 10, and, in its
    /// `apns-push-type` table for `background`, to always use priority 5 because priority 10 is an
    /// error (the table's words as quoted by client libraries that copy it, e.g. APNSwift and
    /// sideshow/apns2); its error table gives 400 `BadPriority` for a bad `apns-priority` value,
    /// the only reason that fits. "Pushing background updates to your App"
    /// (https://developer.apple.com/documentation/usernotifications/setting_up_a_remote_notification_server/pushing_background_updates_to_your_app)
    /// says the request should carry `apns-push-type: background` and `apns-priority: 5`.
    /// Apple never says in so many words what happens to a background push that leaves the header
    /// out; read together the pages say it gets the default 10 and is refused, which is the
    /// default here. `true` restores the leniency PushSim had before (taken as 5, accepted), for
    /// backends that rely on it. Priority 1 on a background push is accepted: Apple names only 10
    /// as an error.
    public var acceptsBackgroundPushWithoutPriority = false
    /// Bundle ids whose App ID has the Broadcast capability off (the Push Notifications
    /// capability's broadcast option in the developer account): their channel management calls
    /// and broadcasts are refused with 400 `FeatureNotEnabled` (§1.20, A-BCERR). Default empty:
    /// every app may broadcast, as the world's app is set up to.
    public var appsWithoutBroadcast: Set<String> = []

    /// Defaults: 410 reported at once, no per-token rate limit; ``maxStorage`` (30 days) and
    /// ``acceptsBackgroundPushWithoutPriority`` (false) start at their defaults.
    public init(keys: [APNsSigningKey], unregisteredReportDelay: VirtualDuration = .zero, perTokenRateLimit: RateLimit? = nil) {
        self.keys = keys
        self.unregisteredReportDelay = unregisteredReportDelay
        self.perTokenRateLimit = perTokenRateLimit
    }
}

/// The fake Apple Push Notification service: the HTTP/2 provider API (`POST /3/device/<token>`
/// on `api.push.apple.com` and `api.sandbox.push.apple.com`) and the device side (`DeviceChannel`
/// on `courier.push.apple.com`).
///
/// Delivery imitates §1.9 (A-SEND): a notification for a device that cannot be reached is kept,
/// one per app per device, the newest replacing the older; `apns-expiration: 0` means one attempt
/// only; nothing is kept past its expiration or ``APNsConfiguration/maxStorage``. A token whose app
/// is gone keeps being accepted with 200 until a delivery attempt finds the app missing; from then
/// (plus ``APNsConfiguration/unregisteredReportDelay``) sends get 410 `Unregistered` with that
/// moment as `timestamp` in milliseconds (§1.8, A-RESP).
///
/// Live Activity tokens (push-to-start and update) are issued and answered by the rules of
/// `LiveActivity/APNsService+LiveActivity.swift` (§1.14–§1.16).
///
/// Optional per-token rate limit (``APNsConfiguration/perTokenRateLimit``, off by default): 429
/// `TooManyRequests` (§1.7, A-RESP). Injected ``faults`` (see `ServiceFault`) apply to the
/// provider API only: 503 `ServiceUnavailable`, 429 `TooManyRequests`, 500 `InternalServerError`,
/// or a late answer.
public final class APNsService: FakePushService, CallReceiver {
    /// The push service it plays (`PushServiceDescriptor.apns`), which gives its names and hosts.
    public static let descriptor = PushServiceDescriptor.apns
    /// `apns`: the host name in the world and the service's name in traces.
    public static let name = descriptor.name
    /// The trace field of its message ids (``PushServiceDescriptor/messageIDField``).
    static let messageIDField = PushServiceDescriptor.apns.messageIDField
    /// `api.push.apple.com`: accepts only tokens issued in the production environment (§1.5).
    public static let productionHost = PushServiceDescriptor.apns.providerHosts[0]
    /// `api.sandbox.push.apple.com`: accepts only sandbox tokens (§1.5).
    public static let sandboxHost = PushServiceDescriptor.apns.providerHosts[1]
    /// Older development alias still used by some clients (§1.1, APNSWIFT).
    public static let developmentAlias = "api.development.push.apple.com"
    /// The provider hosts and the development alias (``FakePushService/publicHosts``).
    public static var publicHosts: [String] {
        ([productionHost, sandboxHost, developmentAlias] + channelManagementHosts).map { $0.lowercased() }
    }
    /// `/3/device/…` and `/4/broadcasts/…` are the provider API (A-SEND, A-BCSEND), `/1/apps/…` the
    /// channel management API (A-BCMANAGE), served as production; the sandbox is reached through its `Host`.
    public static func loopbackHost(path: String, target: String) -> String? {
        if path.hasBytePrefix("/3/device/") || path.hasBytePrefix(BroadcastRequest.pathPrefix) { return productionHost }
        return path.hasBytePrefix(appsPathPrefix) ? channelManagementProductionHost : nil
    }
    /// A provider API request: `/3/device/<token>`, a broadcast (`/4/broadcasts/apps/…`) or a
    /// channel management request (`/1/apps/…`, §1.20).
    public static func isProviderSend(_ request: HTTPRequest) -> Bool {
        request.path.hasBytePrefix("/3/device/") || request.path.hasBytePrefix(BroadcastRequest.pathPrefix) || request.path.hasBytePrefix(appsPathPrefix)
    }
    /// `courier.push.apple.com`: where devices register for tokens and connect (`DeviceChannel`).
    public static let deviceHost = PushServiceDescriptor.apns.deviceHost

    /// Read on every request, so changes apply to the next one; ``APNsConfiguration/keys`` is read
    /// at init only (``register(_:)`` adds one later).
    public var configuration: APNsConfiguration
    /// Injected faults, asked in order on every provider-API request (never on the device channel);
    /// the first that hits wins. See `ServiceFault`.
    public var faults: [ServiceFault] = []
    /// The state every notification touches: provider tokens, the random stream,
    /// faults and pushes in flight.
    /// Unchecked for exclusivity in release builds only, for the reason given on `WorldHotState`;
    /// each part is reached through the forwarding property below it.
    private struct HotState {
        var providerTokens: APNsProviderTokens
        var random: SeededRandom
        var faultInterpreter: ServiceFaultInterpreter
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
    var providerTokens: APNsProviderTokens { _read { yield hot.providerTokens } _modify { yield &hot.providerTokens } }
    /// How provider tokens' ES256 signatures are checked: verified with the registered key's
    /// public key (the default), or their structure only (`pushsim serve --signatures structure-only`).
    public var signaturePolicy: SignaturePolicy {
        get { providerTokens.signaturePolicy }
        set { providerTokens.signaturePolicy = newValue }
    }
    /// Sets ``signaturePolicy``.
    public func checkSignatures(_ policy: SignaturePolicy) { signaturePolicy = policy }
    /// Registers `key` as Apple does when a developer creates a key: from now on provider tokens
    /// naming its key id verify with its public key. A key already registered under the same key
    /// id is replaced (key ids are unique at Apple).
    public func register(_ key: APNsSigningKey) {
        configuration.keys.removeAll { $0.keyID == key.keyID }
        configuration.keys.append(key)
        providerTokens.keys = configuration.keys
    }
    var random: SeededRandom { _read { yield hot.random } _modify { yield &hot.random } }
    private var faultInterpreter: ServiceFaultInterpreter { _read { yield hot.faultInterpreter } _modify { yield &hot.faultInterpreter } }
    /// Live Activity tokens issued, push-to-start and update (`LiveActivity/`, §1.14–§1.16).
    package var liveActivityTokens = APNsLiveActivityTokens()
    /// Accepted pushes per token, for ``APNsConfiguration/perTokenRateLimit`` (looked up only).
    private var pushesPerToken: [String: SlidingWindowCounter] = [:]
    /// Broadcast channels, their subscribers and the broadcasts kept for offline devices (§1.20).
    var broadcast = BroadcastState()
    /// Kept notifications by "device|app": at most one per app per device ("device|app|token" for
    /// a Live Activity token's, kept apart from the app's).
    private var stored: [String: Stored] = [:]
    /// The `apns-unique-id` of each push accepted in the development environment, in order.
    private var uniqueIDs: SeededRandom
    /// Notifications handed to devices, waiting for the device's answer.
    private var pushes: PendingPushes<Push> { _read { yield hot.pushes } _modify { yield &hot.pushes } }

    struct Push {
        var notification: APNsNotification
        var record: HandleRecord
    }

    struct Stored {
        var notification: APNsNotification
        /// The causal chain of the send, kept so the later delivery is traced as part of it.
        var correlation: String
        var device: String
        var app: String
        var storedAt: VirtualTime
        var expiresAt: VirtualTime
    }

    /// Registers the service in `world` under ``name``, the provider hosts, ``developmentAlias`` and ``deviceHost``.
    public init(world: World, configuration: APNsConfiguration) {
        self.configuration = configuration
        uniqueIDs = world.randomStream(APNsService.name + "/unique-id")
        self.hot = HotState(providerTokens: APNsProviderTokens(keys: configuration.keys),
                            random: world.randomStream(APNsService.name),
                            faultInterpreter: ServiceFaultInterpreter(world: world, service: APNsService.name))
        world.register(self, name: APNsService.name,
                       aliases: [Self.productionHost, Self.sandboxHost, Self.developmentAlias, Self.deviceHost] + Self.channelManagementHosts)
    }

    /// Requests to ``deviceHost`` go to the device channel, to the channel management hosts to the
    /// channel management API (§1.20); all others to the provider API, where ``productionHost``
    /// means the production environment and any other name the sandbox.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        if request.authority == Self.deviceHost {
            handleDevice(request, exchange: exchange, world: world)
        } else if request.authority == Self.channelManagementProductionHost || request.authority == Self.channelManagementSandboxHost {
            handleChannelManagement(request, exchange: exchange, world: world)
        } else {
            handleProvider(request, exchange: exchange, world: world)
        }
    }

    /// One line per notification still kept for an unreachable device, sorted by device and app,
    /// then one per broadcast kept for one (§1.20).
    public func leftovers(world: World) -> [Leftover] {
        stored.keys.sorted().map { key in
            let s = stored[key]!
            return Leftover("notification \(s.notification.apnsID) kept for \(s.device) (\(s.app)) since \(s.storedAt), undelivered",
                            pendingIDs: [s.notification.apnsID])
        } + broadcastLeftovers()
    }

    // MARK: Provider API

    private func handleProvider(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let environment = request.authority == Self.productionHost ? "production" : "sandbox"
        // Drawn before anything else, so that the apns stream moves the same whether or not a fault hits.
        let fallbackID = random.uuidString()
        var reply = Reply(exchange: exchange)
        if let rejection = serviceFault(&reply, world: world) {
            return rejectProvider(rejection, request: request, fallbackID: fallbackID, reply: reply, world: world)
        }
        process(request, environment: environment, fallbackID: fallbackID, reply: reply, world: world)
    }

    /// A service-wide injected fault that hits this request now: the rejection it answers with,
    /// or nil when the request goes on (perhaps with its answer held by `reply`).
    func serviceFault(_ reply: inout Reply, world: World) -> APNsRejection? {
        guard !faults.isEmpty, let fault = faultInterpreter.match(&faults, at: world.now) else { return nil }
        return apply(fault, to: &reply, world: world)
    }

    /// Rejects a provider request before its kind's own checks: a broadcast's answer names the
    /// request in `apns-request-id` (A-BCSEND), a send's in `apns-id` (A-RESP).
    private func rejectProvider(_ rejection: APNsRejection, request: HTTPRequest, fallbackID: String, reply: Reply, world: World) {
        guard request.path.hasBytePrefix(BroadcastRequest.pathPrefix) else {
            return reject(rejection, id: request.headers["apns-id"] ?? fallbackID, reply: reply, world: world)
        }
        world.record(layer: "apns", host: Self.name, kind: .apnsRejected, [.status: .int(rejection.status), .reason: .string(rejection.reason)])
        reply.send(rejection.response(requestID: request.headers["apns-request-id"] ?? fallbackID), world: world)
    }

    /// Traces an injected fault and returns the rejection it answers with, or nil when the request
    /// goes on (a `.slow` fault delays the answer, a `.lostAnswer` loses it).
    private func apply(_ fault: ServiceFault, to reply: inout Reply, world: World) -> APNsRejection? {
        let rejection = APNsRejection.injected(fault, anchor: world.anchor)
        reply.take(fault, service: Self.name, status: rejection?.status, reason: rejection?.reason ?? "", world: world)
        return rejection
    }

    /// An injected fault aimed at this send's token, device or app: the rejection it answers
    /// with, or nil when the send goes on (a device token's and a Live Activity token's alike).
    func targetedFault(for notification: APNsNotification, record: HandleRecord, reply: inout Reply, world: World) -> APNsRejection? {
        guard !faults.isEmpty, let fault = faultInterpreter.match(&faults, at: world.now,
                                                                  target: FaultTarget(token: notification.token, device: record.device, app: record.app))
        else { return nil }
        return apply(fault, to: &reply, world: world)
    }

    /// Checks and accepts (or rejects) a provider request that no service-wide fault stopped.
    private func process(_ request: HTTPRequest, environment: String, fallbackID: String, reply: Reply, world: World) {
        var reply = reply
        if let rejection = providerTokens.check(request.headers["authorization"], caller: reply.exchange.caller,
                                                now: world.now, stampClock: world.unixSeconds(judging: reply.exchange.caller)) {
            return rejectProvider(rejection, request: request, fallbackID: fallbackID, reply: reply, world: world)
        }
        if request.path.hasBytePrefix(BroadcastRequest.pathPrefix) {
            return processBroadcast(request, environment: environment, requestID: request.headers["apns-request-id"] ?? fallbackID,
                                    reply: reply, world: world)
        }
        let notification: APNsNotification
        switch APNsRequestCheck.check(request, apnsID: fallbackID, backgroundWithoutPriorityIs5: configuration.acceptsBackgroundPushWithoutPriority) {
        case .failure(let rejection): return reject(rejection, id: request.headers["apns-id"] ?? fallbackID, reply: reply, world: world)
        case .success(let n): notification = n
        }
        // A token from the other environment is unknown here: BadDeviceToken (§1.5, A-RESP, A-FORUM-807380).
        guard let record = issued.recordReadInPlace(notification.token), record.environment == environment else {
            // A Live Activity token is answered by its own rules (LiveActivity/APNsService+LiveActivity.swift).
            if let target = liveActivityTokens[notification.token], target.environment == environment {
                return acceptLiveActivity(notification, target: target, reply: reply, world: world)
            }
            return reject(.badDeviceToken, id: notification.apnsID, reply: reply, world: world)
        }
        // A device token reaches the app, not its Live Activities: DeviceTokenNotForTopic (§1.15, A-FORUM-807380).
        if notification.pushType == .liveactivity {
            return reject(.deviceTokenNotForTopic, id: notification.apnsID, reply: reply, world: world)
        }
        if let rejection = targetedFault(for: notification, record: record, reply: &reply, world: world) {
            return reject(rejection, id: notification.apnsID, reply: reply, world: world)
        }
        let suffix = notification.pushType.topicSuffix ?? ""
        let topicMatches = notification.topic.utf8.count == record.app.utf8.count + suffix.utf8.count
            && notification.topic.hasBytePrefix(record.app) && notification.topic.hasByteSuffix(suffix)  // topic == app + suffix
        guard topicMatches || notification.pushType == .mdm else {
            return reject(.deviceTokenNotForTopic, id: notification.apnsID, reply: reply, world: world)
        }
        if let gone = record.invalidatedAt, world.now >= gone + configuration.unregisteredReportDelay {
            return reject(.unregistered(timestampMilliseconds: world.anchor.unixMilliseconds(gone)),
                          id: notification.apnsID, reply: reply, world: world)
        }
        accept(notification, record: record, reply: reply, world: world)
    }

    /// The last steps of every send that passed its checks: the per-token rate limit, then 200
    /// and delivery.
    func accept(_ notification: APNsNotification, record: HandleRecord, reply: Reply, world: World) {
        // Too many pushes to one token in a short time: 429 TooManyRequests (§1.7, A-RESP, A-FORUM-806522).
        if let limit = configuration.perTokenRateLimit {
            var counter = pushesPerToken[notification.token] ?? SlidingWindowCounter()
            let admitted = counter.admit(at: world.now, under: limit)
            pushesPerToken[notification.token] = counter
            guard admitted else { return reject(.tooManyRequests, id: notification.apnsID, reply: reply, world: world) }
        }
        world.record(layer: "apns", host: Self.name, kind: .apnsAccepted,
                     [Self.messageIDField: .string(notification.apnsID), .token: .string(shortToken(notification.token)), .device: .string(record.device)])
        // Success: 200, empty body, apns-id header (§1.8, A-RESP).
        var headers = HTTPHeaders("apns-id", notification.apnsID)
        // The development environment also names the push for the Push Notifications Console's
        // delivery log (§1.2, A-RESP), from a stream of its own so that no other draw moves.
        if record.environment == "sandbox" { headers.add("apns-unique-id", uniqueIDs.uuidString()) }
        reply.send(HTTPResponse(status: 200, headers: headers), world: world)
        deliver(notification, record: record, world: world)
    }

    func reject(_ rejection: APNsRejection, id: String, reply: Reply, world: World) {
        world.record(layer: "apns", host: Self.name, kind: .apnsRejected,
                     [.status: .int(rejection.status), .reason: .string(rejection.reason)])
        reply.send(rejection.response(apnsID: id), world: world)
    }

    // MARK: Delivery

    private func deliver(_ n: APNsNotification, record: HandleRecord, world: World) {
        let tag = pushes.add(Push(notification: n, record: record))
        world.pushToDevice(service: Self.name, device: record.device, handle: n.token, app: record.app, message: n.apnsID,
                           extraHeaders: n.collapseID == nil ? 3 : 4, { headers in
                               headers.add("apns-push-type", n.pushType.rawValue)
                               headers.add("apns-id", n.apnsID)
                               headers.add("apns-priority", Self.priorityText(n.priority))
                               if let c = n.collapseID { headers.add("apns-collapse-id", c) }
                           }, payload: n.payload, replyTo: self, tag: tag)
    }

    /// `10`, `5`, `1` without formatting a number per push.
    private static func priorityText(_ p: Int) -> String {
        switch p {
        case 10: return "10"
        case 5: return "5"
        case 1: return "1"
        default: return String(p)
        }
    }

    /// A device answered a push (or could not be reached).
    public func receive(_ result: CallResult, tag: UInt64, world: World) {
        let push = pushes.take(tag)
        let (n, record) = (push.notification, push.record)
        switch DeviceAnswer(result) {
        case .shown:
            world.record(layer: "apns", host: Self.name, kind: .apnsDelivered, [Self.messageIDField: .string(n.apnsID), .device: .string(record.device)])
        case .handleGone where liveActivityTokens[n.token] != nil:
            liveActivityTokens.expire(n.token, at: world.now)
            world.record(layer: "apns", host: Self.name, kind: .apnsTokenInvalidated,
                         [.token: .string(shortToken(n.token)), .device: .string(record.device), .why: "its Live Activity is gone from the device"])
        case .handleGone:
            issued.invalidate(n.token, at: world.now)
            world.record(layer: "apns", host: Self.name, kind: .apnsTokenInvalidated,
                         [.token: .string(shortToken(n.token)), .device: .string(record.device), .why: "app no longer installed for this token"])
        case .unreachable:
            keep(n, record: record, world: world)
        }
    }

    private func keep(_ n: APNsNotification, record: HandleRecord, world: World) {
        if n.expiration == 0 {
            world.record(layer: "apns", host: Self.name, kind: .notificationDropped,
                         [Self.messageIDField: .string(n.apnsID), .reason: "device unreachable and apns-expiration is 0 (single attempt)"])
            return
        }
        var expiresAt = world.now + configuration.maxStorage
        // Only an expiration inside the storage limit can shorten it (converting a far-future one would overflow).
        if let e = n.expiration, e <= world.anchor.unixSeconds(expiresAt) {
            expiresAt = min(expiresAt, world.anchor.virtualTime(unixSeconds: e))
        }
        if expiresAt <= world.now {
            world.record(layer: "apns", host: Self.name, kind: .notificationDropped,
                         [Self.messageIDField: .string(n.apnsID), .reason: "device unreachable and apns-expiration has passed"])
            return
        }
        // One kept per app per device; a Live Activity's pushes are kept per token, apart from the app's.
        let key = record.device + "|" + record.app + (n.pushType == .liveactivity ? "|" + n.token : "")
        if let older = stored[key] {
            world.record(layer: "apns", host: Self.name, kind: .notificationDropped,
                         [Self.messageIDField: .string(older.notification.apnsID), .reason: "replaced by a newer notification for the same app (APNs keeps one)"])
        }
        stored[key] = Stored(notification: n, correlation: world.correlation, device: record.device, app: record.app,
                             storedAt: world.now, expiresAt: expiresAt)
        world.record(layer: "apns", host: Self.name, kind: .apnsStored, [Self.messageIDField: .string(n.apnsID), .device: .string(record.device)])
    }

    // MARK: Device side

    private func handleDevice(_ request: HTTPRequest, exchange: Exchange, world: World) {
        switch request.path {
        case DeviceChannel.registerPath:
            // A classic 32-byte token, 64 hex digits (§1.5).
            issued.answerRegister(request, exchange: exchange, world: world, service: Self.name, issuedKind: .apnsTokenIssued,
                                  make: { random.hex(bytes: 32) })
        case LiveActivityTokenRequest.path:
            answerLiveActivityToken(request, exchange: exchange, world: world)
        case DeviceChannel.connectPath:
            world.respond(to: exchange, with: HTTPResponse(status: 200))
            flush(device: exchange.caller, world: world)
            flushBroadcasts(device: exchange.caller, world: world)
        case DeviceChannel.broadcastChannelsPath:
            answerBroadcastSubscription(request, exchange: exchange, world: world)
        default:
            world.respond(to: exchange, with: HTTPResponse(status: 404))
        }
    }

    /// Sends what was kept for `device` now that it is connected again.
    private func flush(device: String, world: World) {
        for key in stored.keys.sorted() where stored[key]!.device == device {
            let s = stored.removeValue(forKey: key)!
            world.inCorrelation(s.correlation) {
                if s.expiresAt <= world.now {
                    world.record(layer: "apns", host: Self.name, kind: .notificationDropped,
                                 [Self.messageIDField: .string(s.notification.apnsID), .reason: "expired while the device was unreachable"])
                } else if let record = issued.recordReadInPlace(s.notification.token) ?? liveActivityTokens[s.notification.token]?.handleRecord {
                    deliver(s.notification, record: record, world: world)
                }
            }
        }
    }
}

