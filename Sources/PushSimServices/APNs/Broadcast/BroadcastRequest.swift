import PushSimKernel
import PushSimNetwork

/// A broadcast push as `POST /4/broadcasts/apps/<bundle id>` asks for it, checked as APNs checks
/// it (Citations §1.20, A-BCSEND, A-BCERR), in this order: the path names a bundle id (404
/// `BadPath`), `POST` (405), `apns-channel-id` present (`MissingChannelId`) and well formed
/// (`BadChannelId`), `apns-push-type` present (`MissingPushType`) and `liveactivity`
/// (`InvalidPushType`), `apns-priority` 10, 5 or 1 (`BadPriority`; 10 when absent),
/// `apns-expiration` Unix seconds (`BadExpirationDate`), a body (`PayloadEmpty`) of at most
/// 4096 bytes (413 `PayloadTooLarge`, the Live Activity limit of §1.4). The channel itself is
/// looked up afterwards (`ChannelNotRegistered`), as Apple validates the channel after the request.
struct BroadcastRequest {
    /// The path prefix of broadcasts, on the provider hosts.
    static let pathPrefix = "/4/broadcasts/apps/"

    /// The bundle id from the path.
    var app: String
    /// `apns-channel-id`.
    var channelID: String
    /// `apns-priority`: 10, 5 or 1.
    var priority: Int
    /// `apns-expiration` in Unix seconds, nil when absent.
    var expiration: Int64?
    /// The payload, handed to every subscribed device as it is.
    var payload: [UInt8]

    /// Reads `request`, or gives the rejection APNs answers it with.
    static func check(_ request: HTTPRequest) -> Result<BroadcastRequest, APNsRejection> {
        guard let app = BroadcastChannelIDCheck.bundleID(in: request.path, prefix: pathPrefix, suffix: "") else { return .failure(.badPath) }
        guard request.method == "POST" else { return .failure(.methodNotAllowed) }
        let channelID: String
        switch BroadcastChannelIDCheck.channelID(of: request) {
        case .failure(let rejection): return .failure(rejection)
        case .success(let id): channelID = id
        }
        guard let pushType = request.headers["apns-push-type"] else { return .failure(.missingPushType) }
        guard pushType == APNsPushType.liveactivity.rawValue else { return .failure(.invalidPushType) }
        do throws(APNsRejection) {
            let priority = try APNsHeaderRules.priority(request.headers["apns-priority"]) ?? 10
            let expiration = try APNsHeaderRules.expiration(request.headers["apns-expiration"])
            try APNsHeaderRules.checkPayload(request.body, limit: APNsPushType.liveactivity.maxPayloadBytes)
            return .success(BroadcastRequest(app: app, channelID: channelID, priority: priority, expiration: expiration, payload: request.body))
        } catch { return .failure(error) }
    }
}
