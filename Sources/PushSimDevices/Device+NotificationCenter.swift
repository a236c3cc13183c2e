import PushSimKernel
import PushSimNetwork

extension Device {
    /// The notifications still on screen: the ``inbox`` without those a newer notification with
    /// the same collapse id replaced (A-SEND: the device shows only the newest).
    public var displayed: [ShownNotification] { inbox.filter { !$0.isReplaced } }

    /// Puts a notification in front of the user. With a `collapseID`, every notification of the
    /// same service still on screen with that id is marked replaced first (`notification.replaced`),
    /// as Notification Center does for `apns-collapse-id` (§1.9, A-SEND). The trace's
    /// `notification.shown` gets `badge`, `sound` and `collapse-id` fields only when present, and
    /// `delivery: quiet` when `quiet` (iOS's provisional authorization: Notification Center only,
    /// no banner, no sound; A-PROVISIONAL).
    func show(_ text: String, service: String, badge: Int? = nil, sound: String? = nil, collapseID: String? = nil, quiet: Bool = false) {
        if let collapseID {
            for i in inbox.indices where inbox[i].service == service && inbox[i].collapseID == collapseID && !inbox[i].isReplaced {
                inbox[i].replacedAt = world.now
                record(.notificationReplaced, [.service: .string(service), .collapseID: .string(collapseID), .text: .string(inbox[i].text)])
            }
        }
        var shown = ShownNotification(time: world.now, text: text, service: service, correlation: world.correlation,
                                      badge: badge, sound: sound, collapseID: collapseID)
        shown.isQuiet = quiet
        inbox.append(shown)
        var fields: [TraceEvent.Field] = [TraceEvent.Field(.service, .string(service)), TraceEvent.Field(.text, .string(text))]
        if let badge { fields.append(TraceEvent.Field(.badge, .int(Int64(badge)))) }
        if let sound { fields.append(TraceEvent.Field(.sound, .string(sound))) }
        if let collapseID { fields.append(TraceEvent.Field(.collapseID, .string(collapseID))) }
        if quiet { fields.append(TraceEvent.Field(.delivery, "quiet")) }
        world.record(layer: "device", host: name, kind: .notificationShown, fields: fields)
        if let inboxRetention { inboxDropped += inboxRetention.trim(&inbox) }
        onNotificationShown?(shown)
    }

    /// Sets the app icon's badge (`aps.badge`, 0 clears it, A-GEN; a WNS badge notification's
    /// `value`, W-BADGE). The trace's `app.badge-updated` gives `value` as the notification wrote
    /// it (`0`, `none`, `7`, `alert`), so a reader of the trace gets the same ``AppBadge/setting(_:)``.
    func setBadge(_ setting: AppBadge.Setting, value: TraceValue, service: String) {
        switch setting {
        case .show(let shown): badge = shown
        case .clear: badge = nil
        }
        record(.appBadgeUpdated, [.service: .string(service), .badge: value])
    }

    /// A background (silent) push: the OS wakes the app unless the background budget
    /// (``backgroundPushLimit``, default 3 per hour) is spent, in which case the push is dropped
    /// with the reason (§1.10, A-BG: the system throttles background pushes; PINPOINT).
    func wakeInBackground(service: String) {
        if let limit = backgroundPushLimit, !backgroundWakes.admit(at: world.now, under: limit) {
            return record(.notificationDropped, [.service: .string(service),
                                                   .reason: "the OS throttles background pushes: more than \(limit) would wake the app"])
        }
        record(.appWoken, [.service: .string(service), .why: "background push (content-available)"])
    }

    /// FCM deleted the messages it stored for this device; the app's `onDeletedMessages()` runs
    /// (§2.5, F-COLL) and should do a full sync with its server.
    func messagesWereDeleted(service: String) {
        deletedMessagesNotices += 1
        record(.appMessagesDeleted, [.service: .string(service), .why: "FCM dropped more than 100 stored messages (onDeletedMessages)"])
    }
}
