import PushSimKernel
import PushSimNetwork

/// Live Activities on APNs broadcast channels (iOS 18; Citations §1.20, AK-CHANNEL, A-LA-PUSH).
///
/// An app starts a Live Activity with `Activity.request(…, pushType: .channel(channelId))`, or a
/// push-to-start names the channel in `input-push-channel`; the system subscribes the device to
/// that channel (`POST /broadcast-channels` on the device channel, `DeviceChannel`), and every
/// broadcast APNs sends on it reaches the activity as an ActivityKit push: the same reading, rules
/// and limits as a push to an update token (`Device+LiveActivityPushes.swift`), minus `start`.
///
/// A broadcast comes to the app's device token and names its channel. The device answers 410
/// when no activity on the channel is still on the Lock Screen, and APNs then drops it from the
/// channel; nothing else tells APNs that an activity ended.
extension Device {
    /// The first iOS version that subscribes Live Activities to channels.
    public static let broadcastChannelsMinimumOS = 18

    /// Why an activity cannot start on `channel` now, nil when it may.
    func channelRefusal(_ channel: String) -> String? {
        guard osVersion >= Self.broadcastChannelsMinimumOS else { return "broadcast channels need iOS \(Self.broadcastChannelsMinimumOS) or later" }
        guard handle != nil else { return "the app has no device token yet" }
        if liveActivities.activities.contains(where: { $0.channel == channel && $0.isRunning(at: world.now) }) {
            return "a running Live Activity is already on this channel"
        }
        return nil
    }

    /// Subscribes the device to `channel` with its device token, then runs `then`; `refuse` gets
    /// APNs' answer when it refuses (no such channel for the app, an unknown token). Nothing runs
    /// when the app install that asked is gone by then.
    func subscribe(toChannel channel: String, refuse: @escaping (String) -> Void, then: @escaping () -> Void) {
        guard let handle else { return refuse("the app has no device token yet") }
        let ask = DeviceMembershipRequest(.channel, token: handle, name: channel)
        let request = HTTPRequest(method: "POST", authority: service.deviceHost, path: DeviceChannel.broadcastChannelsPath, body: ask.body)
        let generation = self.generation
        world.call(request, from: name) { [self] result in
            guard generation == self.generation else { return }
            guard result.status == 200 else { return refuse("APNs did not subscribe the device to channel \(channel): \(result.summary)") }
            then()
        }
    }

    /// A broadcast on `channel` reached the app's device token: 410 when no activity on the
    /// channel is still shown, else 200 and the activity takes it as a push to its token.
    func receiveBroadcast(_ request: HTTPRequest, channel: String, exchange: Exchange) {
        let message = request.headers[DeviceChannel.messageHeader] ?? ""
        guard let index = liveActivities.activityIndex(onChannel: channel, at: world.now) else {
            record(.devicePushRefused, [.message: .string(message), .channelID: .string(channel), .why: "no Live Activity on this channel"])
            return world.respond(to: exchange, with: HTTPResponse(status: 410))
        }
        world.respond(to: exchange, with: HTTPResponse(status: 200))
        record(.devicePushReceived, [.service: .string(request.headers[DeviceChannel.serviceHeader] ?? "?"), .message: .string(message),
                                     .channelID: .string(channel)])
        takeLiveActivityPush(request, target: .activity(index), message: message)
    }
}
