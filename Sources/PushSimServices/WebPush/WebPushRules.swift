import PushSimKernel
import PushSimNetwork

/// A push service's answer refusing a request: its status, the vendor's own word for why (for
/// the trace: an autopush `errno`, an Apple `reason`, FCM's text), and the whole response.
struct WebPushRefusal: Error, Equatable {
    /// The HTTP status.
    var status: Int
    /// The vendor's name for the refusal, as its answer spells it.
    var reason: String
    /// The answer, headers and body as the vendor writes them.
    var response: HTTPResponse
}

/// What a vendor's push service made of a request it accepts: how long it keeps the message
/// (the `TTL` it honours, after its cap), and the message's `Topic` and `Urgency`.
struct WebPushAcceptance: Equatable {
    /// Seconds to keep the message for an absent browser; 0: now or never.
    var ttlSeconds: Int64
    /// The `Topic` header: a newer message with the same topic replaces a kept one.
    var topic: String?
    /// The `Urgency` header, if sent (`very-low`, `low`, `normal`, `high`).
    var urgency: String?
}

/// What the rules of a vendor know about a request besides its own headers and body.
struct WebPushRequestContext {
    /// The subscription its URL names, nil when the service never issued that token.
    var subscription: WebPushSubscription?
    /// Firefox's `v1`/`v2` in the path (1 for the other vendors).
    var pathVersion: Int
    /// Virtual now, to judge the subscription's expiry.
    var now: VirtualTime
    /// Unix seconds to judge the VAPID token's `exp` by (the caller's clock, see `World.unixSeconds(judging:)`).
    var unixNow: Int64
    /// The push resource's origin a VAPID `aud` must name: `https://<host>`.
    var origin: String
}

/// One vendor's push service: its order of checks and its answers (Citations §9). The service
/// (`WebPushService`) finds the vendor and subscription, asks these rules, and delivers what they
/// accept. One conformance per vendor, each in its own file.
protocol WebPushRules {
    /// The vendor whose service these rules play.
    var vendor: WebPushVendor { get }
    /// The answer to a URL that names no subscription of this service (bad path, unknown token).
    func notFound() -> WebPushRefusal
    /// The answer to a method other than `POST`.
    func methodNotAllowed() -> WebPushRefusal
    /// The answer to a subscription the browser gave up or the service let expire.
    func gone(_ subscription: WebPushSubscription, now: VirtualTime) -> WebPushRefusal
    /// Checks a request, in the vendor's order; what it accepts, or its refusal.
    func check(_ request: HTTPRequest, _ context: WebPushRequestContext) -> Result<WebPushAcceptance, WebPushRefusal>
    /// The answer to an accepted message.
    func accepted(messageID: String, _ acceptance: WebPushAcceptance) -> HTTPResponse
    /// A new message id in the vendor's shape, from the service's random stream.
    func newMessageID(random: inout SeededRandom, unixMicroseconds: Int64) -> String
    /// The answer to an injected fault's effect (outage, throttle, internal error, or the
    /// refusal `gone`); nil for `slow` and `lost-answer`, which change only when the usual
    /// answer arrives.
    func injected(_ effect: ServiceFault.Effect, subscription: WebPushSubscription?, now: VirtualTime) -> WebPushRefusal?
}

extension WebPushVendor {
    /// The rules of this vendor's push service.
    var rules: any WebPushRules {
        switch self {
        case .chrome: return FCMWebPushRules()
        case .firefox: return AutopushRules()
        case .safari: return AppleWebPushRules()
        case .edge: return WNSWebPushRules()
        }
    }

    /// What the fault refusal `gone` (`ServiceFault.Effect.refuse`) names: the answer for a
    /// subscription its browser gave up.
    static let refusalKinds = ["gone"]
}

/// The `TTL` a service keeps for `seconds` asked: no more than `vendor`'s cap.
func cappedTTL(_ seconds: Int64, _ vendor: WebPushVendor) -> Int64 { min(seconds, vendor.maxTTLSeconds) }
