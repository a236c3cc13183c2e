import PushSimKernel
import PushSimNetwork

extension Device {
    /// What the OS and app do with a push that reached them, per platform payload:
    /// - iOS: a JSON payload whose `aps.alert` (a string, or a dictionary's `body`/`title`) is shown
    ///   as an alert, as the tutorial's `didReceiveRemoteNotification` does (A-GEN), with its
    ///   `aps.badge` and `aps.sound`; a newer alert with the same `apns-collapse-id` replaces the
    ///   older one on screen (A-SEND). A badge or sound without an alert only updates the badge or
    ///   plays. A background push (`apns-push-type: background`, or `content-available` alone)
    ///   wakes the app silently within the OS budget (A-BG). A body that is not JSON is discarded.
    /// - Android: the FCM message; the app shows `data.message` (the tutorial apps' convention; the
    ///   recommended app only while a user is logged in),
    ///   else the system shows `notification.body`; FCM's deleted-messages event (`x-pushsim-event:
    ///   deleted_messages`, body `{"message_type":"deleted_messages"}`) runs `onDeletedMessages()` (F-COLL).
    /// - Windows: a toast shows the text of its `<text>` elements (with its `<audio src>`, unless
    ///   silent); a badge notification sets the badge to its `value`; tiles update silently;
    ///   malformed XML is discarded.
    func present(_ request: HTTPRequest) {
        let service = request.headers[DeviceChannel.serviceHeader] ?? "?"
        switch platform {
        case .ios: presentAPNs(request, service: service)
        case .android:
            guard let json = try? JSONParser.parse(request.body) else { return discard(service, "the message is not JSON") }
            if request.headers[DeviceChannel.eventHeader] == "deleted_messages" { return messagesWereDeleted(service: service) }
            if let text = json["data"]?["message"]?.stringValue {
                // A data message is the app's to show. The recommended app shows none while nobody
                // is logged in: one sent just before its logout's unregistration got through is
                // for the user who left.
                guard logic.showsDataMessagesWhileLoggedOut || authorization != nil else {
                    return record(.appIgnored, [.service: .string(service), .why: "a data message while nobody is logged in"])
                }
                return show(text, service: service)
            }
            if let body = json["notification"]?["body"]?.stringValue {
                let title = json["notification"]?["title"]?.stringValue
                return show(title.map { "\($0): \(body)" } ?? body, service: service)
            }
            record(.appDataReceived, [.service: .string(service), .why: "data message without a 'message' key"])
        case .windows:
            let type = request.headers["X-WNS-Type"] ?? "wns/toast"
            guard type == "wns/toast" else {
                if type == "wns/badge", let doc = try? XMLDocumentParser.parse(request.body), doc.root.name == "badge",
                   let value = doc.root.attribute("value").flatMap({ Int($0) }) {
                    setBadge(value, service: service)
                }
                return record(.appUpdated, [.service: .string(service), .type: .string(type)])
            }
            guard let doc = try? XMLDocumentParser.parse(request.body) else { return discard(service, "the toast XML is malformed") }
            let texts = allTexts(doc.root)
            guard !texts.isEmpty else { return discard(service, "the toast has no text") }
            let audio = doc.root.first("audio")
            let sound = audio?.attribute("silent") == "true" ? nil : audio?.attribute("src")
            show(texts.joined(separator: " "), service: service, sound: sound)
        }
    }

    /// iOS: alert, badge, sound, collapse id, background pushes (§1.10, §1.11; A-GEN, A-BG, A-SEND).
    private func presentAPNs(_ request: HTTPRequest, service: String) {
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
        if let badge { setBadge(badge, service: service) }
        if let text {
            return show(text, service: service, badge: badge, sound: sound, collapseID: request.headers["apns-collapse-id"])
        }
        if let sound { return record(.appSoundPlayed, [.service: .string(service), .sound: .string(sound)]) }
        if badge != nil { return }
        discard(service, "aps has no alert to show")
    }

    private func allTexts(_ e: XMLElement) -> [String] {
        (e.name == "text" ? [e.text] : []) + e.elements.flatMap(allTexts)
    }

    func discard(_ service: String, _ why: String) {
        record(.notificationDropped, [.service: .string(service), .reason: "device discarded it: \(why)"])
    }
}
