import PushSimKernel
import PushSimNetwork

/// A Windows app registered for push: its Package SID and client secret (W-OVR).
public struct WNSApp: Sendable, Equatable {
    /// `ms-app://S-1-15-2-…`
    public var packageSID: String
    /// The client secret the Live token endpoint checks as `client_secret`.
    public var secret: String
    /// The package family the device-side app identifies itself with.
    public var packageFamily: String
    /// An app for ``WNSService/apps``.
    public init(packageSID: String, secret: String, packageFamily: String) {
        self.packageSID = packageSID
        self.secret = secret
        self.packageFamily = packageFamily
    }
}

/// The fake Windows Push Notification Services: the Live token endpoint
/// (`POST /accesstoken.srf` on `login.live.com`, 24-hour tokens, §3.1 W-OVR), channel URIs on
/// `cloud.notify.windows.com` that expire after 30 days (§3.2), notification requests checked
/// per §3.3–§3.4 (W-HDR), and the device side (`DeviceChannel` on `client.wns.windows.com`).
///
/// Offline caching per §3.6 (W-OVR): toasts are dropped (answered `X-WNS-Status: dropped`, see
/// ``offlineToasts``), tile and badge keep the last one per channel, raw only with
/// `X-WNS-Cache-Policy: cache`. A cached notification is not delivered
/// once its `X-WNS-TTL` (seconds, W-HDR) has passed; tiles and badges without a TTL expire
/// ``tileAndBadgeExpiry`` (3 days) after they were sent (W-OVR). Injected ``faults`` (see
/// `ServiceFault`) apply to notification requests only, not to the Live token endpoint.
public final class WNSService: FakePushService, CallReceiver {
    /// The push service it plays (`PushServiceDescriptor.wns`), which gives its names and hosts.
    public static let descriptor = PushServiceDescriptor.wns
    /// `wns`: the host name in the world and the service's name in traces.
    public static let name = descriptor.name
    /// The trace field of its message ids (``PushServiceDescriptor/messageIDField``).
    static let messageIDField = PushServiceDescriptor.wns.messageIDField
    /// `cloud.notify.windows.com`: the host of the channel URIs notifications are posted to.
    public static let channelHost = PushServiceDescriptor.wns.providerHosts[0]
    /// The Live token endpoint, where an app's Package SID and secret are exchanged for an access token (§3.1, W-OVR).
    public static let loginHost = "login.live.com"
    /// The channel host and the Live token endpoint (``FakePushService/publicHosts``).
    public static var publicHosts: [String] { [channelHost, loginHost].map { $0.lowercased() } }
    /// `/accesstoken.srf` is the Live token endpoint; `/?token=…` (or `&token=`) a channel URI.
    public static func loopbackHost(path: String, target: String) -> String? {
        if path == "/accesstoken.srf" { return loginHost }
        if path == "/", target.hasBytePrefix("/?token=") || target.byteOffset(of: "&token=") != nil { return channelHost }
        return nil
    }
    /// A request to the channel host (`cloud.notify.windows.com`): a POST to a channel URI.
    public static func isProviderSend(_ request: HTTPRequest) -> Bool { descriptor.providerHosts.contains(request.authority) }
    /// Nothing to check: WNS token requests carry a client secret, not a signature.
    public func checkSignatures(_ policy: SignaturePolicy) {}
    /// `client.wns.windows.com`: where devices register for channels and connect (`DeviceChannel`).
    public static let deviceHost = PushServiceDescriptor.wns.deviceHost
    /// Channel lifetime: 30 days (W-OVR).
    public static let channelLifetime = VirtualDuration.days(30)
    /// How long a tile or badge notification lasts by default: 3 days (W-OVR); `X-WNS-TTL` overrides it.
    public static let tileAndBadgeExpiry = VirtualDuration.days(3)

    /// The registered apps; read on every token and notification request.
    public var apps: [WNSApp]
    /// What WNS does with a toast for a device that is offline when the toast arrives.
    public enum OfflineToastPolicy: Sendable, Equatable {
        /// Dropped at once, never delivered (the default).
        case drop
        /// The last one kept per channel and delivered when the device reconnects (unless its
        /// `X-WNS-TTL` has passed), as tiles are.
        case keepLast
    }
    /// What happens to a toast for an offline device. The answer's `X-WNS-Status` is `dropped`
    /// either way; this decides only whether the toast is kept for later.
    ///
    /// Microsoft's pages disagree:
    /// - "Push notification service request and response headers"
    ///   (https://learn.microsoft.com/en-us/windows/apps/design/shell/tiles-and-notifications/push-request-response-headers):
    ///   `X-WNS-Status: dropped` means the notification was dropped on purpose, and toasts are also
    ///   dropped when the device is offline; `X-WNS-Cache-Policy` applies to tile, badge and raw only.
    /// - "Windows Push Notification Services (WNS) overview"
    ///   (https://learn.microsoft.com/en-us/windows/apps/design/shell/tiles-and-notifications/windows-push-notification-services--wns--overview),
    ///   disagrees with itself across the versions of MicrosoftDocs/windows-dev-docs stored here (both
    ///   dated 09/28/2020): commit 213bdd7 says toasts are never stored when the device is offline
    ///   (up to five tiles, one badge, no raw); commit 9517e87, which rewords other notes too and
    ///   reads as the newer, says WNS stores one of each type (tile, badge, toast) per channel URI
    ///   for an offline device, and no raw.
    ///
    /// So the header follows the header reference (the only page that speaks of the header), and
    /// keeping is a setting whose default, ``OfflineToastPolicy/drop``, follows the header
    /// reference and overview 213bdd7; ``OfflineToastPolicy/keepLast`` models overview 9517e87.
    public var offlineToasts = OfflineToastPolicy.drop
    /// Injected faults, asked in order on every notification request; the first that hits wins.
    public var faults: [ServiceFault] = []
    /// The state every notification touches: the payload memo, access tokens, the random
    /// stream, faults and pushes in flight.
    /// Unchecked for exclusivity in release builds only, for the reason given on `WorldHotState`;
    /// each part is reached through the forwarding property below it.
    private struct HotState {
        var checkedPayloads = PayloadCheckMemo()
        var accessTokens = AccessTokens()
        var random: SeededRandom
        var faultInterpreter: ServiceFaultInterpreter
        var pushes = PendingPushes<Push>()
    }
    // The handles issued are a value of their own, declared as the hot state is: registering a
    // device calls back for a new handle, which draws from the random stream in `HotState`.
    #if DEBUG
    private var hot: HotState
    private var issued = HandleRegistry()
    #else
    @exclusivity(unchecked) private var hot: HotState
    @exclusivity(unchecked) private var issued = HandleRegistry()
    #endif
    /// The handles issued.
    package var channels: HandleRegistry { issued }
    /// The last payload found well-formed, so a fan-out of one payload is parsed once.
    private var checkedPayloads: PayloadCheckMemo { _read { yield hot.checkedPayloads } _modify { yield &hot.checkedPayloads } }   // keyed by the channel URI's token
    private var accessTokens: AccessTokens { _read { yield hot.accessTokens } _modify { yield &hot.accessTokens } }
    private var random: SeededRandom { _read { yield hot.random } _modify { yield &hot.random } }
    private var faultInterpreter: ServiceFaultInterpreter { _read { yield hot.faultInterpreter } _modify { yield &hot.faultInterpreter } }
    private var cache: [String: Cached] = [:]   // "token|type" → last cached notification
    /// Notifications handed to devices, waiting for the device's answer.
    private var pushes: PendingPushes<Push> { _read { yield hot.pushes } _modify { yield &hot.pushes } }

    struct Push {
        var notification: Cached
        var cachePolicy: String?
    }

    struct Cached {
        var type: WNSNotificationType
        var headers: [(String, String)]
        var payload: [UInt8]
        var messageID: String
        var device: String
        var token: String
        var app: String
        /// The causal chain of the send, kept so a later delivery is traced as part of it.
        var correlation: String
        /// When it may no longer be delivered: `X-WNS-TTL` after the send, else 3 days for tile
        /// and badge (W-HDR, W-OVR); nil for none.
        var expiresAt: VirtualTime?
        /// True when the expiry comes from `X-WNS-TTL`, for the drop reason.
        var hasTTL: Bool
    }

    /// Registers the service in `world` under ``name``, ``channelHost``, ``loginHost`` and ``deviceHost``.
    public init(world: World, apps: [WNSApp]) {
        self.apps = apps
        self.hot = HotState(random: world.randomStream(WNSService.name),
                            faultInterpreter: ServiceFaultInterpreter(world: world, service: WNSService.name))
        world.register(self, name: Self.name, aliases: [Self.channelHost, Self.loginHost, Self.deviceHost])
    }

    /// By host: ``loginHost`` to the token endpoint, ``deviceHost`` to the device channel, any other to
    /// the notification endpoint.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        switch request.authority {
        case Self.loginHost: handleLogin(request, exchange: exchange, world: world)
        case Self.deviceHost: handleDevice(request, exchange: exchange, world: world)
        default: handleNotification(request, exchange: exchange, world: world)
        }
    }

    /// One line per notification still cached for an offline device, sorted by channel and type.
    public func leftovers(world: World) -> [Leftover] {
        cache.keys.sorted().map {
            let c = cache[$0]!
            return Leftover("\(c.type.rawValue) \(c.messageID) cached for \(c.device), undelivered", pendingIDs: [c.messageID])
        }
    }

    // MARK: Access tokens

    private func handleLogin(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let form = splitTarget("?" + request.bodyText).query
        func value(_ k: String) -> String? { form.first(where: { $0.0 == k })?.1 }
        guard request.method == "POST", value("grant_type") == "client_credentials", value("scope") == "notify.windows.com",
              let id = value("client_id"), let app = apps.first(where: { $0.packageSID == id }), value("client_secret") == app.secret
        else {
            return world.respond(to: exchange, with: HTTPResponse(status: 400, headers: ["content-type": "application/json"],
                                                                  text: #"{"error":"invalid_client","error_description":"Invalid client id"}"#))
        }
        let token = "EgAcAQMAAAAALYAAY/c+Huwi3Fv4Ck10UrKNmtxRO6Njk2MgA=" + random.hex(bytes: 12)
        accessTokens.issue(token, to: app.packageSID, expiresAt: world.now + .seconds(86_400))
        world.respond(to: exchange, with: HTTPResponse(status: 200, headers: ["content-type": "application/json"],
            text: #"{"access_token":"\#(token)","token_type":"bearer","expires_in":86400}"#))
    }

    // MARK: Notifications

    private func handleNotification(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let messageID = random.hex(bytes: 8, uppercase: true)
        var reply = Reply(exchange: exchange)
        func fail(_ r: WNSRejection) {
            world.record(layer: "wns", host: Self.name, kind: .wnsRejected, [.status: .int(r.status), .error: .string(r.description)])
            reply.send(r.response(messageID: messageID), world: world)
        }
        /// Traces an injected fault; the rejection it answers with, or nil when the send goes on.
        func apply(_ fault: ServiceFault) -> WNSRejection? {
            let r = WNSRejection.injected(fault.effect)
            reply.take(fault, service: Self.name, status: r?.status, reason: r?.description ?? "", world: world)
            return r
        }
        if let fault = faultInterpreter.match(&faults, at: world.now), let r = apply(fault) { return fail(r) }
        // Access token first: 401 when missing, malformed or expired (W-HDR).
        guard case .valid(let sid)? = accessTokens.check(authorization: request.headers["Authorization"], now: world.now) else {
            return fail(WNSRejection(401, "The access token is missing, malformed or expired"))
        }
        guard let token = request.queryValue("token"), request.path == "/", let record = issued.recordReadInPlace(token) else {
            return fail(WNSRejection(404, "The channel URI is not valid or is not recognized by WNS"))
        }
        if !faults.isEmpty, let fault = faultInterpreter.match(&faults, at: world.now, target: FaultTarget(token: token, device: record.device, app: record.app)),
           let r = apply(fault) {
            return fail(r)
        }
        if let expires = record.expiresAt, world.now >= expires {
            return fail(WNSRejection(410, "The channel expired"))
        }
        if record.invalidatedAt != nil { return fail(WNSRejection(410, "The channel is no longer valid: the app was removed")) }
        guard apps.first(where: { $0.packageSID == sid })?.packageFamily == record.app else {
            return fail(WNSRejection(403, "The access token is not authorized to send to this channel"))
        }
        let type: WNSNotificationType
        switch WNSRequestCheck.check(request, memo: &checkedPayloads) {
        case .failure(let r): return fail(r)
        case .success(let t): type = t
        }
        // A toast for an offline device: 200 with `X-WNS-Status: dropped` (see offlineToasts).
        let offlineToast = type == .toast && !world.isOnline(record.device)
        var headers = HTTPHeaders("X-WNS-Status", offlineToast ? "dropped" : "received", "X-WNS-Msg-ID", messageID)
        if request.headers["X-WNS-RequestForStatus"] == "true" {
            headers.add("X-WNS-DeviceConnectionStatus", world.isOnline(record.device) ? "connected" : "disconnected")
        }
        if offlineToast {
            world.record(layer: "wns", host: Self.name, kind: .wnsAccepted,
                         [Self.messageIDField: .string(messageID), .type: .string(type.rawValue), .device: .string(record.device), .status: "dropped"])
        } else {
            world.record(layer: "wns", host: Self.name, kind: .wnsAccepted, [Self.messageIDField: .string(messageID), .type: .string(type.rawValue), .device: .string(record.device)])
        }
        reply.send(HTTPResponse(status: 200, headers: headers), world: world)
        if offlineToast && offlineToasts == .drop {
            world.record(layer: "wns", host: Self.name, kind: .notificationDropped,
                         [Self.messageIDField: .string(messageID), .reason: "device offline and wns/toast is not cached"])
            return
        }
        let forwarded = request.headers.filter { fieldName($0.name, hasPrefix: "x-wns-") && !sameFieldName($0.name, "x-wns-requestforstatus") }
            .map { ($0.name, $0.value) }
        let ttl = request.headers["X-WNS-TTL"].flatMap(WNSRequestCheck.ttlSeconds)
        // X-WNS-TTL, else 3 days for tiles and badges (W-HDR, W-OVR). Capped so the sum cannot overflow.
        let lifetime = ttl.map { VirtualDuration.seconds(min($0, 100 * 365 * 86_400)) }
            ?? (type == .tile || type == .badge ? Self.tileAndBadgeExpiry : nil)
        deliver(Cached(type: type, headers: forwarded, payload: request.body, messageID: messageID, device: record.device, token: token,
                       app: record.app, correlation: world.correlation, expiresAt: lifetime.map { world.now + $0 }, hasTTL: ttl != nil),
                cachePolicy: request.headers["X-WNS-Cache-Policy"], world: world)
    }

    private func deliver(_ n: Cached, cachePolicy: String?, world: World) {
        // The app holds the whole channel URI as its handle.
        world.pushToDevice(service: Self.name, device: n.device, handle: Self.channelURI(n.token), app: n.app, message: n.messageID,
                           headers: n.headers, payload: n.payload, replyTo: self, tag: pushes.add(Push(notification: n, cachePolicy: cachePolicy)))
    }

    /// A device answered a push (or could not be reached).
    public func receive(_ result: CallResult, tag: UInt64, world: World) {
        let push = pushes.take(tag)
        let (n, cachePolicy) = (push.notification, push.cachePolicy)
        switch DeviceAnswer(result) {
        case .shown:
            world.record(layer: "wns", host: Self.name, kind: .wnsDelivered, [Self.messageIDField: .string(n.messageID), .device: .string(n.device)])
        case .handleGone:
            issued.invalidate(n.token, at: world.now)
            world.record(layer: "wns", host: Self.name, kind: .wnsChannelInvalidated, [.device: .string(n.device), .why: "app no longer installed for this channel"])
        case .unreachable:
            guard n.type == .toast ? offlineToasts == .keepLast : n.type.isCached(policy: cachePolicy) else {
                world.record(layer: "wns", host: Self.name, kind: .notificationDropped,
                             [Self.messageIDField: .string(n.messageID), .reason: "device offline and \(n.type.rawValue) is not cached"])
                return
            }
            if let reason = expiryReason(n, world: world) {
                world.record(layer: "wns", host: Self.name, kind: .notificationDropped,
                             [Self.messageIDField: .string(n.messageID), .reason: .string("device offline and " + reason)])
                return
            }
            let key = n.token + "|" + n.type.rawValue
            if let old = cache[key] {
                world.record(layer: "wns", host: Self.name, kind: .notificationDropped,
                             [Self.messageIDField: .string(old.messageID), .reason: "replaced by a newer \(n.type.rawValue) (WNS keeps the last one)"])
            }
            cache[key] = n
            world.record(layer: "wns", host: Self.name, kind: .wnsCached, [Self.messageIDField: .string(n.messageID), .device: .string(n.device)])
        }
    }

    /// Why `n` may no longer be delivered, or nil while it may.
    private func expiryReason(_ n: Cached, world: World) -> String? {
        guard let e = n.expiresAt, world.now >= e else { return nil }
        return n.hasTTL ? "its X-WNS-TTL has passed" : "the \(n.type.rawValue) expired (3 days)"
    }

    /// The channel URI for a channel token: `https://cloud.notify.windows.com/?token=…` (W-OVR).
    public static func channelURI(_ token: String) -> String { String.concatenating(channelURIPrefix, token) }
    private static let channelURIPrefix = "https://\(channelHost)/?token="

    // MARK: Device side

    private func handleDevice(_ request: HTTPRequest, exchange: Exchange, world: World) {
        switch request.path {
        case DeviceChannel.registerPath:
            // A channel lives 30 days; an app asking after that gets a new one (W-OVR).
            issued.answerRegister(request, exchange: exchange, world: world, service: Self.name, issuedKind: .wnsChannelIssued,
                                    lifetime: Self.channelLifetime,
                                    make: { "AwYAAAD" + random.string(count: 80, from: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") },
                                    present: Self.channelURI)
        case DeviceChannel.connectPath:
            world.respond(to: exchange, with: HTTPResponse(status: 200))
            for key in cache.keys.sorted() where cache[key]!.device == exchange.caller {
                let n = cache.removeValue(forKey: key)!
                world.inCorrelation(n.correlation) {
                    if let reason = expiryReason(n, world: world) {
                        world.record(layer: "wns", host: Self.name, kind: .notificationDropped,
                                     [Self.messageIDField: .string(n.messageID), .reason: .string("cached but " + reason)])
                    } else {
                        deliver(n, cachePolicy: "cache", world: world)
                    }
                }
            }
        default:
            world.respond(to: exchange, with: HTTPResponse(status: 404))
        }
    }
}
