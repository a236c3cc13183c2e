import PushSimNetwork

/// A `messages:send` body that passed FCM's checks (pns-fidelity.md §2.1–§2.2, sources F-SEND, F-MSG).
public struct FCMMessage: Sendable, Equatable {
    public enum Target: Sendable, Equatable { case token(String), topic(String), condition(String) }
    public var target: Target
    public var validateOnly: Bool
    /// The whole `message` object as sent, target included, serialized: what the device is handed.
    public var devicePayload: [UInt8]
    /// `android.collapse_key`, if any.
    public var collapseKey: String?
    /// `android.ttl` in seconds; nil when absent (FCM then keeps it up to 4 weeks).
    public var ttlSeconds: Int64?

    /// Largest payload, 4096 bytes (§2.2, F-ERR).
    public static let maxPayloadBytes = 4_096
    /// Default and largest time-to-live: 4 weeks (§2.2, F-MSG, F-COLL).
    public static let maxTTLSeconds: Int64 = 2_419_200
    /// `data` keys FCM reserves (§2.2, F-MSG).
    static func isReservedDataKey(_ key: String) -> Bool {
        key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
    }

    /// Checks the request body; the error is the one FCM answers.
    public static func parse(body: [UInt8]) -> Result<FCMMessage, FCMError> {
        guard let root = try? JSONParser.parse(body), root.objectMembers != nil else {
            return .failure(.invalidArgument("Invalid JSON payload received."))
        }
        guard let message = root["message"], message.objectMembers != nil else {
            return .failure(.invalidArgument("Request contains an invalid argument.", field: "message"))
        }
        // Exactly one of token, topic, condition (F-MSG).
        var targets: [Target] = []
        if let t = message["token"]?.stringValue { targets.append(.token(t)) }
        if let t = message["topic"]?.stringValue { targets.append(.topic(t)) }
        if let c = message["condition"]?.stringValue { targets.append(.condition(c)) }
        guard targets.count == 1 else {
            return .failure(.invalidArgument("Exactly one of message.token, message.topic or message.condition must be set.", field: "message"))
        }
        // data: string → string only (F-MSG; the error text is FCM's).
        for (block, path) in [(message["data"], "message.data"), (message["android"]?["data"], "message.android.data")] {
            guard let data = block else { continue }
            guard let members = data.objectMembers else {
                return .failure(.invalidArgument("Invalid value at '\(path)'.", field: path))
            }
            for (i, (key, value)) in members.enumerated() {
                guard value.stringValue != nil else {
                    return .failure(.invalidArgument("Invalid value at '\(path)[\(i)].value' (TYPE_STRING), \(value.serialized())", field: "\(path)[\(i)].value"))
                }
                if isReservedDataKey(key) {
                    return .failure(.invalidArgument("Invalid data payload key: \(key)", field: path))
                }
            }
        }
        // android.ttl: a duration string such as "3.5s", 0 to 4 weeks (F-MSG).
        var ttl: Int64?
        if let raw = message["android"]?["ttl"] {
            guard let text = raw.stringValue, text.hasSuffix("s"), let seconds = Double(text.dropLast()),
                  seconds >= 0, seconds <= Double(maxTTLSeconds) else {
                return .failure(.invalidArgument("Invalid value at 'message.android.ttl'.", field: "message.android.ttl"))
            }
            ttl = Int64(seconds)
        }
        // Size: everything but the target must fit in 4096 bytes.
        let payload = message.objectMembers!.filter { !["token", "topic", "condition"].contains($0.0) }
        if JSONValue.object(payload).serialized().utf8.count > maxPayloadBytes {
            return .failure(.invalidArgument("Message is too big", field: "message"))
        }
        return .success(FCMMessage(target: targets[0], validateOnly: root["validate_only"]?.boolValue ?? false,
                                   devicePayload: Array(message.serialized().utf8), collapseKey: message["android"]?["collapse_key"]?.stringValue,
                                   ttlSeconds: ttl))
    }
}
