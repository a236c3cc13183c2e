import PushSimKernel
import PushSimNetwork

extension Device {
    /// Android: the FCM message; the app shows `data.message` (the tutorial apps' convention; the
    /// recommended app only while a user is logged in), else the system shows the notification's
    /// body (after its title and `: ` when there is one), `android.notification`'s title and body
    /// overriding `notification`'s, as FCM documents them (F-MSG); FCM's deleted-messages event
    /// (`x-pushsim-event: deleted_messages`, body `{"message_type":"deleted_messages"}`) runs
    /// `onDeletedMessages()` (F-COLL). A body that is not JSON is discarded. A data message still
    /// reaches `onMessageReceived` when the user forbids notifications; what the app or the system
    /// would show is suppressed then, or when its channel (`android.notification.channel_id`, else
    /// ``fallbackChannel``) is turned off (AN-PERM, AN-CHANNEL).
    func presentFCM(_ request: HTTPRequest, service: String) {
        guard let json = try? JSONParser.parse(request.body) else { return discard(service, "the message is not JSON") }
        if request.headers[DeviceChannel.eventHeader] == "deleted_messages" { return messagesWereDeleted(service: service) }
        if let text = json["data"]?["message"]?.stringValue {
            // A data message is the app's to show. The recommended app shows none while nobody
            // is logged in: one sent just before its logout's unregistration got through is
            // for the user who left.
            guard logic.showsDataMessagesWhileLoggedOut || authorization != nil else {
                return record(.appIgnored, [.service: .string(service), .why: "a data message while nobody is logged in"])
            }
            if let reason = suppressionReason(channel: Self.fallbackChannel) {
                return suppress(text, service: service, reason: "onMessageReceived ran, but " + reason)
            }
            return show(text, service: service)
        }
        let common = json["notification"], android = json["android"]?["notification"]
        if let body = android?["body"]?.stringValue ?? common?["body"]?.stringValue {
            let title = android?["title"]?.stringValue ?? common?["title"]?.stringValue
            let text = title.map { "\($0): \(body)" } ?? body
            if let reason = suppressionReason(channel: android?["channel_id"]?.stringValue ?? Self.fallbackChannel) {
                return suppress(text, service: service, reason: reason)
            }
            return show(text, service: service)
        }
        record(.appDataReceived, [.service: .string(service), .why: "data message without a 'message' key"])
    }
}
