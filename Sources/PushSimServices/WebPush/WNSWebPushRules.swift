import PushSimKernel
import PushSimNetwork

/// Edge's push service, WNS's web push endpoint at `wns2-<region>.notify.windows.com/w/`
/// (Citations §9, §9.8). WNS answers as it answers native channels: no body, the reason in
/// `X-WNS-Error-Description` (W-HDR). Microsoft documents nothing web-push-specific, so most of
/// this rests on live reports, and the descriptions are PushSim's wording except where quoted:
///
/// | check | answer |
/// |---|---|
/// | a path or token that names no subscription | 404 (W-HDR: the channel URI is not valid) |
/// | another method than `POST` | 405 (W-HDR) |
/// | VAPID missing or refused, or another key than the subscription's | 401, no body, `WWW-Authenticate: bearer error="invalid_request",error_description=…` (live, WP-EDGE-401) |
/// | subscription given up | 410 (W-HDR: the channel expired) |
/// | body over 5000 bytes | 413 (W-HDR; unconfirmed for web push) |
/// | no `TTL` | 400 (live: "Microsoft requires a TTL header", WP-EDGE-TTL) |
/// | `TTL: 0` without `X-WNS-Cache-Policy: no-cache`, or a positive `TTL` with it | 400, `X-WNS-Error-Description: Ttl value conflicts with X-WNS-Cache-Policy.`, `X-WNS-Status` and `X-WNS-NotificationStatus: dropped` (live, WP-EDGE-TTL) |
///
/// An accepted message gets 201 with `X-WNS-Status: received` and an `X-WNS-Msg-ID` (PushSim's
/// reading: RFC 8030's 201 with WNS's headers), and is kept at most 30 days (unconfirmed).
struct WNSWebPushRules: WebPushRules {
    let vendor = WebPushVendor.edge

    /// A WNS answer: no body, the description and any extra headers.
    static func wns(_ status: Int, _ description: String, headers: [(String, String)] = []) -> WebPushRefusal {
        WebPushRefusal(status: status, reason: description,
                       response: HTTPResponse(status: status, headers: HTTPHeaders([("X-WNS-Error-Description", description)] + headers)))
    }

    /// WNS's 401 to a web push sender: no body, the reason in `WWW-Authenticate` (live:
    /// `bearer error="invalid_request",error_description="Malformed Crypto-Key Value"`, WP-EDGE-401;
    /// the other descriptions are PushSim's wording).
    static func unauthorized(_ description: String) -> WebPushRefusal {
        WebPushRefusal(status: 401, reason: description,
                       response: HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"bearer error="invalid_request",error_description="\#(description)""#]))
    }

    func notFound() -> WebPushRefusal { Self.wns(404, "The channel URI is not valid") }
    func methodNotAllowed() -> WebPushRefusal { Self.wns(405, "Only POST is supported") }
    func gone(_ subscription: WebPushSubscription, now: VirtualTime) -> WebPushRefusal { Self.wns(410, "The channel expired") }

    func check(_ request: HTTPRequest, _ context: WebPushRequestContext) -> Result<WebPushAcceptance, WebPushRefusal> {
        guard let subscription = context.subscription else { return .failure(notFound()) }
        guard case .success(let authorization) = VAPIDAuthorization.read(request.headers), authorization.scheme == .vapid else {
            return .failure(Self.unauthorized("Missing or malformed VAPID authorization"))
        }
        let verified: VAPIDVerification.Verified
        switch VAPIDVerification(origin: context.origin, now: context.unixNow).verify(authorization) {
        case .failure(.keyNotBase64), .failure(.keyLength), .failure(.keyNotUncompressed), .failure(.keyNotOnCurve):
            return .failure(Self.unauthorized("Malformed Crypto-Key Value"))
        case .failure: return .failure(Self.unauthorized("Invalid VAPID token"))
        case .success(let v): verified = v
        }
        guard subscription.applicationServerKey == verified.key else { return .failure(Self.unauthorized("VAPID key mismatch")) }
        guard subscription.isLive(at: context.now) else { return .failure(gone(subscription, now: context.now)) }
        guard request.body.count <= vendor.maxPayloadBytes else { return .failure(Self.wns(413, "The notification payload is too large")) }
        guard case .seconds(let ttl) = WebPushHeaderValues.ttl(request.headers), ttl >= 0 else {
            return .failure(Self.wns(400, "The TTL header is missing or not valid"))
        }
        let noCache = request.headers["X-WNS-Cache-Policy"]?.lowercased() == "no-cache"
        guard (ttl == 0) == noCache else {
            return .failure(Self.wns(400, "Ttl value conflicts with X-WNS-Cache-Policy.",
                                     headers: [("X-WNS-Status", "dropped"), ("X-WNS-NotificationStatus", "dropped")]))
        }
        return .success(WebPushAcceptance(ttlSeconds: cappedTTL(ttl, vendor), topic: request.headers["topic"], urgency: request.headers["urgency"]))
    }

    func accepted(messageID: String, _ acceptance: WebPushAcceptance) -> HTTPResponse {
        HTTPResponse(status: 201, headers: HTTPHeaders("X-WNS-Status", "received", "X-WNS-Msg-ID", messageID))
    }

    /// Sixteen upper-case hex digits, as WNS's `X-WNS-Msg-ID`.
    func newMessageID(random: inout SeededRandom, unixMicroseconds: Int64) -> String { random.hex(bytes: 8, uppercase: true) }

    /// WNS's answers (W-HDR, W-TRBL): 503 and 500; a throttle is 406 "Not Acceptable", which WNS
    /// sends to web push senders too, with the wait in `Retry-After` (WP-EDGE-406, quoting W-HDR).
    func injected(_ effect: ServiceFault.Effect, subscription: WebPushSubscription?, now: VirtualTime) -> WebPushRefusal? {
        switch effect {
        case .outage: return Self.wns(503, "The service is temporarily unavailable")
        case .throttle(let d):
            return Self.wns(406, "The cloud service exceeded its throttle limit",
                            headers: [("X-WNS-Status", "channelthrottled"), ("Retry-After", String(retryAfterSeconds(d)))])
        case .internalError: return Self.wns(500, "An internal failure caused notification delivery to fail")
        case .refuse("gone"): return Self.wns(410, "The channel expired")
        case .refuse, .slow, .lostAnswer: return nil
        }
    }
}
