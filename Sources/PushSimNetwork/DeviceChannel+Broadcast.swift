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
