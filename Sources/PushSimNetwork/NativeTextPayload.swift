import PushSimKernel

/// Where a text goes in a push service's native payload, as an app's backend writes a message for
/// its app to show: a JSON object with the text at a path of keys (APNs `aps.alert`, A-GEN; FCM
/// `message.data.message`, the tutorial apps' convention), or a WNS toast (`ToastText01`, W-TOAST).
///
/// The payload is built by encoders, so any text stays text: JSON strings are escaped, XML text is
/// escaped (what the tutorial's backend got wrong by concatenating, defect d).
public enum NativeTextPayload: Sendable, Hashable {
    /// A JSON object holding the text at `path` (`["aps", "alert"]` is `{"aps":{"alert":"…"}}`).
    case json(path: [String])
    /// A WNS toast: `<toast><visual><binding template="ToastText01"><text id="1">…</text></binding></visual></toast>`.
    case toast

    /// The native payload that carries `text`.
    public func payload(_ text: String) -> String {
        switch self {
        case .json(let path):
            return path.reversed().reduce(JSONValue.string(text)) { inner, key in .object([(key, inner)]) }.serialized()
        case .toast:
            let text = XMLElement(name: "text", attributes: [("id", "1")], children: [.text(text)])
            let binding = XMLElement(name: "binding", attributes: [("template", "ToastText01")], children: [.element(text)])
            return XMLElement(name: "toast", children: [.element(XMLElement(name: "visual", children: [.element(binding)]))]).serialized()
        }
    }
}
