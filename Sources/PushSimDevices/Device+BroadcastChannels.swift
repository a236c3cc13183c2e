import PushSimKernel
import PushSimNetwork

/// A Live Activity the app started on an APNs broadcast channel, as small as the broadcast
/// simulation needs: the channel, the content state it shows and the timestamp of the last
/// update it took. (A fuller Live Activity model lives apart; this one only follows broadcasts.)
public struct BroadcastActivity: Sendable, Equatable {
    /// The channel id the app passed to ActivityKit (`pushType: .channel(<id>)`).
    public var channel: String
    /// The content state shown, as compact JSON text (`{}` until an update arrives, unless the
    /// app started the activity with one).
    public var contentState: String
    /// The `aps.timestamp` (Unix seconds) of the last update taken, nil before any.
    public var lastUpdateTimestamp: Int64?
    /// How many broadcasts the activity took.
    public var updates: Int
    /// Whether a broadcast with `"event": "end"` ended it (it keeps showing its final state).
    public var ended: Bool
}

/// Live Activities on broadcast channels (iOS 18; Citations §1.20, AK-CHANNEL, A-LA-PUSH).
///
/// An app starts a Live Activity with `Activity.request(…, pushType: .channel(channelId))`; the
/// OS subscribes the device to that channel (`POST /broadcast-channels` on the device channel,
/// `DeviceChannel`), and every broadcast APNs sends on it updates the activity. The broadcast's
/// payload is a Live Activity payload: `aps.event` (`update` or `end`), `aps.timestamp` (Unix
/// seconds) and `aps.content-state`. ActivityKit shows the newest update: one whose timestamp is
/// not later than the last one taken is ignored (A-LA-PUSH).
extension Device {
    /// The first iOS version that subscribes Live Activities to channels.
    public static let broadcastChannelsMinimumOS = 18

    /// The app starts a Live Activity on `channel` showing `contentState` (JSON text), and the OS
    /// subscribes the device to the channel. Ignored, with the reason, on a device that is not
    /// iOS 18 or later, while the app is not installed or has no device token yet, or for an
    /// activity already on that channel.
    public func startActivity(onChannel channel: String, contentState: String = "{}") {
        let ignore = { (why: String) in self.record(.deviceIgnored, [.action: "start activity", .channelID: .string(channel), .why: .string(why)]) }
        guard platform == .ios, osVersion >= Self.broadcastChannelsMinimumOS else {
            return ignore("broadcast channels need iOS \(Self.broadcastChannelsMinimumOS) or later")
        }
        guard isAppInstalled, let handle else { return ignore("the app is not installed or has no device token yet") }
        guard !broadcastActivities.contains(where: { $0.channel == channel }) else { return ignore("an activity is already on this channel") }
        let state = (try? JSONParser.parse(Array(contentState.utf8)))?.serialized() ?? "{}"
        broadcastActivities.append(BroadcastActivity(channel: channel, contentState: state, lastUpdateTimestamp: nil, updates: 0, ended: false))
        let ask = DeviceBroadcastSubscription(token: handle, channel: channel)
        let request = HTTPRequest(method: "POST", authority: service.deviceHost, path: DeviceChannel.broadcastChannelsPath, body: ask.body)
        let generation = self.generation
        world.call(request, from: name) { [self] result in
            guard generation == self.generation else { return }
            record(.activityStarted, [.channelID: .string(channel), .result: .string(result.summary)])
            // ActivityKit refuses the request when the subscription fails: no activity then.
            if result.status != 200 { broadcastActivities.removeAll { $0.channel == channel } }
        }
    }

    /// The activity on `channel`, nil when the app has none there.
    public func broadcastActivity(onChannel channel: String) -> BroadcastActivity? {
        broadcastActivities.first { $0.channel == channel }
    }

    /// A broadcast arrived on `channel`: 410 when the app has no activity there (APNs then drops
    /// the subscription), else 200, and the activity takes the update unless it is stale.
    func receiveBroadcast(_ request: HTTPRequest, channel: String, exchange: Exchange) {
        let message = request.headers[DeviceChannel.messageHeader] ?? ""
        guard let index = broadcastActivities.firstIndex(where: { $0.channel == channel }) else {
            record(.devicePushRefused, [.message: .string(message), .channelID: .string(channel), .why: "no Live Activity on this channel"])
            return world.respond(to: exchange, with: HTTPResponse(status: 410))
        }
        world.respond(to: exchange, with: HTTPResponse(status: 200))
        let ignore = { (why: String) in
            self.record(.activityBroadcastIgnored, [.message: .string(message), .channelID: .string(channel), .why: .string(why)])
        }
        // The same reading as a Live Activity token's push (LiveActivityPush, §1.14); a channel
        // carries updates and ends only.
        let push: LiveActivityPush
        switch LiveActivityPush.read(request.body) {
        case .failure(let ignored): return ignore(ignored.reason)
        case .success(let read): push = read
        }
        let event = push.event.rawValue
        guard push.event != .start else { return ignore("event start is not update or end") }
        var activity = broadcastActivities[index]
        guard !activity.ended else { return ignore("the activity has ended") }
        if let last = activity.lastUpdateTimestamp, push.timestamp <= last { return ignore("timestamp \(push.timestamp) is not newer than \(last)") }
        if let state = push.contentState { activity.contentState = state.serialized() }
        activity.lastUpdateTimestamp = push.timestamp
        activity.updates += 1
        activity.ended = push.event == .end
        broadcastActivities[index] = activity
        record(.activityBroadcastApplied, [.message: .string(message), .channelID: .string(channel), .event: .string(event),
                                           .contentState: .string(activity.contentState)])
    }
}
