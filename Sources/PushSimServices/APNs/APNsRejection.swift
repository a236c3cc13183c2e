import PushSimNetwork

/// An APNs error answer: HTTP status plus the `reason` string, exactly as APNs sends them
/// (pns-fidelity.md §1.7, source A-RESP). The body is `{"reason":"…"}`; 410 adds `timestamp`
/// in milliseconds since the epoch (§1.8, A-RESP, A2-RS).
public struct APNsRejection: Error, Equatable, Sendable {
    public var status: Int
    public var reason: String
    /// Only for 410: when APNs last confirmed the token was invalid, ms since the Unix epoch.
    public var timestampMilliseconds: Int64?

    public init(_ status: Int, _ reason: String, timestampMilliseconds: Int64? = nil) {
        self.status = status
        self.reason = reason
        self.timestampMilliseconds = timestampMilliseconds
    }

    // 400 (§1.7)
    public static let badCollapseId = APNsRejection(400, "BadCollapseId")
    public static let badDeviceToken = APNsRejection(400, "BadDeviceToken")
    public static let badExpirationDate = APNsRejection(400, "BadExpirationDate")
    public static let badMessageId = APNsRejection(400, "BadMessageId")
    public static let badPriority = APNsRejection(400, "BadPriority")
    public static let badTopic = APNsRejection(400, "BadTopic")
    public static let deviceTokenNotForTopic = APNsRejection(400, "DeviceTokenNotForTopic")
    public static let duplicateHeaders = APNsRejection(400, "DuplicateHeaders")
    public static let invalidPushType = APNsRejection(400, "InvalidPushType")
    public static let missingDeviceToken = APNsRejection(400, "MissingDeviceToken")
    public static let missingTopic = APNsRejection(400, "MissingTopic")
    public static let payloadEmpty = APNsRejection(400, "PayloadEmpty")
    // 403
    public static let expiredProviderToken = APNsRejection(403, "ExpiredProviderToken")
    public static let invalidProviderToken = APNsRejection(403, "InvalidProviderToken")
    public static let missingProviderToken = APNsRejection(403, "MissingProviderToken")
    // 404, 405, 413, 429, 500, 503
    public static let badPath = APNsRejection(404, "BadPath")
    public static let methodNotAllowed = APNsRejection(405, "MethodNotAllowed")
    public static let payloadTooLarge = APNsRejection(413, "PayloadTooLarge")
    public static let tooManyProviderTokenUpdates = APNsRejection(429, "TooManyProviderTokenUpdates")
    /// Too many pushes to the same device token in a short time (A-RESP, A-FORUM-806522).
    public static let tooManyRequests = APNsRejection(429, "TooManyRequests")
    public static let internalServerError = APNsRejection(500, "InternalServerError")
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
