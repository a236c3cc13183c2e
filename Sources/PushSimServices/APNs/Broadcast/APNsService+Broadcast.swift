import PushSimKernel
import PushSimNetwork

/// Broadcast push notifications (iOS 18; Citations §1.20, A-BCSEND, A-BCERR): `POST
/// /4/broadcasts/apps/<bundle id>` on the provider hosts, with the channel in `apns-channel-id`.
/// APNs checks the token and the request, then the channel, answers `200` with
/// `apns-request-id`, and sends the payload to every device subscribed to the channel.
///
/// A subscribed device that cannot be reached gets the broadcast later only on a "most recent
/// message stored" channel: APNs keeps the newest one per device and channel until its
/// `apns-expiration` (or ``APNsConfiguration/maxStorage``) and delivers it when the device
/// reconnects. On a "no message stored" channel, Apple asks for `apns-expiration: 0`, and a
/// broadcast with another expiration is refused with `BadExpirationDate` (A-BCSEND).
extension APNsService {
    /// A broadcast that passed the provider-token check: checks it and sends it to the channel.
    func processBroadcast(_ request: HTTPRequest, environment: String, requestID: String, reply: Reply, world: World) {
        let refuse = { (rejection: APNsRejection) in
            world.record(layer: "apns", host: Self.name, kind: .apnsRejected, [.status: .int(rejection.status), .reason: .string(rejection.reason)])
            reply.send(rejection.response(requestID: requestID), world: world)
        }
        let broadcast: BroadcastRequest
        switch BroadcastRequest.check(request) {
        case .failure(let rejection): return refuse(rejection)
        case .success(let checked): broadcast = checked
        }
        if configuration.appsWithoutBroadcast.contains(broadcast.app) { return refuse(.featureNotEnabled) }
        guard let channel = self.broadcast.registry.channel(id: broadcast.channelID, app: broadcast.app, environment: environment) else {
            return refuse(.channelNotRegistered)
        }
        if channel.policy == .noMessageStored, let e = broadcast.expiration, e != 0 { return refuse(.badExpirationDate) }
        let subscribers = self.broadcast.registry.subscribers(of: channel)
        world.record(layer: "apns", host: Self.name, kind: .apnsBroadcastAccepted,
                     [.apnsID: .string(requestID), .channelID: .string(channel.id), .copies: .int(subscribers.count)])
        reply.send(HTTPResponse(status: 200, headers: HTTPHeaders("apns-request-id", requestID)), world: world)
        for token in subscribers {
            guard let record = issued.recordReadInPlace(token), record.invalidatedAt == nil else {
                self.broadcast.registry.unsubscribe(token, from: channel)
                continue
            }
            let kept = BroadcastState.StoredBroadcast(channel: channel, token: token, device: record.device, messageID: requestID,
                                                      priority: broadcast.priority, payload: broadcast.payload,
                                                      correlation: world.correlation, expiresAt: expiry(of: broadcast, world: world))
            deliverBroadcast(kept, app: record.app, world: world)
        }
    }

    /// When a kept copy of `broadcast` stops being worth delivering: its `apns-expiration`, capped
    /// by ``APNsConfiguration/maxStorage``; now for `apns-expiration: 0` (one attempt only).
    private func expiry(of broadcast: BroadcastRequest, world: World) -> VirtualTime {
        let longest = world.now + configuration.maxStorage
        guard let e = broadcast.expiration else { return longest }
        if e == 0 { return world.now }
        return e <= world.anchor.unixSeconds(longest) ? min(longest, world.anchor.virtualTime(unixSeconds: e)) : longest
    }

    /// Hands one broadcast to one subscribed device; keeps it when the device cannot be reached
    /// and the channel stores messages.
    private func deliverBroadcast(_ b: BroadcastState.StoredBroadcast, app: String, world: World) {
        world.pushToDevice(service: Self.name, device: b.device, handle: b.token, app: app, message: b.messageID,
                           headers: [("apns-push-type", APNsPushType.liveactivity.rawValue), ("apns-priority", String(b.priority)),
                                     (DeviceChannel.channelHeader, b.channel.id)],
                           payload: b.payload) { [self] status in
            switch status {
            case 200?:
                world.record(layer: "apns", host: Self.name, kind: .apnsDelivered,
                             [.apnsID: .string(b.messageID), .device: .string(b.device), .channelID: .string(b.channel.id)])
            case nil:
                keepBroadcast(b, world: world)
            default:
                // The device has no activity on the channel any more (or the app is gone): it leaves the channel.
                broadcast.registry.unsubscribe(b.token, from: b.channel)
                world.record(layer: "apns", host: Self.name, kind: .apnsChannelSubscribed,
                             [.device: .string(b.device), .channelID: .string(b.channel.id), .why: "left: no activity on the device any more"])
            }
        }
    }

    /// A subscribed device could not be reached: keep the broadcast on a "most recent message
    /// stored" channel (replacing an older one for the same device), else drop it.
    private func keepBroadcast(_ b: BroadcastState.StoredBroadcast, world: World) {
        guard b.channel.policy == .mostRecentMessageStored else {
            return world.record(layer: "apns", host: Self.name, kind: .notificationDropped,
                                [.apnsID: .string(b.messageID), .device: .string(b.device), .channelID: .string(b.channel.id),
                                 .reason: "device unreachable and the channel stores no messages"])
        }
        guard b.expiresAt > world.now else {
            return world.record(layer: "apns", host: Self.name, kind: .notificationDropped,
                                [.apnsID: .string(b.messageID), .device: .string(b.device), .reason: "device unreachable and apns-expiration has passed"])
        }
        let key = BroadcastState.key(device: b.device, channel: b.channel)
        if let older = broadcast.stored[key] {
            world.record(layer: "apns", host: Self.name, kind: .notificationDropped,
                         [.apnsID: .string(older.messageID), .reason: "replaced by a newer broadcast on the channel (APNs keeps the most recent)"])
        }
        broadcast.stored[key] = b
        world.record(layer: "apns", host: Self.name, kind: .apnsStored,
                     [.apnsID: .string(b.messageID), .device: .string(b.device), .channelID: .string(b.channel.id)])
    }

    /// One line per broadcast still kept for an unreachable device, by device and channel.
    func broadcastLeftovers() -> [Leftover] {
        broadcast.stored.keys.sorted().compactMap { key in
            broadcast.stored[key].map {
                Leftover("broadcast \($0.messageID) on channel \($0.channel.id) kept for \($0.device), undelivered", pendingIDs: [$0.messageID])
            }
        }
    }

    /// Sends the broadcasts kept for `device`, which just reconnected.
    func flushBroadcasts(device: String, world: World) {
        for b in broadcast.takeStored(device: device) {
            world.inCorrelation(b.correlation) {
                guard b.expiresAt > world.now else {
                    return world.record(layer: "apns", host: Self.name, kind: .notificationDropped,
                                        [.apnsID: .string(b.messageID), .reason: "expired while the device was unreachable"])
                }
                guard let record = issued.recordReadInPlace(b.token), record.invalidatedAt == nil,
                      broadcast.registry.channel(id: b.channel.id, app: b.channel.app, environment: b.channel.environment) != nil else { return }
                deliverBroadcast(b, app: record.app, world: world)
            }
        }
    }

    /// A device's `POST /broadcast-channels`: its app started (or ended) a Live Activity on a
    /// channel. The token names the device, app and environment; the channel must exist for them.
    func answerBroadcastSubscription(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let notFound = { (why: String) in
            world.respond(to: exchange, with: HTTPResponse(status: 404, headers: ["content-type": "application/json"],
                                                           text: JSONValue.object([("error", .string(why))]).serialized()))
        }
        guard let ask = DeviceMembershipRequest(.channel, body: request.body) else { return notFound("body is not a subscription") }
        guard let record = issued.recordReadInPlace(ask.token), record.device == exchange.caller, record.invalidatedAt == nil else {
            return notFound("unknown device token")
        }
        guard let channel = broadcast.registry.channel(id: ask.name, app: record.app, environment: record.environment) else {
            return notFound("no such channel for this app in the \(record.environment) environment")
        }
        if ask.delete {
            broadcast.registry.unsubscribe(ask.token, from: channel)
        } else {
            _ = broadcast.registry.subscribe(ask.token, to: channel)
        }
        world.record(layer: "apns", host: Self.name, kind: .apnsChannelSubscribed,
                     [.device: .string(record.device), .channelID: .string(channel.id), .why: .string(ask.delete ? "left" : "joined")])
        world.respond(to: exchange, with: HTTPResponse(status: 200, headers: ["content-type": "application/json"], text: "{}"))
    }
}
