import PushSimKernel
import PushSimNetwork

extension Device {
    /// iOS: a JSON payload whose `aps.alert` (a string, or a dictionary's `body`/`title`) is shown
    /// as an alert, as the tutorial's `didReceiveRemoteNotification` does (A-GEN), with its
    /// `aps.badge` and `aps.sound`; a newer alert with the same `apns-collapse-id` replaces the
    /// older one on screen (A-SEND). A badge or sound without an alert only updates the badge or
    /// plays. A background push (`apns-push-type: background`, or `content-available` alone)
    /// wakes the app silently within the OS budget (A-BG), whatever the user's notification
    /// permission. Unless the app is authorized, an alert, badge or sound is suppressed with the
    /// reason (A-AUTH); under provisional authorization an alert goes quietly to Notification
    /// Center with its badge but no sound (A-PROVISIONAL). A body that is not JSON is discarded
    /// (§1.10, §1.11).
    func presentAPNs(_ request: HTTPRequest, service: String) {
        guard let json = try? JSONParser.parse(request.body), let aps = json["aps"] else {
            return discard(service, "the payload is not a JSON object with an aps dictionary")
        }
        var text: String?
        if let alert = aps["alert"] {
            if let s = alert.stringValue { text = s } else {
                let parts = [alert["title"]?.stringValue, alert["body"]?.stringValue].compactMap { $0 }
                if !parts.isEmpty { text = parts.joined(separator: ": ") }
            }
        }
        let badge = aps["badge"]?.int64Value.map { Int(clamping: $0) }
        let sound = aps["sound"]?.stringValue ?? aps["sound"]?["name"]?.stringValue
        let contentAvailable = aps["content-available"]?.int64Value == 1
        if request.headers["apns-push-type"] == "background" || (text == nil && badge == nil && sound == nil && contentAvailable) {
            guard contentAvailable else { return discard(service, "a background push without content-available wakes nothing") }
            return wakeInBackground(service: service)
        }
        if text != nil || badge != nil || sound != nil, let reason = suppressionReason() {
            return suppress(text, service: service, reason: reason)
        }
        let quiet = notificationSettings.status == .provisional
        if let badge { setBadge(AppBadge.setting(badge), value: .int(Int64(badge)), service: service) }
        if let text {
            return show(text, service: service, badge: badge, sound: quiet ? nil : sound, collapseID: request.headers["apns-collapse-id"],
                        quiet: quiet)
        }
        if quiet, sound != nil, badge == nil {
            return suppress(nil, service: service, reason: "provisional authorization delivers quietly: no sound plays")
        }
        if let sound, !quiet { return record(.appSoundPlayed, [.service: .string(service), .sound: .string(sound)]) }
        if badge != nil { return }
        discard(service, "aps has no alert to show")
    }
}
