/// How one platform's OS lets the user allow or forbid an app's notifications: from which OS
/// version the app must ask (and the user may refuse before anything shows), whether the app may
/// ask provisionally, whether it has channels the user can turn off one by one, and where the user
/// changes it later. One entry per platform (``DevicePlatformProfile/permission``).
public struct NotificationPermissionRules: Sendable {
    /// The OS version from which a new install shows nothing until the app asks and the user
    /// allows (``NotificationPermission/notDetermined`` at install); nil when the OS never asks.
    public let promptSince: Int?
    /// The OS version from which an app may ask for provisional authorization; nil for never.
    public let provisionalSince: Int?
    /// The OS version from which notifications belong to channels the user can turn off one by
    /// one; nil for never.
    public let channelsSince: Int?
    /// What the OS calls the permission, for trace reasons (`UNAuthorizationStatus`, …).
    public let name: String
    /// Where the user changes it later, for trace reasons.
    public let settings: String

    /// iOS: every app asks with `requestAuthorization` before its alerts, sounds or badges show
    /// (the status is `notDetermined` until then), and may ask provisionally from iOS 12 (A-AUTH,
    /// A-PROVISIONAL); the user changes it in Settings > Notifications > the app.
    static let ios = NotificationPermissionRules(promptSince: 0, provisionalSince: 12, channelsSince: nil,
                                                 name: "UNAuthorizationStatus", settings: "Settings > Notifications")
    /// Android: from Android 13 (API 33) `POST_NOTIFICATIONS` is a runtime permission and a new
    /// install's notifications are off until the user grants it; before 13 they are on at install
    /// (AN-PERM). From Android 8 (API 26) every notification has a channel, which the user can turn
    /// off (importance `NONE`, AN-CHANNEL); Settings > Apps > Notifications turns all of them off.
    static let android = NotificationPermissionRules(promptSince: 13, provisionalSince: nil, channelsSince: 8,
                                                     name: "POST_NOTIFICATIONS", settings: "Settings > Apps > Notifications")
    /// Windows: an app's toasts show without asking; the user turns them off for the app in
    /// Settings > System > Notifications (W-SETTINGS).
    static let windows = NotificationPermissionRules(promptSince: nil, provisionalSince: nil, channelsSince: nil,
                                                     name: "the app's notifications switch", settings: "Settings > System > Notifications")

    /// The reason a notification is not shown under `status` (nil when it is shown).
    func reason(for status: NotificationPermission) -> String? {
        switch status {
        case .authorized, .provisional: return nil
        case .notDetermined: return "notifications are off until the app asks and the user allows (\(name): not-determined)"
        case .denied: return "the user turned the app's notifications off (\(name): denied; \(settings))"
        }
    }
}
