import PushSimKernel
import PushSimNetwork

extension Device {
    /// Windows: a toast shows the text of its `<text>` elements (with its `<audio src>`, unless
    /// silent, W-TOAST); a badge notification sets the badge to its `value`; tiles update silently;
    /// malformed XML is discarded.
    func presentWNS(_ request: HTTPRequest, service: String) {
        let type = request.headers["X-WNS-Type"] ?? "wns/toast"
        guard type == "wns/toast" else {
            if type == "wns/badge", let doc = try? XMLDocumentParser.parse(request.body), doc.root.name == "badge",
               let value = doc.root.attribute("value").flatMap({ Int($0) }) {
                setBadge(value, service: service)
            }
            return record(.appUpdated, [.service: .string(service), .type: .string(type)])
        }
        guard let doc = try? XMLDocumentParser.parse(request.body) else { return discard(service, "the toast XML is malformed") }
        var texts: [String] = []
        appendTexts(of: doc.root, to: &texts)
        guard !texts.isEmpty else { return discard(service, "the toast has no text") }
        let audio = doc.root.first("audio")
        let sound = audio?.attribute("silent") == "true" ? nil : audio?.attribute("src")
        show(texts.joined(separator: " "), service: service, sound: sound)
    }

    /// The text of every `<text>` element at or below `e`, in document order.
    private func appendTexts(of e: XMLElement, to texts: inout [String]) {
        if e.name == "text" { texts.append(e.text) }
        for case .element(let child) in e.children { appendTexts(of: child, to: &texts) }
    }
}
