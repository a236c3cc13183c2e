import PushSimKernel

/// The device channel's part for APNs broadcast channels (iOS 18): an app that starts a Live
/// Activity with ActivityKit's `pushType: .channel(<channel id>)` has its OS subscribe the device
/// to that channel, and APNs hands each broadcast on the channel to the subscribed devices
/// (Citations §1.20, A-BCMANAGE, A-BCSEND, AK-CHANNEL). The real subscription travels on Apple's
/// private connection; PushSim sends it as the device channel's `POST /broadcast-channels`:
///
/// | request | body | answer |
/// |---|---|---|
/// | `POST /broadcast-channels` (device → APNs) | `{"channel": <channel id>, "delete": false, "token": <the app's device token>}` | `200 {}`; `404 {"error": …}` for a channel or token APNs does not know |
/// | `POST /push` with `x-pushsim-channel` (APNs → device) | the broadcast's payload | `200` applied to the activity; `410` no activity on the channel any more |
extension DeviceChannel {
    /// Where a device subscribes to a broadcast channel or leaves it: `POST /broadcast-channels`.
    public static let broadcastChannelsPath = "/broadcast-channels"
    /// Marks a push that is a broadcast on a channel, and names the channel.
    public static let channelHeader = "x-pushsim-channel"
}

/// Parsed body of a device's `POST /broadcast-channels`.
package struct DeviceBroadcastSubscription: Sendable, Equatable {
    /// The app's APNs device token: it tells APNs the device, the app and the environment.
    public var token: String
    /// The channel id APNs gave when the channel was created (base64 text).
    public var channel: String
    /// True to leave the channel (the activity ended), false to join it.
    public var delete: Bool

    /// A request for the app holding `token` to join (or, with `delete`, leave) `channel`.
    public init(token: String, channel: String, delete: Bool = false) {
        self.token = token
        self.channel = channel
        self.delete = delete
    }

    /// Reads a `POST /broadcast-channels` body: nil unless it is JSON with string `token` and
    /// `channel`; a missing `delete` is false.
    public init?(body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), let token = json["token"]?.stringValue,
              let channel = json["channel"]?.stringValue else { return nil }
        self.init(token: token, channel: channel, delete: json["delete"]?.boolValue ?? false)
    }

    /// The JSON body, keys sorted.
    public var body: [UInt8] {
        JSONValue.object([("channel", .string(channel)), ("delete", .bool(delete)), ("token", .string(token))]).serializedBytes()
    }
}
