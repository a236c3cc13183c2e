import PushSimKernel

/// A notification that reached the device but was not shown, because the user's notification
/// settings for the app did not let it (``NotificationPermission``, a turned-off channel).
public struct SuppressedNotification: Sendable, Equatable {
    /// When it arrived.
    public var time: VirtualTime
    /// The text it would have shown; nil for a badge or a sound without text.
    public var text: String?
    /// `apns`, `fcm` or `wns`.
    public var service: String
    /// Why it was not shown, in words (also the trace's `reason`).
    public var reason: String

    /// A notification not shown at `time`, for `reason`.
    public init(time: VirtualTime, text: String?, service: String, reason: String) {
        self.time = time; self.text = text; self.service = service; self.reason = reason
    }
}
