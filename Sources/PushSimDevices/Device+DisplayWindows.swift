import PushSimKernel
import PushSimNetwork

extension Device {
    /// Windows: a toast shows the text of its `<text>` elements (with its `<audio src>`, unless
    /// silent, W-TOAST); a badge notification sets the badge to its `value`, a number, `none` or a
    /// status glyph, 0 and `none` clearing it (W-BADGE), and leaves it alone for a value the
    /// badge schema does not have (unconfirmed, Citations §3.9); tiles update silently; a raw
    /// notification is handed to the app, which shows nothing and leaves the badge alone (W-RAW);
    /// malformed toast XML is discarded. A toast is suppressed while the user has the app's
    /// notifications off (W-SETTINGS); raw notifications, badges and tiles are not toasts and
    /// carry on.
    func presentWNS(_ request: HTTPRequest, service: String) {
        let type = request.headers["X-WNS-Type"] ?? "wns/toast"
        guard type == "wns/toast" else {
            if type == "wns/raw" {
                return record(.appDataReceived, [.service: .string(service), .type: .string(type),
                                                 .why: "a raw notification is the app's own data, not shown"])
            }
            if type == "wns/badge", let doc = try? XMLDocumentParser.parse(request.body), doc.root.name == "badge",
               let value = doc.root.attribute("value"), let setting = AppBadge.setting(value) {
                // A number goes into the trace as one, as for `aps.badge`.
                setBadge(setting, value: Int(value).map { .int(Int64($0)) } ?? .string(value), service: service)
            }
            return record(.appUpdated, [.service: .string(service), .type: .string(type)])
        }
        guard let doc = try? XMLDocumentParser.parse(request.body) else { return discard(service, "the toast XML is malformed") }
        var texts: [String] = []
        appendTexts(of: doc.root, to: &texts)
        guard !texts.isEmpty else { return discard(service, "the toast has no text") }
        let audio = doc.root.first("audio")
        let sound = audio?.attribute("silent") == "true" ? nil : audio?.attribute("src")
        if let reason = suppressionReason() { return suppress(texts.joined(separator: " "), service: service, reason: reason) }
        show(texts.joined(separator: " "), service: service, sound: sound)
    }

    /// The text of every `<text>` element at or below `e`, in document order.
    private func appendTexts(of e: XMLElement, to texts: inout [String]) {
        if e.name == "text" { texts.append(e.text) }
        for case .element(let child) in e.children { appendTexts(of: child, to: &texts) }
    }
}
