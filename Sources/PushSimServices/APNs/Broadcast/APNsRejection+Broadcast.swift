import PushSimKernel
import PushSimNetwork

/// The errors of the broadcast API (channel management and `POST /4/broadcasts/apps/…`), with
/// the statuses of Apple's broadcast error table (Citations §1.20, A-BCERR). Their answers carry
/// `apns-request-id`, not `apns-id` (``response(requestID:)``).
extension APNsRejection {
    /// No `apns-channel-id` header on a request that names a channel (read, delete, broadcast).
    public static let missingChannelId = APNsRejection(400, "MissingChannelId")
    /// `apns-channel-id` is not properly encoded (standard base64) or longer than allowed.
    public static let badChannelId = APNsRejection(400, "BadChannelId")
    /// The channel in `apns-channel-id` does not exist for this app in this environment (never
    /// created, or deleted).
    public static let channelNotRegistered = APNsRejection(400, "ChannelNotRegistered")
    /// The app already has the most channels allowed (10,000) in this environment.
    public static let cannotCreateChannelConfig = APNsRejection(400, "CannotCreateChannelConfig")
    /// The app's App ID does not have the Broadcast capability (``APNsConfiguration/appsWithoutBroadcast``).
    public static let featureNotEnabled = APNsRejection(400, "FeatureNotEnabled")
    /// A broadcast without an `apns-push-type` header.
    public static let missingPushType = APNsRejection(400, "MissingPushType")
    /// A create request whose body is not a JSON object with `message-storage-policy` 0 or 1.
    /// Apple's table names no reason for it; PushSim answers 400 `BadRequest` (Fidelity).
    public static let badChannelConfiguration = APNsRejection(400, "BadRequest")

    /// The answer of the broadcast API: status, `{"reason":…}` and `apns-request-id` (the
    /// request's own, or one APNs made up: A-BCERR).
    public func response(requestID: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["apns-request-id": requestID, "content-type": "application/json"],
                     text: JSONValue.object([("reason", .string(reason))]).serialized())
    }
}

/// Checks shared by the channel management API and broadcasts (Citations §1.20, A-BCERR).
enum BroadcastChannelIDCheck {
    /// The longest `apns-channel-id` PushSim takes, in characters. Apple says only that a longer
    /// one than allowed is `BadChannelId` and gives no figure; APNs' own ids are 24 characters.
    static let maxLength = 128

    /// The channel id of `request`, or the rejection for a missing or malformed one.
    static func channelID(of request: HTTPRequest) -> Result<String, APNsRejection> {
        guard let id = request.headers["apns-channel-id"], !id.isEmpty else { return .failure(.missingChannelId) }
        guard id.utf8.count <= maxLength, let bytes = Base64.decode(id), !bytes.isEmpty,
              !id.containsByte(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            return .failure(.badChannelId)
        }
        return .success(id)
    }

    /// The bundle id in `path` after `prefix` and before `suffix` (`/1/apps/<id>/channels`), nil
    /// when it is empty or holds a `/`.
    static func bundleID(in path: String, prefix: String, suffix: String) -> String? {
        guard path.hasBytePrefix(prefix), path.hasByteSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count else { return nil }
        let bytes = Array(path.utf8).dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
        let id = String(decoding: bytes, as: UTF8.self)
        return id.isEmpty || id.containsByte(where: { $0 == UInt8(ascii: "/") }) ? nil : id
    }
}
