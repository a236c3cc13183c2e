import PushSimKernel
import PushSimNetwork

/// Safari's push service, Apple's at `web.push.apple.com` (Citations §9, §9.7), with the statuses
/// and `reason` strings of Apple's "Sending web push notifications in web apps and browsers"
/// (WP-APPLE). Refusals are JSON, `{"reason":"…"}`, as APNs writes them (A-RESP).
///
/// | check | answer |
/// |---|---|
/// | a path that names no subscription | 404 `BadPath` |
/// | another method than `POST` | 405 `MethodNotAllowed` |
/// | no JWT, bad signature, `sub` not a usable `mailto:`/`https:`, `aud` not the push service's origin, `exp` over a day ahead (or past) | 403 `BadJwtToken` |
/// | `Authorization` not `vapid t=…, k=…` | 400 `BadAuthorizationHeader` (status unconfirmed) |
/// | `k` missing, not base64url, not a P-256 key | 400 `BadVapidPublicKey` (status unconfirmed) |
/// | another key than the subscription's | 400 `VapidPkHashMismatch` (status unconfirmed: code handling Apple's answers checks for 400) |
/// | subscription given up | 410 `Unregistered` (the doc gives 410 "The device token has expired." and no reason; PushSim uses APNs' word for an inactive token, A-RESP) |
/// | body over 4 KB (4096 bytes) | 413 `PayloadTooLarge` |
/// | `TTL` missing or not a positive number (so `TTL: 0` too) | 400 `BadTtl` |
/// | body with another coding than `aes128gcm`/`aesgcm`, or an unusable `aes128gcm` header | 400 `BadWebPushRequest` ("doesn't conform to the encryption rules": PushSim's reading, §9.4) |
/// | `Topic` not 1–32 base64url characters (a length of 4n + 1 too) | 400 `BadWebPushTopic` (WP-APPLE-TOPIC) |
/// | `Urgency` not one of the four values | 400 `BadUrgency` |
///
/// An expired JWT is `BadJwtToken`: Apple's list has no other reason for it (there is no
/// `ExpiredJwtToken`). An accepted message gets 201, no body, `Content-Type: text/plain;
/// charset=UTF-8` and an `apns-id` (WP-APPLE names the header; an upper-case UUID as a live answer
/// shows it, PushSim's reading), and is kept at most 30 days.
struct AppleWebPushRules: WebPushRules {
    let vendor = WebPushVendor.safari

    /// An Apple answer: `{"reason":…}`.
    static func reason(_ status: Int, _ reason: String) -> WebPushRefusal {
        WebPushRefusal(status: status, reason: reason,
                       response: HTTPResponse(status: status, headers: ["content-type": "application/json"],
                                              text: JSONValue.object([("reason", .string(reason))]).serialized()))
    }

    func notFound() -> WebPushRefusal { Self.reason(404, "BadPath") }
    func methodNotAllowed() -> WebPushRefusal { Self.reason(405, "MethodNotAllowed") }
    func gone(_ subscription: WebPushSubscription, now: VirtualTime) -> WebPushRefusal { Self.reason(410, "Unregistered") }

    func check(_ request: HTTPRequest, _ context: WebPushRequestContext) -> Result<WebPushAcceptance, WebPushRefusal> {
        guard let subscription = context.subscription else { return .failure(notFound()) }
        let authorization: VAPIDAuthorization
        switch VAPIDAuthorization.read(request.headers) {
        case .failure(.missing), .failure(.missingToken): return .failure(Self.reason(403, "BadJwtToken"))
        case .failure(.missingKey), .failure(.emptyKey): return .failure(Self.reason(400, "BadVapidPublicKey"))
        case .failure: return .failure(Self.reason(400, "BadAuthorizationHeader"))
        case .success(let a) where a.scheme != .vapid: return .failure(Self.reason(400, "BadAuthorizationHeader"))
        case .success(let a): authorization = a
        }
        // Apple reads the key as base64url only (autopush also takes standard base64).
        guard WebPushHeaderValues.isPaddedBase64URL(authorization.key) else { return .failure(Self.reason(400, "BadVapidPublicKey")) }
        let verification = VAPIDVerification(origin: context.origin, now: context.unixNow, judgesSubject: true)
        let key: [UInt8]
        switch verification.verify(authorization) {
        case .failure(.keyNotBase64), .failure(.keyLength), .failure(.keyNotUncompressed), .failure(.keyNotOnCurve):
            return .failure(Self.reason(400, "BadVapidPublicKey"))
        case .failure: return .failure(Self.reason(403, "BadJwtToken"))
        case .success(let verified): key = verified.key
        }
        guard subscription.applicationServerKey == key else { return .failure(Self.reason(400, "VapidPkHashMismatch")) }
        guard subscription.isLive(at: context.now) else { return .failure(gone(subscription, now: context.now)) }
        guard request.body.count <= vendor.maxPayloadBytes else { return .failure(Self.reason(413, "PayloadTooLarge")) }
        guard let ttlText = request.headers["ttl"], WebPushHeaderValues.isPositiveDecimal(ttlText) else {
            return .failure(Self.reason(400, "BadTtl"))
        }
        if !request.body.isEmpty, !Self.conformsToEncryptionRules(request) { return .failure(Self.reason(400, "BadWebPushRequest")) }
        let topic = request.headers["topic"]
        if let topic, !WebPushHeaderValues.isAppleTopic(topic) { return .failure(Self.reason(400, "BadWebPushTopic")) }
        let urgency = request.headers["urgency"]
        if let urgency, !WebPushHeaderValues.urgencies.contains(urgency) { return .failure(Self.reason(400, "BadUrgency")) }
        return .success(WebPushAcceptance(ttlSeconds: cappedTTL(Int64(ttlText) ?? .max, vendor), topic: topic, urgency: urgency))
    }

    /// An encrypted body as RFC 8291 has it: `aes128gcm` with a usable header in front
    /// (`WebPushContentCoding.headerProblem`), or the draft's `aesgcm` with its `Encryption`
    /// salt and `Crypto-Key` dh beside it.
    static func conformsToEncryptionRules(_ request: HTTPRequest) -> Bool {
        switch request.headers["content-encoding"] {
        case WebPushContentCoding.aes128gcm?: return WebPushContentCoding.headerProblem(request.body) == nil
        case WebPushContentCoding.aesgcm?:
            let salt = request.headers["encryption"].flatMap(WebPushParameterHeader.items)?["salt"]
            let dh = request.headers["crypto-key"].flatMap(WebPushParameterHeader.items)?["dh"]
            return salt.map(WebPushHeaderValues.isPaddedBase64URL) == true && dh.map(WebPushHeaderValues.isPaddedBase64URL) == true
        default: return false
        }
    }

    func accepted(messageID: String, _ acceptance: WebPushAcceptance) -> HTTPResponse {
        HTTPResponse(status: 201, headers: HTTPHeaders("content-type", "text/plain; charset=UTF-8", "apns-id", messageID))
    }

    /// An upper-case UUID for the `apns-id` header WP-APPLE names.
    func newMessageID(random: inout SeededRandom, unixMicroseconds: Int64) -> String { random.uuidString().uppercased() }

    /// Apple's reasons for the service's own trouble (WP-APPLE): 503 `ServiceUnavailable`, 429
    /// `TooManyRequests` ("too many consecutive requests to the same device token"; Apple
    /// documents no `Retry-After`, so none is sent), 500 `InternalServerError`.
    func injected(_ effect: ServiceFault.Effect, subscription: WebPushSubscription?, now: VirtualTime) -> WebPushRefusal? {
        switch effect {
        case .outage: return Self.reason(503, "ServiceUnavailable")
        case .throttle: return Self.reason(429, "TooManyRequests")
        case .internalError: return Self.reason(500, "InternalServerError")
        case .refuse("gone"): return Self.reason(410, "Unregistered")
        case .refuse, .slow, .lostAnswer: return nil
        }
    }
}
