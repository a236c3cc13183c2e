import PushSimKernel
import PushSimNetwork

/// The user's notification permission for the app (``NotificationSettings``, by the platform's
/// ``NotificationPermissionRules``). The push service never knows: it accepts and delivers, the
/// device takes the push (200), and only what the user sees changes, with the reason in the trace
/// (`notification.suppressed`). Background pushes, data messages and raw notifications still reach
/// the app (A-AUTH, AN-PERM, W-SETTINGS; Citations §10).
extension Device {
    /// The id of the channel a notification goes to when it names none: the one FCM's SDK makes
    /// for messages without a channel (AN-CHANNEL, FA-ANDROID-CHANNEL); the sample app posts its own
    /// notifications there too.
    public static let fallbackChannel = "fcm_fallback_notification_channel"

    private var permissionRules: NotificationPermissionRules { platform.profile.permission }

    /// The user forbids the app's notifications: turns them off in Settings (the app is installed),
    /// or will answer Don't Allow when the app asks at its first launch (it is not). Where the OS
    /// never asks (Android before 13, Windows) an answer given before the install changes nothing.
    public func denyNotifications() { answer(.denied) }

    /// The user allows the app's notifications: turns them on in Settings, or will answer Allow.
    public func allowNotifications() { answer(.authorized) }

    /// The app asks for provisional authorization (iOS 12 and later, A-PROVISIONAL): no prompt;
    /// its notifications go quietly to Notification Center. Once the user has chosen (allowed or
    /// denied) asking provisionally changes nothing, as on iOS. Ignored, with the reason, elsewhere.
    public func allowNotificationsProvisionally() {
        guard let since = permissionRules.provisionalSince, osVersion >= since else {
            return record(.deviceIgnored, [.action: "allow-notifications-provisionally",
                                           .why: "provisional authorization is iOS 12's and later's"])
        }
        if isAppInstalled, notificationSettings.status != .notDetermined, notificationSettings.status != .provisional {
            return record(.deviceIgnored, [.action: "allow-notifications-provisionally",
                                           .why: "the user already chose (\(notificationSettings.status.rawValue)): no provisional request changes that"])
        }
        answer(.provisional)
    }

    /// The user turns an Android notification channel off (importance `NONE`) or on again
    /// (AN-CHANNEL). Ignored, with the reason, on other platforms and before Android 8.
    public func setNotificationChannel(_ id: String, enabled: Bool) {
        let action = enabled ? "enable-channel" : "disable-channel"
        guard let since = permissionRules.channelsSince, osVersion >= since else {
            return record(.deviceIgnored, [.action: .string(action), .why: "notification channels are Android 8's and later's"])
        }
        guard isAppInstalled else { return record(.deviceIgnored, [.action: .string(action), .why: "the app is not installed"]) }
        notificationSettings.setChannel(id, enabled: enabled)
        record(.deviceNotificationPermission, [.channel: .string(id), .permission: enabled ? "authorized" : "denied",
                                               .why: enabled ? "the user turned the channel on" : "the user turned the channel off (importance NONE)"])
    }

    private func answer(_ answer: NotificationPermission) {
        notificationSettings.answer = answer
        guard isAppInstalled else {
            return record(.deviceNotificationPermission, [.permission: .string(answer.rawValue),
                                                          .why: answer == .provisional ? "the app will ask provisionally" : "the user's answer when the app asks"])
        }
        notificationSettings.status = answer
        record(.deviceNotificationPermission, [.permission: .string(answer.rawValue), .why: "changed in \(permissionRules.settings)"])
    }

    /// A new install's status (the app asks at its first launch; the user answers as set). Recorded
    /// only when it is not `authorized`, the usual outcome.
    func notificationPermissionAtInstall() {
        notificationSettings.status = notificationSettings.statusAtInstall(osVersion: osVersion, promptSince: permissionRules.promptSince)
        notificationSettings.disabledChannels = []
        if notificationSettings.status != .authorized {
            let why = notificationSettings.status == .provisional ? "the app asked for provisional authorization: no prompt"
                : "the user's answer when the app asked at its first launch"
            record(.deviceNotificationPermission, [.permission: .string(notificationSettings.status.rawValue), .why: .string(why)])
        } else if notificationSettings.answer != .authorized {
            record(.deviceNotificationPermission, [.permission: "authorized",
                                                   .why: "on at install: \(platform.rawValue) \(osVersion) does not ask for \(permissionRules.name)"])
        }
    }

    /// An uninstall forgets the app's permission and channels (the next install asks again).
    func notificationPermissionAtUninstall() {
        notificationSettings.status = .notDetermined
        notificationSettings.disabledChannels = []
    }

    /// Why a notification on `channel` (nil: one without channels) is not shown; nil when it is.
    func suppressionReason(channel: String? = nil) -> String? {
        if let reason = permissionRules.reason(for: notificationSettings.status) { return reason }
        if let channel, notificationSettings.disabledChannels.contains(channel) {
            return "the user turned the notification channel \(jsonString(channel)) off (importance NONE)"
        }
        return nil
    }

    /// Keeps a notification off screen: recorded (`notification.suppressed`, with `text` when it
    /// had one) and kept in ``suppressed``.
    func suppress(_ text: String?, service: String, reason: String) {
        suppressed.append(SuppressedNotification(time: world.now, text: text, service: service, reason: reason))
        if let inboxRetention { _ = inboxRetention.trim(&suppressed) }
        var fields: [TraceEvent.Field] = [TraceEvent.Field(.service, .string(service))]
        if let text { fields.append(TraceEvent.Field(.text, .string(text))) }
        fields.append(TraceEvent.Field(.reason, .string(reason)))
        world.record(layer: "device", host: name, kind: .notificationSuppressed, fields: fields)
    }
}

extension Device {
    /// The user (or, for ``NotificationPermission/provisional``, the app) changes the permission:
    /// ``denyNotifications()``, ``allowNotifications()`` or ``allowNotificationsProvisionally()``;
    /// ``NotificationPermission/notDetermined`` is no one's choice and denies.
    public func changeNotificationPermission(to permission: NotificationPermission) {
        switch permission {
        case .denied, .notDetermined: denyNotifications()
        case .authorized: allowNotifications()
        case .provisional: allowNotificationsProvisionally()
        }
    }
}
