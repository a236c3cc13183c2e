/// A browser's notification permission for the page's origin, as `Notification.permission`
/// reads it (WHATWG Notifications API, "permission model"; Citations, NOTIF-API).
///
/// A push subscription needs `granted`: the Push API's `subscribe()` asks the user when the
/// permission is `default` and rejects with `NotAllowedError` when it ends up anything but
/// `granted` (W3C Push API, `subscribe()` steps; Citations, PUSH-API).
public enum WebNotificationPermission: String, Sendable, CaseIterable {
    /// The user has not decided: asking (`Notification.requestPermission()`) shows the prompt.
    case `default`
    /// The user allowed notifications for the origin.
    case granted
    /// The user blocked notifications for the origin: no prompt is shown again.
    case denied
}

/// How the simulated user answers the permission prompt when a page asks while the permission is
/// ``WebNotificationPermission/default``: PushSim's user allows unless a scenario says they deny.
public enum PermissionPromptAnswer: String, Sendable, CaseIterable {
    /// The user clicks Allow: the permission becomes `granted`.
    case allow
    /// The user clicks Block: the permission becomes `denied`.
    case deny
}
