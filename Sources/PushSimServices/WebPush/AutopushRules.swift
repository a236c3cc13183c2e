import PushSimKernel
import PushSimNetwork

/// Firefox's push service, Mozilla's autopush, as its code answers (Citations §9, §9.5;
/// WP-AUTOPUSH: `autoendpoint/src/error.rs`, `extractors/subscription.rs`,
/// `extractors/notification_headers.rs`, `routers/webpush.rs`; its error table, WP-AUTOPUSH-DOCS).
///
/// Every refusal is JSON: `{"code":<status>,"errno":<n>,"error":<reason phrase>,"message":…,
/// "more_info":"http://autopush.readthedocs.io/en/latest/http.html#error-codes"}`, except 404,
/// whose body its error handler empties (`render_404`). A 410 carries `Cache-Control:
/// max-age=86400`, a 503 `Retry-After: 120`. The checks, in its order:
///
/// | check | answer |
/// |---|---|
/// | token unknown, or a `v1` token under `v2` or back | 404, no body (errno 102 before its handler empties it) |
/// | `Authorization` unreadable, VAPID token refused | 401 errno 109 (`Unknown auth scheme`, `InvalidSignature`, `ExpiredSignature`, `Invalid VAPID audience`, `The VAPID token expiration is too long`, …) |
/// | the draft form without `Crypto-Key` / `p256ecdsa` | 400 errno 110 |
/// | `v2` endpoint: no VAPID, or another key than the subscription's | 401 errno 109 `Missing VAPID public key`, `VAPID public key mismatch` |
/// | subscription given up or expired (60 days unseen) | 410 errno 106 `No such subscription` |
/// | body over 5630 bytes | 413 errno 104 `A payload reached size limit.` |
/// | `TTL` missing or not a number | 400 errno 111 `Missing TTL value` |
/// | body with a bad `Content-Encoding` or crypto headers | 400 errno 110 |
/// | `TTL` negative; `Topic` over 32 characters or not base64url | 400 errno 114 / 113 |
///
/// `Urgency` is not read. An accepted message gets 201 with `Location:
/// https://updates.push.services.mozilla.com/m/<message id>` and the `TTL` kept (at most 30 days).
struct AutopushRules: WebPushRules {
    let vendor = WebPushVendor.firefox
    static let moreInfo = "http://autopush.readthedocs.io/en/latest/http.html#error-codes"

    /// An autopush error answer (`ApiError`'s serialisation, `error.rs`).
    static func error(_ status: Int, errno: Int?, _ message: String, headers: [(String, String)] = []) -> WebPushRefusal {
        let body = JSONValue.object([("code", .number(JSONNumber(Int64(status)))),
                                     ("errno", errno.map { .number(JSONNumber(Int64($0))) } ?? .null),
                                     ("error", .string(reasonPhrase(status))), ("message", .string(message)),
                                     ("more_info", .string(moreInfo))])
        let response = HTTPResponse(status: status, headers: HTTPHeaders([("content-type", "application/json")] + headers),
                                    body: body.serializedBytes())
        return WebPushRefusal(status: status, reason: errno.map { "errno \($0)" } ?? "errno null", response: response)
    }

    /// The canonical reason phrase autopush writes in `error`.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 410: return "Gone"
        case 413: return "Payload Too Large"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Error"
        }
    }

    func notFound() -> WebPushRefusal {
        WebPushRefusal(status: 404, reason: "errno 102", response: HTTPResponse(status: 404))
    }

    /// actix answers a route without a handler for the method with a bare 405.
    func methodNotAllowed() -> WebPushRefusal {
        WebPushRefusal(status: 405, reason: "method not allowed", response: HTTPResponse(status: 405))
    }

    func gone(_ subscription: WebPushSubscription, now: VirtualTime) -> WebPushRefusal {
        Self.error(410, errno: 106, "No such subscription", headers: [("cache-control", "max-age=86400")])
    }

    func check(_ request: HTTPRequest, _ context: WebPushRequestContext) -> Result<WebPushAcceptance, WebPushRefusal> {
        guard let subscription = context.subscription, context.pathVersion == (subscription.applicationServerKey == nil ? 1 : 2) else {
            return .failure(notFound())
        }
        var presentedKey: [UInt8]?
        if request.headers["authorization"] != nil {
            switch VAPIDAuthorization.read(request.headers) {
            case .failure(let problem): return .failure(Self.refusal(problem))
            case .success(let authorization):
                let verification = VAPIDVerification(origin: context.origin, now: context.unixNow, expiryLeeway: 60)
                switch verification.verify(authorization) {
                case .failure(let failure): return .failure(Self.refusal(failure, key: authorization.key))
                case .success(let verified): presentedKey = verified.key
                }
            }
        }
        if let bound = subscription.applicationServerKey {
            guard let presentedKey else { return .failure(Self.error(401, errno: 109, "Missing VAPID public key")) }
            guard presentedKey == bound else { return .failure(Self.error(401, errno: 109, "VAPID public key mismatch")) }
        }
        guard subscription.isLive(at: context.now) else { return .failure(gone(subscription, now: context.now)) }
        guard request.body.count <= vendor.maxPayloadBytes else {
            return .failure(Self.error(413, errno: 104, "A payload reached size limit."))
        }
        guard case .seconds(let ttl) = WebPushHeaderValues.ttl(request.headers) else {
            return .failure(Self.error(400, errno: 111, "Missing TTL value"))
        }
        if !request.body.isEmpty, let problem = WebPushContentCoding.autopushProblem(request.headers) {
            return .failure(Self.error(400, errno: 110, problem))
        }
        let topic = request.headers["topic"]
        var messages: [String] = [], errno: Int?
        if ttl < 0 { messages.append("ttl: TTL must be greater than 0"); errno = errno ?? 114 }
        if let topic {
            var topicMessages: [String] = []
            if topic.utf8.count > 32 { topicMessages.append("Topic must be no greater than 32 characters") }
            if !WebPushHeaderValues.isPaddedBase64URL(topic) {
                topicMessages.append("Topic must be URL and Filename safe Base64 alphabet")
            }
            if !topicMessages.isEmpty { messages.append("topic: " + topicMessages.joined(separator: ", ")); errno = errno ?? 113 }
        }
        // The validator writes each field's errors one after the other, without a separator.
        if let errno { return .failure(Self.error(400, errno: errno, messages.joined())) }
        return .success(WebPushAcceptance(ttlSeconds: cappedTTL(ttl, vendor), topic: topic, urgency: request.headers["urgency"]))
    }

    func accepted(messageID: String, _ acceptance: WebPushAcceptance) -> HTTPResponse {
        HTTPResponse(status: 201, headers: HTTPHeaders("location", "https://updates.push.services.mozilla.com/m/" + messageID,
                                                       "ttl", String(acceptance.ttlSeconds)))
    }

    /// A Fernet token, as autopush's message ids are (`gAAAAAB`…).
    func newMessageID(random: inout SeededRandom, unixMicroseconds: Int64) -> String {
        "gAAAAAB" + random.string(count: 133, from: WebPushEndpoints.base64URLDigits)
    }

    /// autopush answers every 503 with `Retry-After: 120` and has no 429 of its own, so an
    /// outage and a throttle both get the 503 (errno 201, "use exponential back-off"); an
    /// internal error is 500 errno 999. The messages are PushSim's wording.
    func injected(_ effect: ServiceFault.Effect, subscription: WebPushSubscription?, now: VirtualTime) -> WebPushRefusal? {
        switch effect {
        case .outage, .throttle: return Self.error(503, errno: 201, "Service temporarily unavailable", headers: [("retry-after", "120")])
        case .internalError: return Self.error(500, errno: 999, "Unknown error")
        case .refuse("gone"): return subscription.map { gone($0, now: now) }
        case .refuse, .slow, .lostAnswer: return nil
        }
    }

    /// The 401 (or 400, for the draft form's `Crypto-Key`) for an unreadable `Authorization`.
    static func refusal(_ problem: VAPIDAuthorization.Problem) -> WebPushRefusal {
        switch problem {
        case .missing, .unknownScheme: return error(401, errno: 109, "Unknown auth scheme")
        case .missingToken: return error(401, errno: 109, "Missing VAPID token")
        case .missingKey: return error(401, errno: 109, "Missing VAPID public key")
        case .emptyKey, .emptyP256ECDSA: return error(401, errno: 109, "InvalidSignature")
        case .missingCryptoKeyHeader: return error(400, errno: 110, "Missing Crypto-Key header")
        case .cryptoKeyWithoutP256ECDSA: return error(400, errno: 110, "Missing p256ecdsa in Crypto-Key header")
        }
    }

    /// The 401 for a refused token, in the words of `jsonwebtoken`'s errors and autopush's
    /// `VapidError` (`vapid.rs`). A key of the wrong length or off the curve fails as a bad
    /// signature there, since the crate only meets it when verifying.
    static func refusal(_ failure: VAPIDVerification.Failure, key: String) -> WebPushRefusal {
        let message: String
        switch failure {
        case .keyNotBase64: message = "Invalid VAPID public key: " + base64ErrorText(key)
        case .keyLength, .keyNotUncompressed, .keyNotOnCurve, .badSignature: message = "InvalidSignature"
        case .malformedToken: message = "InvalidToken"
        case .wrongAlgorithm: message = "InvalidAlgorithm"
        case .missingExpiry: message = "Invalid VAPID token: Missing required exp"
        case .missingAudience: message = "Invalid VAPID token: Missing required aud"
        case .claimOfWrongType, .missingSubject, .unusableSubject:
            message = #"Invalid VAPID token: A value in the vapid claims is either missing or incorrectly specified (e.g. "exp":"12345" or "sub":null). Please correct and retry."#
        case .expired: message = "ExpiredSignature"
        case .wrongAudience: message = "Invalid VAPID audience"
        case .expiryTooFar: message = "The VAPID token expiration is too long"
        }
        return error(401, errno: 109, message)
    }

    /// The `base64` crate's words for an undecodable key: the first byte outside the alphabet
    /// and its offset, or a length no base64 has.
    static func base64ErrorText(_ key: String) -> String {
        let text = Array(key.utf8.reversed().drop { $0 == UInt8(ascii: "=") }.reversed())
        let standard = text.contains(UInt8(ascii: "+")) || text.contains(UInt8(ascii: "/"))
        for (offset, byte) in text.enumerated() {
            let isDigit = standard ? (Base64URL.isDigit(byte) && byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") : Base64URL.isDigit(byte)
            if !isDigit { return "Invalid symbol \(byte), offset \(offset)." }
        }
        return "Invalid input length."
    }
}
