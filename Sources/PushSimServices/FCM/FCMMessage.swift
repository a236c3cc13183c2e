import PushSimNetwork

/// A `messages:send` body that passed FCM's checks (Citations §2.1–§2.2, sources F-SEND, F-MSG).
public struct FCMMessage: Sendable, Equatable {
    /// Who the message is for: exactly one of `message.fid`, `message.token`, `message.topic`,
    /// `message.condition` (F-MSG, F-DISC: the `target` oneof). `fid` is a Firebase installation ID,
    /// which FCM resolves to the app instance's current registration token (FA-PY-FID).
    public enum Target: Sendable, Equatable { case fid(String), token(String), topic(String), condition(String) }
    /// Topic and condition sends reach the app instances subscribed to them (`FCMService+Topics.swift`).
    public var target: Target
    /// `validate_only`: checked and answered with a fixed fake message name, never delivered. Default false.
    public var validateOnly: Bool
    /// The whole `message` object as sent, target included, serialized: what the device is handed.
    public var devicePayload: [UInt8]
    /// `android.collapse_key`, if any.
    public var collapseKey: String?
    /// `android.ttl` in seconds; nil when absent (FCM then keeps it up to 4 weeks).
    public var ttlSeconds: Int64?

    /// The answer's message for a message with no target. Google's wording for this case is not on
    /// record (Citations §7); PushSim's names the four members of the `target` oneof (F-DISC).
    static let noTarget = "Exactly one of message.fid, message.token, message.topic or message.condition must be set."

    /// Largest payload, 4096 bytes (§2.2, F-ERR).
    public static let maxPayloadBytes = 4_096
    /// Default and largest time-to-live: 4 weeks (§2.2, F-MSG, F-COLL).
    public static let maxTTLSeconds: Int64 = 2_419_200
    /// `data` keys FCM reserves (§2.2, F-MSG).
    static func isReservedDataKey(_ key: String) -> Bool {
        key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
    }

    /// Checks the request body; the error is the one FCM answers. The body must first parse into
    /// the v1 `SendMessageRequest` (`FCMMessageSchema`: unknown field names and values of the
    /// wrong JSON type are refused, both `collapse_key` and `collapseKey` spellings are read); then
    /// FCM's own rules apply.
    public static func parse(body: [UInt8]) -> Result<FCMMessage, FCMError> {
        guard let root = try? JSONParser.parse(body), let rootMembers = root.objectMembers else {
            return .failure(.invalidArgument("Invalid JSON payload received."))
        }
        if let e = FCMMessageSchema.check(request: rootMembers) { return .failure(e) }
        // The fields FCM's own rules read, in one pass per object, under either name (proto3
        // JSON; the schema check made sure each has the right type); null is "not set".
        // A name given twice counts once, the first time.
        var message: JSONValue?, validateOnly: JSONValue?
        for (key, value) in rootMembers {
            switch key {
            case "message": if message == nil { message = value }
            case "validate_only", "validateOnly": if validateOnly == nil { validateOnly = value }
            default: break
            }
        }
        guard let message, case .object(let members) = message else {
            return .failure(.invalidArgument("Request contains an invalid argument.", field: "message"))
        }
        var fid: JSONValue?, token: JSONValue?, topic: JSONValue?, condition: JSONValue?, data: JSONValue?, android: JSONValue?
        for (key, value) in members {
            switch key {
            case "fid": if fid == nil { fid = value }
            case "token": if token == nil { token = value }
            case "topic": if topic == nil { topic = value }
            case "condition": if condition == nil { condition = value }
            case "data": if data == nil { data = value }
            case "android": if android == nil { android = value }
            default: break
            }
        }
        var androidData: JSONValue?, collapseKey: JSONValue?, rawTTL: JSONValue?
        for (key, value) in android?.objectMembers ?? [] {
            switch key {
            case "data": if androidData == nil { androidData = value }
            case "collapse_key", "collapseKey": if collapseKey == nil { collapseKey = value }
            case "ttl": if rawTTL == nil { rawTTL = value }
            default: break
            }
        }
        if case .null? = rawTTL { rawTTL = nil }
        // Exactly one of fid, token, topic, condition (F-MSG): the schema refused a second one,
        // so here there is one or none.
        var targets: [Target] = []
        if let f = fid?.stringValue { targets.append(.fid(f)) }
        if let t = token?.stringValue { targets.append(.token(t)) }
        if let t = topic?.stringValue { targets.append(.topic(t)) }
        if let c = condition?.stringValue { targets.append(.condition(c)) }
        guard targets.count == 1 else {
            return .failure(.invalidArgument(noTarget, field: "message"))
        }
        // data: string → string (checked with the schema), no reserved keys (F-MSG; the error text is FCM's).
        func reservedKey(in block: JSONValue?, at path: String) -> FCMError? {
            guard let key = block?.objectMembers?.first(where: { isReservedDataKey($0.0) })?.0 else { return nil }
            return .invalidArgument("Invalid data payload key: \(key)", field: path)
        }
        if let e = reservedKey(in: data, at: "message.data") ?? reservedKey(in: androidData, at: "message.android.data") {
            return .failure(e)
        }
        // android.ttl: a duration string such as "3.5s", 0 to 4 weeks (F-MSG).
        var ttl: Int64?
        if let raw = rawTTL {
            guard let text = raw.stringValue, text.hasSuffix("s"), let seconds = Double(text.dropLast()),
                  seconds >= 0, seconds <= Double(maxTTLSeconds) else {
                return .failure(.invalidArgument("Invalid value at 'message.android.ttl'.", field: "message.android.ttl"))
            }
            ttl = Int64(seconds)
        }
        // Size: everything but the target must fit in 4096 bytes. The whole message, target
        // included, is written anyway for the device; leaving members out only shortens it, so
        // only a whole message over the limit needs the exact count without the target.
        let devicePayload = message.serializedBytes()
        if devicePayload.count > maxPayloadBytes {
            let payload = members.filter { !FCMMessageSchema.targetFields.contains($0.0) }
            if JSONValue.object(payload).serializedBytes().count > maxPayloadBytes {
                return .failure(.invalidArgument("Message is too big", field: "message"))
            }
        }
        return .success(FCMMessage(target: targets[0], validateOnly: validateOnly.flatMap { $0.boolValue ?? $0.stringValue.flatMap(FCMMessageSchema.quotedBool) } ?? false,
                                   devicePayload: devicePayload, collapseKey: collapseKey?.stringValue, ttlSeconds: ttl))
    }
}
