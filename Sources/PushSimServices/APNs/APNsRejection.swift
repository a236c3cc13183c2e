import PushSimNetwork

/// An APNs error answer: HTTP status plus the `reason` string, exactly as APNs sends them
/// (Citations §1.7, source A-RESP). The body is `{"reason":"…"}`; 410 adds `timestamp`
/// in milliseconds since the epoch (§1.8, A-RESP, A2-RS).
public struct APNsRejection: Error, Equatable, Sendable {
    /// HTTP status of the answer.
    public var status: Int
    /// The `reason` string of the JSON body, e.g. `BadDeviceToken`.
    public var reason: String
    /// Only for 410: when APNs last confirmed the token was invalid, ms since the Unix epoch.
    public var timestampMilliseconds: Int64?

    /// `timestampMilliseconds`: only for 410 `Unregistered`; nil leaves `timestamp` out of the body.
    public init(_ status: Int, _ reason: String, timestampMilliseconds: Int64? = nil) {
        self.status = status
        self.reason = reason
        self.timestampMilliseconds = timestampMilliseconds
    }

    // 400 (§1.7)
    /// `apns-collapse-id` longer than 64 bytes (A-SEND).
    public static let badCollapseId = APNsRejection(400, "BadCollapseId")
    /// The token is not even-length hex, or was not issued in this environment: sandbox tokens are
    /// unknown to production and the other way round (§1.5, A-RESP, A-FORUM-807380).
    public static let badDeviceToken = APNsRejection(400, "BadDeviceToken")
    /// `apns-expiration` is not a non-negative integer of Unix seconds (A-SEND).
    public static let badExpirationDate = APNsRejection(400, "BadExpirationDate")
    /// `apns-id` is not a canonical 8-4-4-4-12 UUID (A-SEND).
    public static let badMessageId = APNsRejection(400, "BadMessageId")
    /// `apns-priority` other than 10, 5 or 1, or priority 10 for a background push (A-SEND).
    public static let badPriority = APNsRejection(400, "BadPriority")
    /// The topic lacks the suffix the push type requires, e.g. `.voip` (§1.3).
    public static let badTopic = APNsRejection(400, "BadTopic")
    /// The token belongs to another app: the topic is not its bundle ID plus the push type's suffix
    /// (MDM pushes are exempt).
    public static let deviceTokenNotForTopic = APNsRejection(400, "DeviceTokenNotForTopic")
    /// A header APNs reads appears more than once (A-RESP).
    public static let duplicateHeaders = APNsRejection(400, "DuplicateHeaders")
    /// `apns-push-type` is not a value APNs knows (A-SEND).
    public static let invalidPushType = APNsRejection(400, "InvalidPushType")
    /// The path is `/3/device/` with no token after it (A-RESP).
    public static let missingDeviceToken = APNsRejection(400, "MissingDeviceToken")
    /// No `apns-topic`, or an empty one; required with token-based auth (A-SEND).
    public static let missingTopic = APNsRejection(400, "MissingTopic")
    /// The request has no body.
    public static let payloadEmpty = APNsRejection(400, "PayloadEmpty")
    // 403
    /// The provider token's `iat` is more than one hour old (§1.6, A-JWT).
    public static let expiredProviderToken = APNsRejection(403, "ExpiredProviderToken")
    /// The `authorization` header is not a valid ES256 provider token for a known key and team (§1.6, A-JWT).
    public static let invalidProviderToken = APNsRejection(403, "InvalidProviderToken")
    /// No `authorization` header, or an empty one (§1.6).
    public static let missingProviderToken = APNsRejection(403, "MissingProviderToken")
    // 404, 405, 413, 429, 500, 503
    /// The path is not `/3/device/<token>` (A-RESP).
    public static let badPath = APNsRejection(404, "BadPath")
    /// Any method but `POST` (A-RESP).
    public static let methodNotAllowed = APNsRejection(405, "MethodNotAllowed")
    /// Body over 4096 bytes, or 5120 for VoIP pushes (§1.4, A-GEN).
    public static let payloadTooLarge = APNsRejection(413, "PayloadTooLarge")
    /// A new provider token less than 20 minutes after the provider's previous new one (§1.6, A-JWT).
    public static let tooManyProviderTokenUpdates = APNsRejection(429, "TooManyProviderTokenUpdates")
    /// Too many pushes to the same device token in a short time (A-RESP, A-FORUM-806522).
    public static let tooManyRequests = APNsRejection(429, "TooManyRequests")
    /// Sent for an injected internal-error `ServiceFault`.
    public static let internalServerError = APNsRejection(500, "InternalServerError")
    /// Sent for an injected outage `ServiceFault`; no `Retry-After`, as APNs documents none.
    public static let serviceUnavailable = APNsRejection(503, "ServiceUnavailable")

    /// 410 `Unregistered` with the time APNs learned the token was no longer valid.
    public static func unregistered(timestampMilliseconds ms: Int64) -> APNsRejection {
        APNsRejection(410, "Unregistered", timestampMilliseconds: ms)
    }

    /// The response APNs sends: JSON body, `apns-id` header echoing the request's id.
    public func response(apnsID: String) -> HTTPResponse {
        var members: [(String, JSONValue)] = [("reason", .string(reason))]
        if let ms = timestampMilliseconds { members.append(("timestamp", .number(JSONNumber(ms)))) }
        return HTTPResponse(status: status, headers: ["apns-id": apnsID, "content-type": "application/json"],
                            text: JSONValue.object(members).serialized())
    }
}
