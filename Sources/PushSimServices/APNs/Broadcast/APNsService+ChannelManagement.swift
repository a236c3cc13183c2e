import PushSimKernel
import PushSimNetwork

/// The channel management API of APNs broadcast (iOS 18; Citations §1.20, A-BCMANAGE, A-BCERR),
/// on its own hosts: ``APNsService/channelManagementProductionHost`` (port 2196) and
/// ``APNsService/channelManagementSandboxHost`` (port 2195). Authenticated by the same provider
/// tokens as sends (A-JWT). Every answer carries `apns-request-id`: the request's, or a new UUID.
/// A service-wide injected fault (an outage, throttling, an internal error, a slow or lost answer)
/// hits these hosts as it hits the provider API: the API is part of APNs.
///
/// | request | answer |
/// |---|---|
/// | `POST /1/apps/<bundle id>/channels`, body `{"message-storage-policy": 0\|1, "push-type": "LiveActivity"}` | `201`, `apns-channel-id: <new id>` |
/// | `GET /1/apps/<bundle id>/channels`, `apns-channel-id` | `200 {"message-storage-policy": …, "push-type": "LiveActivity"}` |
/// | `DELETE /1/apps/<bundle id>/channels`, `apns-channel-id` | `204` |
/// | `GET /1/apps/<bundle id>/all-channels` | `200 {"channels": [<id>, …]}` |
extension APNsService {
    /// `api-manage-broadcast.push.apple.com` (port 2196): channels of the production environment.
    public static let channelManagementProductionHost = "api-manage-broadcast.push.apple.com"
    /// `api-manage-broadcast.sandbox.push.apple.com` (port 2195): channels of the sandbox.
    public static let channelManagementSandboxHost = "api-manage-broadcast.sandbox.push.apple.com"
    /// Both channel management hosts.
    public static var channelManagementHosts: [String] { [channelManagementProductionHost, channelManagementSandboxHost] }
    /// The path prefix of the channel management API.
    static let appsPathPrefix = "/1/apps/"

    /// Answers a request to a channel management host.
    func handleChannelManagement(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let environment = request.authority == Self.channelManagementProductionHost ? "production" : "sandbox"
        // Drawn on every request, so the apns stream moves the same whatever the request holds.
        let requestID = request.headers["apns-request-id"] ?? random.uuidString()
        var reply = Reply(exchange: exchange)
        let fault = serviceFault(&reply, world: world)
        let answer = { [reply] (response: HTTPResponse) in reply.send(response, world: world) }
        let refuse = { (rejection: APNsRejection) in
            world.record(layer: "apns", host: Self.name, kind: .apnsRejected, [.status: .int(rejection.status), .reason: .string(rejection.reason)])
            answer(rejection.response(requestID: requestID))
        }
        if let fault { return refuse(fault) }
        if let rejection = providerTokens.check(request.headers["authorization"], caller: exchange.caller, now: world.now,
                                                stampClock: world.unixSeconds(judging: exchange.caller)) {
            return refuse(rejection)
        }
        if let app = BroadcastChannelIDCheck.bundleID(in: request.path, prefix: Self.appsPathPrefix, suffix: "/channels") {
            if configuration.appsWithoutBroadcast.contains(app) { return refuse(.featureNotEnabled) }
            switch request.method {
            case "POST": return createChannel(request, app: app, environment: environment, requestID: requestID, world: world, answer: answer, refuse: refuse)
            case "GET", "DELETE":
                let id: String
                switch BroadcastChannelIDCheck.channelID(of: request) {
                case .failure(let rejection): return refuse(rejection)
                case .success(let found): id = found
                }
                guard let channel = broadcast.registry.channel(id: id, app: app, environment: environment) else {
                    return refuse(.channelNotRegistered)
                }
                if request.method == "GET" {
                    let body = JSONValue.object([("message-storage-policy", .number(JSONNumber(Int64(channel.policy.rawValue)))),
                                                 ("push-type", .string("LiveActivity"))])
                    return answer(HTTPResponse(status: 200, headers: ["apns-request-id": requestID, "apns-channel-id": id,
                                                                      "content-type": "application/json"], text: body.serialized()))
                }
                deleteChannel(channel, world: world)
                return answer(HTTPResponse(status: 204, headers: HTTPHeaders("apns-request-id", requestID)))
            default: return refuse(.methodNotAllowed)
            }
        }
        if let app = BroadcastChannelIDCheck.bundleID(in: request.path, prefix: Self.appsPathPrefix, suffix: "/all-channels") {
            guard request.method == "GET" else { return refuse(.methodNotAllowed) }
            if configuration.appsWithoutBroadcast.contains(app) { return refuse(.featureNotEnabled) }
            let ids = broadcast.registry.ids(app: app, environment: environment).map { JSONValue.string($0) }
            return answer(HTTPResponse(status: 200, headers: ["apns-request-id": requestID, "content-type": "application/json"],
                                       text: JSONValue.object([("channels", .array(ids))]).serialized()))
        }
        refuse(.badPath)
    }

    /// `POST …/channels`: checks the body, then makes the channel unless the app is at its limit.
    private func createChannel(_ request: HTTPRequest, app: String, environment: String, requestID: String, world: World,
                               answer: (HTTPResponse) -> Void, refuse: (APNsRejection) -> Void) {
        guard let json = try? JSONParser.parse(request.body), case .object = json else { return refuse(.badChannelConfiguration) }
        // "The only allowed value is LiveActivity" (A-BCERR).
        guard json["push-type"]?.stringValue == "LiveActivity" else { return refuse(.invalidPushType) }
        guard let raw = json["message-storage-policy"]?.int64Value, let policy = BroadcastMessageStoragePolicy(rawValue: Int(clamping: raw)) else {
            return refuse(.badChannelConfiguration)
        }
        let id = Base64.encode(random.bytes(16))
        let channel = BroadcastChannel(id: id, app: app, environment: environment, policy: policy, createdAt: world.now)
        guard broadcast.registry.add(channel) else { return refuse(.cannotCreateChannelConfig) }
        world.record(layer: "apns", host: Self.name, kind: .apnsChannelCreated,
                     [.channelID: .string(id), .app: .string(app), .policy: .string(policy.word)])
        answer(HTTPResponse(status: 201, headers: ["apns-request-id": requestID, "apns-channel-id": id]))
    }

    /// Deletes `channel`: its subscribers stop getting its broadcasts and what was kept for
    /// offline devices is dropped.
    func deleteChannel(_ channel: BroadcastChannel, world: World) {
        _ = broadcast.registry.remove(id: channel.id, app: channel.app, environment: channel.environment)
        broadcast.dropStored(channel: channel, world: world)
        world.record(layer: "apns", host: Self.name, kind: .apnsChannelDeleted, [.channelID: .string(channel.id), .app: .string(channel.app)])
    }
}

extension APNsService {
    /// The channels `app` has in `environment` (`production` or `sandbox`), oldest first: what
    /// `GET /1/apps/<app>/all-channels` lists.
    public func broadcastChannels(app: String, environment: String) -> [BroadcastChannel] {
        broadcast.registry.ids(app: app, environment: environment).compactMap {
            broadcast.registry.channel(id: $0, app: app, environment: environment)
        }
    }
}
