import PushSimKernel
import PushSimNetwork
import PushSimServices

extension Device {
    /// What the OS and app do with a push that reached them, per platform payload:
    /// - iOS: a JSON payload whose `aps.alert` (a string, or a dictionary's `body`/`title`) is shown
    ///   as an alert, as the tutorial's `didReceiveRemoteNotification` does (A-GEN); `content-available`
    ///   without an alert wakes the app silently; a body that is not JSON is discarded.
    /// - Android: the FCM message; the app shows `data.message` (the tutorial apps' convention),
    ///   else the system shows `notification.body`.
    /// - Windows: a toast shows the text of its `<text>` elements; tiles and badges update silently;
    ///   malformed XML is discarded.
    func present(_ request: HTTPRequest) {
        let service = request.headers[DeviceChannel.serviceHeader] ?? "?"
        switch platform {
        case .ios:
            guard let json = try? JSONParser.parse(request.body), let aps = json["aps"] else {
                return discard(service, "the payload is not a JSON object with an aps dictionary")
            }
            if let alert = aps["alert"] {
                if let text = alert.stringValue { return show(text, service: service) }
                let parts = [alert["title"]?.stringValue, alert["body"]?.stringValue].compactMap { $0 }
                if !parts.isEmpty { return show(parts.joined(separator: ": "), service: service) }
            }
            if aps["content-available"]?.int64Value == 1 {
                return record("app.woken", ["service": service, "why": "background push (content-available)"])
            }
            discard(service, "aps has no alert to show")
        case .android:
            guard let json = try? JSONParser.parse(request.body) else { return discard(service, "the message is not JSON") }
            if let text = json["data"]?["message"]?.stringValue { return show(text, service: service) }
            if let body = json["notification"]?["body"]?.stringValue {
                let title = json["notification"]?["title"]?.stringValue
                return show(title.map { "\($0): \(body)" } ?? body, service: service)
            }
            record("app.data-received", ["service": service, "why": "data message without a 'message' key"])
        case .windows:
            let type = request.headers["X-WNS-Type"] ?? "wns/toast"
            guard type == "wns/toast" else { return record("app.updated", ["service": service, "type": type]) }
            guard let doc = try? XMLDocumentParser.parse(request.body) else { return discard(service, "the toast XML is malformed") }
            let texts = allTexts(doc.root)
            guard !texts.isEmpty else { return discard(service, "the toast has no text") }
            show(texts.joined(separator: " "), service: service)
        }
    }

    private func allTexts(_ e: XMLElement) -> [String] {
        (e.name == "text" ? [e.text] : []) + e.elements.flatMap(allTexts)
    }

    private func discard(_ service: String, _ why: String) {
        record("notification.dropped", ["service": service, "reason": "device discarded it: \(why)"])
    }
}
