import PushSimKernel
import PushSimCrypto
import PushSimNetwork

/// How the hub talks to the browsers' Web Push services (NH-BROWSER, Citations §4.11 and §9): no
/// token endpoint; each copy is encrypted to its subscription (RFC 8291 `aes128gcm`: a fresh
/// sender key and salt per copy, from the hub's own seeded stream) and carries a VAPID token the
/// hub signs with its ``BrowserCredential`` for the endpoint's origin (RFC 8292), posted to the
/// subscription's endpoint with `TTL` and `Content-Encoding: aes128gcm` (RFC 8030 §5). The push
/// service answers 201 for an accepted message, 404 or 410 for a subscription that is gone.
///
/// A browser's handle is its ``BrowserPushChannel/pnsHandle`` (endpoint and keys together); a
/// direct send builds one from `ServiceBusNotification-DeviceHandle`, `P256DH` and `Auth`.
enum WebPushAdapter: PNSServiceAdapter {
    static var service: PushServiceDescriptor { .webPush }

    /// How long a push service may keep a copy for a browser that is away, in seconds, when the
    /// send gives no `TTL` header: 4 weeks, the Node `web-push` library's default (Citations §9.9).
    /// The hub's own value is not published (unconfirmed, Citations §7).
    static let defaultTTLSeconds = 2_419_200
    /// How long a VAPID token is valid from now, in seconds: 12 hours, what the Web Push
    /// libraries use and below RFC 8292 §2's 24-hour ceiling.
    static let vapidLifetimeSeconds: Int64 = 12 * 3600
    /// The Web Push headers a native browser send passes on to the push service when it gives
    /// them (RFC 8030 §5.2 to §5.4); the hub's own choice is unconfirmed.
    static let forwardedHeaders = ["TTL", "Urgency", "Topic"]

    /// A browser payload is whatever the page's service worker reads: nothing to check, nothing
    /// shared beyond the body.
    static func readNativeSend(_ request: HTTPRequest, hub: NotificationHub) -> Result<String?, HubRefusal> { .success(nil) }

    /// The send's own `TTL`, `Urgency` and `Topic`, passed on to every copy.
    static func derivedHeaders(_ request: HTTPRequest) -> Result<[(String, String)], HubRefusal> {
        .success(forwardedHeaders.compactMap { name in request.headers[name].map { (name, $0) } })
    }

    /// Nothing: a browser template renders the whole payload.
    static func renderedTemplateTail(_ body: [UInt8]) -> Result<String?, PNSRequestProblem> { .success(nil) }

    /// No access token: the VAPID token is made locally, per copy.
    static func accessToken(_ hub: NotificationHub, now: VirtualTime) -> PNSAccessTokenState { .notNeeded }

    /// Never called (``accessToken(_:now:)`` never says `.toFetch`); answers with no token.
    static func fetchAccessToken(_ hub: NotificationHub, world: World, then: @escaping (PNSAccessTokenCache.Answer) -> Void) {
        then(.token(""))
    }

    /// `POST <endpoint>` with the copy encrypted to the subscription, `TTL`, `Content-Encoding:
    /// aes128gcm`, `Content-Type: application/octet-stream` and `Authorization: vapid t=…, k=…`.
    /// No browser credential: the copy is dropped, as for any platform whose credential is missing.
    static func request(_ copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, accessToken: String,
                        hub: NotificationHub, world: World) -> Result<HTTPRequest, PNSRequestProblem> {
        guard let credential = hub.configuration.browser, let signingKey = credential.signingKey else {
            return .failure(.noCredentials(t.platform))
        }
        guard let channel = try? BrowserPushChannel(pnsHandle: t.handle), let key = channel.publicKey, let secret = channel.authSecret else {
            return .failure(PNSRequestProblem(reason: "the browser subscription cannot be read", outcome: .badChannel))
        }
        let sender = P256PrivateKey(drawingFrom: &hub.webPushRandom)
        let salt = hub.webPushRandom.bytes(16)
        guard let body = try? WebPushEncryption.encrypt(copy.body, userAgentPublicKey: key, authSecret: secret,
                                                        applicationServerPrivateKey: sender, salt: salt) else {
            return .failure(PNSRequestProblem(reason: "the payload does not fit one aes128gcm record of 4096 bytes", outcome: .invalidPayload))
        }
        let authorization = VAPIDSigner.authorization(endpoint: channel.endpoint, signingKey: signingKey,
                                                      expiresAt: world.anchor.unixSeconds(world.now) + vapidLifetimeSeconds,
                                                      subject: credential.subject)
        let given = copy.headers.filter { header in forwardedHeaders.contains { sameFieldName($0, header.0) } }
        let ttl = given.first { sameFieldName($0.0, "TTL") }?.1 ?? String(defaultTTLSeconds)
        var h = HTTPHeaders([("TTL", ttl), ("Content-Encoding", "aes128gcm"),
                             ("Content-Type", "application/octet-stream"), ("Authorization", authorization)])
        for (name, value) in given where !sameFieldName(name, "TTL") { h.add(name, value) }
        guard let request = HTTPRequest(method: "POST", url: channel.endpoint, headers: h, body: body) else {
            return .failure(PNSRequestProblem(reason: "the endpoint is not an absolute URL", outcome: .badChannel))
        }
        return .success(request)
    }

    /// 201: accepted; 404: the subscription never was or has expired, 410: given up (RFC 8030
    /// §7.3, the vendors' answers in Citations §9): the registration goes; 413: the payload;
    /// 401 and 403: the VAPID token was refused; 429, 500, 502, 503: retry.
    static func verdict(_ response: HTTPResponse, json: JSONValue?, retryAfter: VirtualDuration?, refusal: PNSOutcome) -> PNSVerdict {
        let status = response.status
        switch status {
        case 201, 202: return .accepted
        case 404, 410:
            return .deadHandle(reason: "Web Push \(status)", sinceUnixMilliseconds: nil, outcome: status == 410 ? .expiredChannel : .badChannel)
        case 401, 403: return .refused(reason: "Web Push \(status): VAPID refused", outcome: .invalidCredentials)
        case 429: return .retry(reason: "Web Push 429", after: retryAfter, outcome: .throttled)
        case 500, 502, 503: return .retry(reason: "Web Push \(status)", after: retryAfter, outcome: .pnsError)
        default: return .refused(reason: "Web Push \(status)", outcome: refusal)
        }
    }

    /// The push service's id for the message: the last segment of the `Location` it answers
    /// (RFC 8030 §5; FCM and autopush), else Apple's `apns-id` or WNS's `X-WNS-Msg-ID`, which
    /// those two answer instead (Citations §9).
    static func messageID(_ response: HTTPResponse) -> String {
        if let location = response.headers["Location"] { return location.split(separator: "/").last.map(String.init) ?? location }
        return response.headers["apns-id"] ?? response.headers["X-WNS-Msg-ID"] ?? ""
    }
}

extension BrowserCredential: PNSCredential {
    static var adapter: PNSAdapter { .webPush }
}

extension HubConfiguration {
    /// The hub's browser (VAPID) credential; nil: every copy for a browser registration or
    /// installation is dropped ("the hub has no browser credentials").
    public var browser: BrowserCredential? {
        get { credentials[BrowserCredential.self] }
        set { credentials[BrowserCredential.self] = newValue }
    }
}
