import PushSimKernel
import PushSimNetwork

// What each fake answers to an injected ``ServiceFault``: the service's own status, error string
// and headers for that condition, so a client under test cannot tell an injected outage from a
// real one (design rule 9: inject only what real systems do). `.slow` has no answer of its
// own: the request is handled normally and only the answer is delayed.

extension APNsRejection {
    /// APNs (Citations §1.7, source A-RESP): outage → 503 `ServiceUnavailable`, throttle → 429
    /// `TooManyRequests` (A-RESP, A-FORUM-806522), internal error → 500 `InternalServerError`.
    /// APNs documents no `Retry-After` header, so none is sent. Nil for `.slow`.
    /// A refusal (``ServiceFault.Effect.refuse(_:)``): `BadDeviceToken` (400),
    /// `DeviceTokenNotForTopic` (400), `Unregistered` (410, with the fault's start as the time
    /// the token stopped being valid, in milliseconds: A-RESP). Nil for `.slow` and `.lostAnswer`.
    static func injected(_ fault: ServiceFault, anchor: CalendarAnchor) -> APNsRejection? {
        switch fault.effect {
        case .outage: return .serviceUnavailable
        case .throttle: return .tooManyRequests
        case .internalError: return .internalServerError
        case .slow, .lostAnswer: return nil
        case .refuse("BadDeviceToken"): return .badDeviceToken
        case .refuse("DeviceTokenNotForTopic"): return .deviceTokenNotForTopic
        case .refuse("Unregistered"): return .unregistered(timestampMilliseconds: anchor.unixMilliseconds(fault.window.lowerBound))
        case .refuse: return nil
        }
    }

    /// The token states a fault can put an APNs token in.
    static let refusalKinds = ["BadDeviceToken", "Unregistered", "DeviceTokenNotForTopic"]
}

extension FCMError {
    /// FCM HTTP v1 (Citations §2.3–§2.4, sources F-ERR, F-QUOTA): outage → 503 `UNAVAILABLE`,
    /// throttle → 429 `RESOURCE_EXHAUSTED` with FcmError `QUOTA_EXCEEDED`, both with `Retry-After`
    /// in whole seconds (rounded up, at least 1); internal error → 500 `INTERNAL`; the refusals
    /// `UNREGISTERED` (404 `NOT_FOUND`) and `SENDER_ID_MISMATCH` (403 `PERMISSION_DENIED`), as FCM
    /// answers a deleted token and a token of another sender (F-ERR). Nil for `.slow` and `.lostAnswer`.
    static func injected(_ effect: ServiceFault.Effect) -> FCMError? {
        switch effect {
        case .outage(let d): return .unavailable(retryAfter: retryAfterSeconds(d))
        case .throttle(let d): return .quotaExceeded(retryAfter: retryAfterSeconds(d))
        case .internalError: return .internalError
        case .slow, .lostAnswer: return nil
        case .refuse("UNREGISTERED"): return .unregistered
        case .refuse("SENDER_ID_MISMATCH"): return .senderIDMismatch
        case .refuse: return nil
        }
    }

    /// The token states a fault can put an FCM registration token in.
    static let refusalKinds = ["UNREGISTERED", "SENDER_ID_MISMATCH"]
}

extension WNSRejection {
    /// WNS (Citations §3.4–§3.5, sources W-HDR, W-TRBL): outage → 503, internal error → 500,
    /// throttle → 406 "channel throttled" with `X-WNS-CONTINUE-AFTER` (seconds to wait, rounded up)
    /// and `X-WNS-Status: channelthrottled`. The sheet marks the header's exact casing unconfirmed;
    /// HTTP header names are case-insensitive, and PushSim writes the sheet's spelling. Nil for `.slow`.
    static func injected(_ effect: ServiceFault.Effect) -> WNSRejection? {
        switch effect {
        case .outage: return WNSRejection(503, "The service is temporarily unavailable")
        case .throttle(let d):
            return WNSRejection(406, "The cloud service exceeded its throttle limit",
                                headers: [("X-WNS-Status", "channelthrottled"),
                                          ("X-WNS-CONTINUE-AFTER", String(retryAfterSeconds(d)))])
        case .internalError: return WNSRejection(500, "An internal failure caused notification delivery to fail")
        case .slow, .lostAnswer: return nil
        case .refuse("channel-expired"): return .channelExpired
        case .refuse: return nil
        }
    }

    /// The channel states a fault can put a WNS channel in.
    static let refusalKinds = ["channel-expired"]
}

extension WNSRejection {
    /// A channel past its expiry: 410 (W-HDR; what the fake answers for a channel whose 30 days ran out).
    static let channelExpired = WNSRejection(410, "The channel expired")
}

extension APNsService {
    /// The token states a fault can put an APNs token in (`ServiceFault.Effect.refuse(_:)`).
    public static var refusalKinds: [String] { APNsRejection.refusalKinds }
}

extension FCMService {
    /// The token states a fault can put an FCM registration token in (`ServiceFault.Effect.refuse(_:)`).
    public static var refusalKinds: [String] { FCMError.refusalKinds }
}

extension WNSService {
    /// The channel states a fault can put a WNS channel in (`ServiceFault.Effect.refuse(_:)`).
    public static var refusalKinds: [String] { WNSRejection.refusalKinds }
}

extension ServiceFault {
    /// What a request this fault hits gets from `service` (`apns`, `fcm`, `wns`), in a few words:
    /// `503 ServiceUnavailable`, `429 QUOTA_EXCEEDED with Retry-After: 30`, `the usual answer, 2s
    /// later`. For the control API's account of what an injected fault will do.
    public func answerSummary(service: String, anchor: CalendarAnchor) -> String {
        switch effect {
        case .slow(let d): return "the usual answer, \(d) later"
        case .lostAnswer: return "the usual work, but its answer is lost (the caller times out)"
        default: break
        }
        switch service {
        case APNsService.name:
            guard let r = APNsRejection.injected(self, anchor: anchor) else { break }
            return "\(r.status) \(r.reason)"
        case FCMService.name:
            guard let e = FCMError.injected(effect) else { break }
            let retry = e.response.headers["Retry-After"].map { " with Retry-After: \($0)" } ?? ""
            return "\(e.httpStatus) \(e.errorCode ?? e.status)\(retry)"
        case WNSService.name:
            guard let r = WNSRejection.injected(effect) else { break }
            let extra = r.headers.fields.map { " \($0.name): \($0.value)" }.joined(separator: ",")
            return "\(r.status) (\(r.description))" + (extra.isEmpty ? "" : " with" + extra)
        default: break
        }
        return effect.name
    }
}
