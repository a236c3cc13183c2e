import PushSimKernel
import PushSimNetwork

/// Chrome's push service, FCM's web push endpoint on `fcm.googleapis.com` (Citations §9, §9.6).
/// Its answers are one line of plain text ending in a newline (`text/plain; charset=utf-8`):
///
/// | check | answer |
/// |---|---|
/// | token unknown, or unseen for 270 days | 404 `A valid push subscription endpoint should be specified in the URL as such: https://fcm.googleapis.com/wp/dHIoDxE7Hdg:APA91bH1Zj0kNa...` (WP-FCM-404) |
/// | no `Authorization` | 401 `authorization header must be specified` (WP-FCM-401) |
/// | `Authorization` or its key unreadable; token refused | 403, one of the bodies Chrome's own sender knows (WP-CHROMIUM `web_push_common.cc`): `invalid JWT provided`, `token has expired`, `exp claim MUST NOT be more than 24 hours from the time of the request`, `public key must be 65 bytes long`, … |
/// | another key than the subscription's | 403 `the VAPID credentials in the authorization header do not correspond to the credentials used to create the subscriptions.` (WP-FCM-403) |
/// | subscription given up | 410 `push subscription has unsubscribed or expired.` (WP-FCM-410) |
/// | body over 4096 bytes | 400, not 413: "FCM is not following spec and returns 400 for payload too large" (WP-CHROMIUM `web_push_sender.cc`); the body is unknown, PushSim sends none |
/// | `TTL` missing, not a number, or negative | 400 (RFC 8030 section 5.2 requires it; Google's web push answered `InvalidTtlParameter` when TTL became mandatory, WP-FCM-TTL; today's body is unknown, PushSim sends none) |
///
/// The subject is not judged (live reports: FCM takes `mailto:…@localhost`, WP-APPLE-SUB);
/// `Content-Encoding`, `Topic` and `Urgency` are not checked (no source says FCM does). An
/// accepted message gets 201, no body, `Content-Type: text/html; charset=UTF-8` and `Location:
/// https://fcm.googleapis.com/0:<Unix microseconds>%<16 hex digits>` (WP-FCM-201); its `TTL` is
/// kept at most 4 weeks.
struct FCMWebPushRules: WebPushRules {
    let vendor = WebPushVendor.chrome

    /// An FCM answer: one line of text.
    static func text(_ status: Int, _ line: String, reason: String? = nil, headers: [(String, String)] = []) -> WebPushRefusal {
        let response = HTTPResponse(status: status, headers: HTTPHeaders([("content-type", "text/plain; charset=utf-8")] + headers),
                                    text: line.isEmpty ? "" : line + "\n")
        return WebPushRefusal(status: status, reason: reason ?? line, response: response)
    }

    static let notFoundText = "A valid push subscription endpoint should be specified in the URL as such: https://fcm.googleapis.com/wp/dHIoDxE7Hdg:APA91bH1Zj0kNa..."
    static let keyMismatchText = "the VAPID credentials in the authorization header do not correspond to the credentials used to create the subscriptions."
    static let vapidFormat = "Authorization header should have the following format: vapid t=jwtToken; k=base64(publicApplicationServerKey)"
    static let cryptoKeyFormat = "crypto-key header should have the following format: p256ecdsa=base64(publicApplicationServerKey)"

    func notFound() -> WebPushRefusal { Self.text(404, Self.notFoundText, reason: "not found") }

    /// Google's front end answers another method on the send path with 405 (PushSim's reading: no
    /// source shows the body).
    func methodNotAllowed() -> WebPushRefusal { Self.text(405, "", reason: "method not allowed") }

    /// 410 for a subscription its browser gave up; 404 for one FCM let go stale (WP-FCM-404).
    func gone(_ subscription: WebPushSubscription, now: VirtualTime) -> WebPushRefusal {
        subscription.unsubscribedAt == nil && subscription.hasExpired(at: now)
            ? notFound() : Self.text(410, "push subscription has unsubscribed or expired.", reason: "unsubscribed")
    }

    func check(_ request: HTTPRequest, _ context: WebPushRequestContext) -> Result<WebPushAcceptance, WebPushRefusal> {
        guard let subscription = context.subscription else { return .failure(notFound()) }
        let authorization: VAPIDAuthorization
        switch VAPIDAuthorization.read(request.headers) {
        case .failure(let problem): return .failure(Self.refusal(problem))
        case .success(let a): authorization = a
        }
        // FCM wants the key URL-safe (RFC 7515), where autopush also takes standard base64.
        let unpadded = authorization.key.utf8.reversed().drop { $0 == UInt8(ascii: "=") }
        guard unpadded.allSatisfy(Base64URL.isDigit) else {
            let place = authorization.scheme == .vapid ? "authorization" : "crypto-key"
            return .failure(Self.text(403, "public application server key in \(place) header must be base64 encoded in URL and filename safe format."))
        }
        let verification = VAPIDVerification(origin: context.origin, now: context.unixNow)
        let key: [UInt8]
        switch verification.verify(authorization) {
        case .failure(let failure): return .failure(Self.refusal(failure))
        case .success(let verified): key = verified.key
        }
        if let bound = subscription.applicationServerKey, bound != key { return .failure(Self.text(403, Self.keyMismatchText, reason: "key mismatch")) }
        guard subscription.isLive(at: context.now) else { return .failure(gone(subscription, now: context.now)) }
        guard request.body.count <= vendor.maxPayloadBytes else { return .failure(Self.text(400, "", reason: "payload too large")) }
        guard case .seconds(let ttl) = WebPushHeaderValues.ttl(request.headers), ttl >= 0 else {
            return .failure(Self.text(400, "", reason: "InvalidTtlParameter"))
        }
        return .success(WebPushAcceptance(ttlSeconds: cappedTTL(ttl, vendor), topic: request.headers["topic"], urgency: request.headers["urgency"]))
    }

    func accepted(messageID: String, _ acceptance: WebPushAcceptance) -> HTTPResponse {
        HTTPResponse(status: 201, headers: HTTPHeaders("location", "https://fcm.googleapis.com/" + messageID,
                                                       "content-type", "text/html; charset=UTF-8"))
    }

    /// `0:<Unix microseconds>%<16 hex digits>`, as FCM's `Location` names a message (WP-FCM-201).
    func newMessageID(random: inout SeededRandom, unixMicroseconds: Int64) -> String {
        "0:" + String(unixMicroseconds) + "%" + random.hex(bytes: 8)
    }

    /// Google's front end: an outage 503 and a throttle 429, both with `Retry-After` (seconds,
    /// as FCM's API sends it, F-ERR); an internal error 500. No body (PushSim's reading).
    func injected(_ effect: ServiceFault.Effect, subscription: WebPushSubscription?, now: VirtualTime) -> WebPushRefusal? {
        switch effect {
        case .outage(let d): return Self.text(503, "", reason: "unavailable", headers: [("retry-after", String(retryAfterSeconds(d)))])
        case .throttle(let d): return Self.text(429, "", reason: "too many requests", headers: [("retry-after", String(retryAfterSeconds(d)))])
        case .internalError: return Self.text(500, "", reason: "internal error")
        case .refuse("gone"): return Self.text(410, "push subscription has unsubscribed or expired.", reason: "unsubscribed")
        case .refuse, .slow, .lostAnswer: return nil
        }
    }

    /// The answer to an unreadable `Authorization` (or draft-form `Crypto-Key`).
    static func refusal(_ problem: VAPIDAuthorization.Problem) -> WebPushRefusal {
        switch problem {
        case .missing: return text(401, "authorization header must be specified")
        case .unknownScheme, .missingToken:
            return text(403, "authorization header had invalid format. authorization header should have the following format: t=jwtToken; k=base64(publicApplicationServerKey)")
        case .missingKey: return text(403, "authorization header had no public application server key specified. " + vapidFormat)
        case .emptyKey: return text(403, "authorization header had empty public application server key. " + vapidFormat)
        case .missingCryptoKeyHeader, .cryptoKeyWithoutP256ECDSA:
            return text(403, "crypto-key header had no public application server key specified. " + cryptoKeyFormat)
        case .emptyP256ECDSA: return text(403, "crypto-key header had empty public application server key. " + cryptoKeyFormat)
        }
    }

    /// The 403 for a refused key or token. A missing or unreadable `aud` is "invalid"; one naming
    /// another origin gets the longer sentence (PushSim's reading of which is which).
    static func refusal(_ failure: VAPIDVerification.Failure) -> WebPushRefusal {
        switch failure {
        case .keyNotBase64: return text(403, "make sure the public key is base64url-encoded [RFC7515]")
        case .keyLength: return text(403, "public key must be 65 bytes long")
        case .keyNotUncompressed: return text(403, "public key must be in uncompressed form. (First byte needs to be 0x04)")
        case .keyNotOnCurve: return text(403, "VAPID public key must be on the P-256 curve")
        case .malformedToken, .wrongAlgorithm, .badSignature, .claimOfWrongType, .missingSubject, .unusableSubject:
            return text(403, "invalid JWT provided")
        case .missingExpiry: return text(403, "exp claim is missing")
        case .expired: return text(403, "token has expired")
        case .expiryTooFar: return text(403, "exp claim MUST NOT be more than 24 hours from the time of the request")
        case .missingAudience: return text(403, "invalid aud claim")
        case .wrongAudience: return text(403, "aud claim in the token MUST include the origin of the push resource URL")
        }
    }
}
