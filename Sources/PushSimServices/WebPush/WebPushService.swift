import PushSimKernel
import PushSimNetwork

/// The fake Web Push service: the push services browsers use, on their public hosts, speaking
/// the Web Push protocol (RFC 8030) to application servers, with messages encrypted to the
/// browser (RFC 8291) and senders identified by VAPID (RFC 8292). Citations §9.
///
/// One host plays the four vendors' services (``WebPushVendor``), each with its own endpoints,
/// limits and answers (`AutopushRules`, `FCMWebPushRules`, `AppleWebPushRules`,
/// `WNSWebPushRules`):
/// - `updates.push.services.mozilla.com`, `web.push.apple.com` and WNS's `wns2-<region>` hosts
///   are registered here; Chrome's endpoints live on `fcm.googleapis.com`, which ``FCMService``
///   owns and whose `/fcm/send/<token>` and `/wp/<token>` paths it hands over to this service, as
///   Google's front end serves both APIs on one host;
/// - browsers subscribe over PushSim's channel on `WebPushChannel.host` (`webpush`), or a test
///   calls ``subscribe(browser:vendor:applicationServerKey:world:)``.
///
/// A message's VAPID token is verified for real (ES256 with PushSimCrypto's P-256), never its
/// payload: the service cannot decrypt it, and only looks at its coding where the vendor does.
/// An accepted message is answered 201 and pushed to the browser at once; a browser that cannot
/// be reached gets it when it next connects, unless its `TTL` runs out first (`TTL: 0`: now or
/// never), and a newer message with the same `Topic` replaces a kept one. Injected ``faults``
/// apply to the push endpoints, never to the browsers' channel.
public final class WebPushService: Host, CallReceiver {
    /// `webpush`: the host name in the world and the service's name in traces.
    public static let name = WebPushChannel.host
    /// The push hosts this service registers (every vendor's but Chrome's, which ``FCMService`` owns).
    public static let registeredHosts = WebPushVendor.allCases.filter { $0 != .chrome }.flatMap(\.hosts)
    /// Every host an application server posts messages to, Chrome's included (lower-case): what
    /// `pushsim serve` takes from a `Host` header.
    public static var publicHosts: [String] { WebPushVendor.allCases.flatMap(\.hosts) }

    /// For `pushsim serve`, which serves every host on one port: the push host a request goes to
    /// by its path when its `Host` header names none of the world's, as the vendors lay out their
    /// endpoints (`/fcm/send/…`, `/wp/…` Chrome; `/wpush/…` Firefox; `/w/?token=…` Edge, its
    /// first region; `/Q<170 characters>` Safari); nil for any other path.
    public static func loopbackHost(path: String, target: String) -> String? {
        if WebPushEndpoints.isChromePushPath(path) { return WebPushVendor.chrome.hosts[0] }
        if path.hasPrefix("/wpush/") { return WebPushVendor.firefox.hosts[0] }
        if path == "/w/" || path == "/w", target.contains("?token=") { return WebPushVendor.edge.hosts[0] }
        if path.utf8.count == 172, path.hasPrefix("/Q"), path.utf8.dropFirst().allSatisfy(Base64URL.isDigit) { return WebPushVendor.safari.hosts[0] }
        return nil
    }

    /// Injected faults, asked in order on every message an application server sends; the first
    /// that hits wins. `refuse("gone")` answers as for a given-up subscription.
    public var faults: [ServiceFault] = []
    /// The fault refusals a web push fault may name (`ServiceFault.Effect.refuse`).
    public static var refusalKinds: [String] { WebPushVendor.refusalKinds }

    var registry = WebPushRegistry()
    var kept: [String: WebPushOfflineStore] = [:]   // by token; looked up only, leftovers go by `registry.all`
    var pushes = PendingPushes<WebPushMessage>()
    var random: SeededRandom
    var faultInterpreter: ServiceFaultInterpreter

    /// Registers the service in `world` under ``name`` and ``registeredHosts``. Endpoints and
    /// message ids come from the world's `webpush` random stream.
    public init(world: World) {
        random = world.randomStream(Self.name)
        faultInterpreter = ServiceFaultInterpreter(world: world, service: Self.name)
        world.register(self, name: Self.name, aliases: Self.registeredHosts)
    }

    /// The subscriptions issued, in order, given-up and expired ones included.
    public var subscriptions: [WebPushSubscription] { registry.all }

    /// The subscription whose endpoint is `endpoint`, if issued.
    public func subscription(endpoint: String) -> WebPushSubscription? { registry.subscription(endpoint: endpoint) }

    /// The ids of the messages kept for `endpoint`'s browser, in order (expired ones included
    /// until the browser reconnects).
    public func keptMessageIDs(endpoint: String) -> [String] {
        guard let s = registry.subscription(endpoint: endpoint) else { return [] }
        return kept[s.token]?.messages.map(\.id) ?? []
    }

    /// The browsers' channel on ``name``; anything else is a message for a push endpoint.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        if request.authority == Self.name { return handleBrowser(request, exchange: exchange, world: world) }
        let host = request.authority.lowercased()
        guard let vendor = WebPushVendor.serving(host: host) else {
            return world.respond(to: exchange, with: HTTPResponse(status: 404))
        }
        handleMessage(request, vendor: vendor, host: host, exchange: exchange, world: world)
    }

    /// Each message still kept for a browser, in the order of its subscriptions.
    public func leftovers(world: World) -> [Leftover] {
        registry.all.flatMap { s in
            (kept[s.token]?.messages ?? []).filter { $0.expiresAt > world.now }.map {
                Leftover("message \($0.id) kept for \(s.browser) (\(s.vendor)), undelivered", pendingIDs: [$0.id])
            }
        }
    }

    // MARK: Messages from application servers

    private func handleMessage(_ request: HTTPRequest, vendor: WebPushVendor, host: String, exchange: Exchange, world: World) {
        let rules = vendor.rules
        var reply = Reply(exchange: exchange)
        func refuse(_ refusal: WebPushRefusal) {
            world.record(layer: Self.name, host: Self.name, kind: .webPushRejected,
                         [.vendor: .string(vendor.rawValue), .status: .int(refusal.status), .reason: .string(refusal.reason)])
            reply.send(refusal.response, world: world)
        }
        if let fault = faultInterpreter.match(&faults, at: world.now),
           let refusal = take(fault, rules: rules, subscription: nil, reply: &reply, world: world) { return refuse(refusal) }
        guard request.method == "POST" else { return refuse(rules.methodNotAllowed()) }
        guard case .token(let token, let version) = WebPushEndpoints.target(of: request, vendor: vendor) else { return refuse(rules.notFound()) }
        let subscription = registry[token].flatMap { $0.vendor == vendor ? $0 : nil }
        if let subscription,
           let fault = faultInterpreter.match(&faults, at: world.now,
                                              target: FaultTarget(token: token, device: subscription.browser, app: vendor.rawValue)),
           let refusal = take(fault, rules: rules, subscription: subscription, reply: &reply, world: world) { return refuse(refusal) }
        // The origin a VAPID `aud` must name is the endpoint's: the host the request went to,
        // except when `pushsim serve` routed it by path to the vendor's first host.
        let origin = "https://" + (subscription.map { String($0.endpoint.dropFirst("https://".count).prefix { $0 != "/" }) } ?? host)
        let context = WebPushRequestContext(subscription: subscription, pathVersion: version, now: world.now,
                                            unixNow: world.unixSeconds(judging: exchange.caller), origin: origin)
        switch rules.check(request, context) {
        case .failure(let refusal): refuse(refusal)
        case .success(let acceptance):
            guard let subscription else { return refuse(rules.notFound()) }
            accept(request, acceptance, subscription: subscription, rules: rules, reply: reply, world: world)
        }
    }

    /// Traces an injected fault and returns the vendor's answer to it, or nil when the request
    /// goes on (a `.slow` fault delays the answer, a `.lostAnswer` loses it).
    private func take(_ fault: ServiceFault, rules: any WebPushRules, subscription: WebPushSubscription?, reply: inout Reply,
                      world: World) -> WebPushRefusal? {
        let refusal = rules.injected(fault.effect, subscription: subscription, now: world.now)
        reply.take(fault, service: Self.name, status: refusal?.status, reason: refusal?.reason ?? "", world: world)
        return refusal
    }

    private func accept(_ request: HTTPRequest, _ acceptance: WebPushAcceptance, subscription: WebPushSubscription,
                        rules: any WebPushRules, reply: Reply, world: World) {
        let id = rules.newMessageID(random: &random, unixMicroseconds: Self.unixMicroseconds(world))
        let forwarded = ["Content-Encoding", "Encryption", "Crypto-Key"].compactMap { name in request.headers[name].map { (name, $0) } }
        let message = WebPushMessage(id: id, token: subscription.token, endpoint: subscription.endpoint, vendor: subscription.vendor,
                                     browser: subscription.browser, ttlSeconds: acceptance.ttlSeconds, topic: acceptance.topic,
                                     forwardedHeaders: forwarded, body: request.body,
                                     expiresAt: world.now + .seconds(acceptance.ttlSeconds), correlation: world.correlation)
        world.record(layer: Self.name, host: Self.name, kind: .webPushAccepted,
                     [.webPushMessageID: .string(id), .vendor: .string(subscription.vendor.rawValue), .device: .string(subscription.browser),
                      .ttl: .int(acceptance.ttlSeconds), .topic: .string(acceptance.topic ?? "-")])
        reply.send(rules.accepted(messageID: id, acceptance), world: world)
        deliver(message, world: world)
    }

    /// Unix microseconds now (saturating, for an epoch at the edge of the 64-bit range).
    static func unixMicroseconds(_ world: World) -> Int64 {
        let ms = world.anchor.unixMilliseconds(world.now)
        let (scaled, overflow) = ms.multipliedReportingOverflow(by: 1_000)
        if overflow { return ms < 0 ? .min : .max }
        return scaled.addingReportingOverflow(world.now.microseconds % 1_000).partialValue
    }
}
