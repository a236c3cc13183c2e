import PushSimKernel
import PushSimNetwork

/// Live Activity tokens at the fake APNs (Citations §1.14–§1.16, A-LA-PUSH, A-RESP).
///
/// ActivityKit asks APNs for two kinds of token on the app's behalf (``LiveActivityTokenRequest``):
/// a push-to-start token per attributes type and an update token per running activity. Both are
/// drawn from the APNs random stream as device tokens are, 32 bytes of hex (Apple gives no
/// length; apps must not assume one, A-DTOK).
///
/// A send to such a token must be `apns-push-type: liveactivity` with the topic
/// `<bundle id>.push-type.liveactivity` (the suffix itself is checked for every push type, §1.3);
/// anything else is 400 `DeviceTokenNotForTopic`, as a device token is for a `liveactivity` push.
/// APNs does not read `aps`: a payload the device cannot use is accepted and ignored there, which
/// is what developers report for a start or update that never shows (A-FORUM-777566, -776165).
/// Once the device has refused a push because the token's activity is gone (dismissed, or the app
/// removed), sends get 410 `ExpiredToken` with that moment as `timestamp` (A-RESP), after the same
/// ``APNsConfiguration/unregisteredReportDelay`` as `Unregistered`.
extension APNsService {
    /// Answers a device's `POST /live-activity-token`: the same token for the same request, a new
    /// one (traced `apns.token-issued`) otherwise; 400 for a malformed body.
    func answerLiveActivityToken(_ request: HTTPRequest, exchange: Exchange, world: World) {
        guard let ask = LiveActivityTokenRequest(body: request.body), ask.install > 0, ask.generation > 0 else {
            return world.respond(to: exchange, with: HTTPResponse(status: 400, text: "malformed live activity token request"))
        }
        let (token, isNew) = liveActivityTokens.token(for: ask, device: exchange.caller, now: world.now, make: { random.hex(bytes: 32) })
        if isNew {
            world.record(layer: "apns", host: Self.name, kind: .apnsTokenIssued,
                         [.device: .string(exchange.caller), .app: .string(ask.app), .handle: .string(shortToken(token)),
                          .why: .string("Live Activity \(ask.kind.rawValue) token for \(ask.subject)")])
        }
        world.respond(to: exchange, with: HTTPResponse(status: 200, headers: ["content-type": "application/json"],
                                                       text: JSONValue.object([("token", .string(token))]).serialized()))
    }

    /// A send to a Live Activity token that passed the request checks: the push type and topic
    /// must be the Live Activity ones, an injected fault aimed at the device or app applies, and
    /// the token must not be expired; then it goes as any push.
    func acceptLiveActivity(_ notification: APNsNotification, target: APNsLiveActivityTokenRecord, reply: Reply, world: World) {
        let suffix = APNsPushType.liveactivity.topicSuffix ?? ""
        guard notification.pushType == .liveactivity, notification.topic == target.app + suffix else {
            return reject(.deviceTokenNotForTopic, id: notification.apnsID, reply: reply, world: world)
        }
        var reply = reply
        if let rejection = targetedFault(for: notification, record: target.handleRecord, reply: &reply, world: world) {
            return reject(rejection, id: notification.apnsID, reply: reply, world: world)
        }
        if let expired = target.expiredAt, world.now >= expired + configuration.unregisteredReportDelay {
            return reject(.expiredToken(timestampMilliseconds: world.anchor.unixMilliseconds(expired)),
                          id: notification.apnsID, reply: reply, world: world)
        }
        accept(notification, record: target.handleRecord, reply: reply, world: world)
    }
}

extension APNsRejection {
    /// 410 `ExpiredToken`, "the device token has expired" in Apple's table (A-RESP): a Live
    /// Activity token whose activity is gone. `timestamp` is sent as for any 410 (§1.16; whether
    /// APNs sends it with this reason is unconfirmed, §7).
    public static func expiredToken(timestampMilliseconds ms: Int64) -> APNsRejection {
        APNsRejection(410, "ExpiredToken", timestampMilliseconds: ms)
    }
}
