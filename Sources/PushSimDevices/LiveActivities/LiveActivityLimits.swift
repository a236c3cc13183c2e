import PushSimKernel

/// The limits ActivityKit documents for a Live Activity (Citations §1.17).
public enum LiveActivityLimits {
    /// How long a Live Activity can stay active: eight hours, after which the system ends it
    /// (A-LA-DISPLAY, "Displaying live data with Live Activities").
    public static let longestActive = VirtualDuration.hours(8)
    /// How long an ended Live Activity stays on the Lock Screen at most: four hours, the default
    /// dismissal policy; a `dismissal-date` can only make it shorter (A-LA-DISMISS,
    /// `ActivityUIDismissalPolicy.default` and `.after(_:)`).
    public static let longestShownAfterEnd = VirtualDuration.hours(4)
    /// The oldest iOS that runs Live Activities (16.1; whole versions only here, so 16), and the
    /// oldest that starts one by push (17.2, written 17) (A-LA-PUSH).
    public static let firstOS = 16
    /// See ``firstOS``: push-to-start came with iOS 17.2.
    public static let firstPushToStartOS = 17
}
