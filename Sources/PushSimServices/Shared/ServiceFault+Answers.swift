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
    static func injected(_ effect: ServiceFault.Effect) -> APNsRejection? {
        switch effect {
        case .outage: return .serviceUnavailable
        case .throttle: return .tooManyRequests
        case .internalError: return .internalServerError
        case .slow: return nil
        }
    }
}

extension FCMError {
    /// FCM HTTP v1 (Citations §2.3–§2.4, sources F-ERR, F-QUOTA): outage → 503 `UNAVAILABLE`,
    /// throttle → 429 `RESOURCE_EXHAUSTED` with FcmError `QUOTA_EXCEEDED`, both with `Retry-After`
    /// in whole seconds (rounded up, at least 1); internal error → 500 `INTERNAL`. Nil for `.slow`.
    static func injected(_ effect: ServiceFault.Effect) -> FCMError? {
        switch effect {
        case .outage(let d): return .unavailable(retryAfter: retryAfterSeconds(d))
        case .throttle(let d): return .quotaExceeded(retryAfter: retryAfterSeconds(d))
        case .internalError: return .internalError
        case .slow: return nil
        }
    }
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
        case .slow: return nil
        }
    }
}

/// A `Retry-After`-style whole number of seconds: rounded up, at least 1.
func retryAfterSeconds(_ d: VirtualDuration) -> Int {
    max(1, Int(d.secondsRoundedUp))
}
