import PushSimKernel

/// Whether the OS lets an app put notifications in front of the user, in the words of Apple's
/// `UNAuthorizationStatus` (A-AUTH), which Android's and Windows' settings map onto: Android 13's
/// `POST_NOTIFICATIONS` granted or not (AN-PERM), Windows' per-app notifications switch (W-SETTINGS).
///
/// Only what the user sees depends on it: the push service accepts and delivers either way, and a
/// background push, a data message or a raw notification still reaches the app.
public enum NotificationPermission: String, Sendable, CaseIterable {
    /// The app has not asked yet (`notDetermined`): iOS, and Android from 13 (API 33), show nothing
    /// until the user allows it (A-AUTH, AN-PERM: a new install's notifications are off until then).
    case notDetermined = "not-determined"
    /// The user answered Don't Allow, or turned the app's notifications off in Settings.
    case denied
    /// The user allowed notifications (or, before Android 13 and on Windows, nobody had to).
    case authorized
    /// iOS 12 and later, an app that asked for `.provisional`: its notifications go quietly to
    /// Notification Center, with no banner and no sound, until the user keeps or turns them off
    /// (A-PROVISIONAL).
    case provisional

    /// Whether a notification is put in front of the user at all (quietly when ``provisional``).
    public var shows: Bool { self == .authorized || self == .provisional }
}

/// The user's side of notification permission for the app on one device: what they answer when
/// the app asks, the status now, and (Android) the channels they turned off. Kept apart from the
/// device so that any platform with a permission of its own can hold one.
public struct NotificationSettings: Sendable, Equatable {
    /// What the user answers when the app asks at its first launch (both sample apps ask then):
    /// ``NotificationPermission/authorized`` (Allow, the default), ``NotificationPermission/denied``
    /// (Don't Allow), or ``NotificationPermission/provisional`` when the app asks provisionally
    /// (iOS shows no prompt then). The user answers alike every time the app is installed again.
    public internal(set) var answer: NotificationPermission = .authorized
    /// The status now: ``NotificationPermission/notDetermined`` while the app is not installed.
    public internal(set) var status: NotificationPermission = .notDetermined
    /// The Android notification channels the user turned off (importance `NONE`, AN-CHANNEL), sorted.
    public internal(set) var disabledChannels: [String] = []

    /// Settings of an app not installed yet, whose user will allow notifications when asked.
    public init() {}

    /// The status a new install starts with on a platform whose OS asks the user for permission
    /// from OS version `promptSince` (nil: it never asks, notifications are on at install): the
    /// user's ``answer`` where the OS asks, else ``NotificationPermission/authorized``.
    func statusAtInstall(osVersion: Int, promptSince: Int?) -> NotificationPermission {
        guard let promptSince, osVersion >= promptSince else { return .authorized }
        return answer
    }

    /// Turns a channel off (`enabled` false) or on again.
    mutating func setChannel(_ id: String, enabled: Bool) {
        disabledChannels.removeAll { $0 == id }
        if !enabled { disabledChannels.append(id); disabledChannels.sort() }
    }
}
