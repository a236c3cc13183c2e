import PushSimKernel
import PushSimNetwork

/// The shape of an FCM HTTP v1 `projects.messages.send` body, and the check that refuses what
/// does not fit it the way Google's front end does: the body is parsed into the protobuf
/// `SendMessageRequest` before FCM looks at it, so an unknown or misspelt field name, or a value of
/// the wrong JSON type, is a 400 `INVALID_ARGUMENT` however harmless it looks.
///
/// This extends the message rules of Citations §2.1–§2.2 (F-SEND, F-MSG). Sources:
/// - The v1 REST reference / discovery document (https://firebase.google.com/docs/reference/fcm/rest/v1/projects.messages,
///   https://fcm.googleapis.com/$discovery/rest?version=v1 as stored in googleapis/google-api-python-client
///   `fcm.v1.json` rev. 20230929 and googleapis/google-api-nodejs-client `fcm/v1`): the field lists
///   below, one per message type. `bandwidth_constrained_ok` and `restricted_satellite_ok` are newer
///   than those copies; the generated clients (googleapis.dev .NET `AndroidConfig`, docs.rs
///   `google-fcm1`) list them, so they are accepted too. `apns.payload` and `webpush.notification`
///   are `google.protobuf.Struct` (any JSON object, not checked); `data`, `android.data`,
///   `webpush.data`, `apns.headers` and `webpush.headers` are `map<string, string>`: any key,
///   values must be strings.
/// - Proto3 JSON mapping (https://protobuf.dev/programming-guides/json/): a parser accepts both the
///   lowerCamelCase JSON name and the original proto field name (`collapseKey` and `collapse_key`),
///   and `null` for any field means "not set".
/// - What Google answers, as captured in public issue threads (no Google page documents it):
///   healthjoy/async-firebase#23 shows the whole body for an unknown name inside `message`:
///   message `Invalid JSON payload received. Unknown name "tokens" at 'message': Cannot find field.`,
///   status `INVALID_ARGUMENT`, and a single `google.rpc.BadRequest` detail whose field violation
///   has `field: "message"` (the parent's path, not the unknown name's) and that line as its
///   description: no FcmError detail. AGProjects/sylk-pushserver#16 and element-hq/sygnal#365 show
///   several unknown names answered at once, the lines joined by a newline, one violation each,
///   and at the top of the request no `at '…'` and no `field`. firebase/firebase-admin-node#457
///   shows the path of a nested object (`at 'message.android.notification'`); beste/firebase-php#341
///   shows a JSON list given for an object (`Proto field is not repeating, cannot start list.`);
///   laravel-notification-channels/fcm#37 shows a number in `data` (`Invalid value at
///   'message.data[1].value' (TYPE_STRING), 21465`).
/// - Google's JSON-to-protobuf converter (google/protobuf `src/google/protobuf/util/internal/datapiece.cc`,
///   `DataPiece::ToBool`): a boolean may also come as a string, read by `safe_strtob` (`"true"`,
///   `"t"`, `"yes"`, `"y"`, `"1"` and their `false` twins, any case); numbers may come quoted too
///   (the proto3 JSON mapping says so for integers). `DataPiece::ToFloat`/`ToDouble`: a quoted
///   float is `Infinity`, `-Infinity`, `NaN`, or what `strtod` reads, refused when it comes out
///   infinite. A `Timestamp` goes through `ParseTime` (`src/google/protobuf/stubs/time.cc`): RFC 3339
///   with `Z` or an offset.
/// - Silent, so chosen here: which field names a path uses (the proto names; the captured examples
///   cannot tell them apart, but beste/laravel-firebase#123 shows `at 'message.fcm_options'`); the
///   wording of a wrong type other than a string (`Invalid value at '<path>' (TYPE_BOOL), <value>`,
///   the same pattern; enums and objects name their type,
///   `type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority`; a malformed duration keeps
///   the words PushSim already used for `android.ttl`, `Invalid value at '<path>'.`); that enum names
///   match in any case (FCM's own pages send `"priority": "high"` although the reference lists
///   `HIGH`) and that an enum also takes its number; and that when a body has both unknown names
///   and a wrong type, the unknown names are what is answered. Wrong types keep the answer shape
///   PushSim already gave for `data` (an FcmError `INVALID_ARGUMENT` detail and one field violation
///   naming the value's path); the captured bodies confirm that shape only for unknown names.
///
/// Checking costs one walk of the parsed body; the service checks a broadcast's body once
/// (``FCMMessageMemo``), so a valid body costs the copies of a fan-out nothing more.
enum FCMMessageSchema {
    /// What a field holds.
    indirect enum Kind: Sendable {
        case string, bool, int32, float
        /// `google.protobuf.Duration`: `"3.5s"`.
        case duration
        /// `google.protobuf.Timestamp`: an RFC 3339 string.
        case timestamp
        case enumeration(EnumType)
        case list(Kind)
        /// `map<string, string>`: any keys, string values.
        case stringMap
        /// `google.protobuf.Struct`: any JSON object.
        case anyObject
        case message(MessageType)
    }

    struct EnumType: Sendable {
        /// The full protobuf name, as in `type.googleapis.com/<name>`.
        var name: String
        var values: [String]
    }

    struct Field: Sendable {
        /// The proto field name, used in paths.
        var name: String
        var kind: Kind
    }

    final class MessageType: Sendable {
        let name: String
        /// By proto name and by JSON (lowerCamelCase) name.
        let fields: [String: Field]

        init(_ name: String, _ fields: [(String, Kind)]) {
            self.name = name
            var byName: [String: Field] = [:]
            for (protoName, kind) in fields {
                byName[protoName] = Field(name: protoName, kind: kind)
                byName[FCMMessageSchema.jsonName(protoName)] = Field(name: protoName, kind: kind)
            }
            self.fields = byName
        }
    }

    /// The proto3 JSON name of a field: `collapse_key` → `collapseKey`.
    static func jsonName(_ protoName: String) -> String {
        var out = "", upper = false
        for c in protoName {
            if c == "_" { upper = true; continue }
            out.append(upper ? Character(c.uppercased()) : c)
            upper = false
        }
        return out
    }

    // MARK: The v1 schema (REST reference, discovery document)

    static let package = "google.firebase.fcm.v1."
    static let androidMessagePriority = EnumType(name: package + "AndroidMessagePriority", values: ["NORMAL", "HIGH"])
    static let notificationPriority = EnumType(name: package + "AndroidNotification.NotificationPriority",
        values: ["PRIORITY_UNSPECIFIED", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_DEFAULT", "PRIORITY_HIGH", "PRIORITY_MAX"])
    static let visibility = EnumType(name: package + "AndroidNotification.Visibility",
                                     values: ["VISIBILITY_UNSPECIFIED", "PRIVATE", "PUBLIC", "SECRET"])
    static let proxy = EnumType(name: package + "AndroidNotification.Proxy",
                                values: ["PROXY_UNSPECIFIED", "ALLOW", "DENY", "IF_PRIORITY_LOWERED"])

    static let color = MessageType("google.type.Color", [("red", .float), ("green", .float), ("blue", .float), ("alpha", .float)])
    static let lightSettings = MessageType(package + "LightSettings",
        [("color", .message(color)), ("light_on_duration", .duration), ("light_off_duration", .duration)])
    static let androidNotification = MessageType(package + "AndroidNotification", [
        ("title", .string), ("body", .string), ("icon", .string), ("color", .string), ("sound", .string), ("tag", .string),
        ("click_action", .string), ("body_loc_key", .string), ("body_loc_args", .list(.string)), ("title_loc_key", .string),
        ("title_loc_args", .list(.string)), ("channel_id", .string), ("ticker", .string), ("sticky", .bool),
        ("event_time", .timestamp), ("local_only", .bool), ("notification_priority", .enumeration(notificationPriority)),
        ("default_sound", .bool), ("default_vibrate_timings", .bool), ("default_light_settings", .bool),
        ("vibrate_timings", .list(.duration)), ("visibility", .enumeration(visibility)), ("notification_count", .int32),
        ("light_settings", .message(lightSettings)), ("image", .string), ("bypass_proxy_notification", .bool),
        ("proxy", .enumeration(proxy)),
    ])
    static let androidFcmOptions = MessageType(package + "AndroidFcmOptions", [("analytics_label", .string)])
    static let androidConfig = MessageType(package + "AndroidConfig", [
        ("collapse_key", .string), ("priority", .enumeration(androidMessagePriority)), ("ttl", .duration),
        ("restricted_package_name", .string), ("data", .stringMap), ("notification", .message(androidNotification)),
        ("fcm_options", .message(androidFcmOptions)), ("direct_boot_ok", .bool), ("bandwidth_constrained_ok", .bool),
        ("restricted_satellite_ok", .bool),
    ])
    static let webpushFcmOptions = MessageType(package + "WebpushFcmOptions", [("link", .string), ("analytics_label", .string)])
    static let webpushConfig = MessageType(package + "WebpushConfig", [
        ("headers", .stringMap), ("data", .stringMap), ("notification", .anyObject), ("fcm_options", .message(webpushFcmOptions)),
    ])
    static let apnsFcmOptions = MessageType(package + "ApnsFcmOptions", [("analytics_label", .string), ("image", .string)])
    static let apnsConfig = MessageType(package + "ApnsConfig", [
        ("headers", .stringMap), ("payload", .anyObject), ("fcm_options", .message(apnsFcmOptions)), ("live_activity_token", .string),
    ])
    static let notification = MessageType(package + "Notification", [("title", .string), ("body", .string), ("image", .string)])
    static let fcmOptions = MessageType(package + "FcmOptions", [("analytics_label", .string)])
    static let message = MessageType(package + "Message", [
        ("name", .string), ("data", .stringMap), ("notification", .message(notification)), ("android", .message(androidConfig)),
        ("webpush", .message(webpushConfig)), ("apns", .message(apnsConfig)), ("fcm_options", .message(fcmOptions)),
        ("fid", .string), ("token", .string), ("topic", .string), ("condition", .string),
    ])
    /// The members of `Message`'s `target` oneof (F-DISC; `fid` is the newest, FA-PY-FID): one may
    /// be set, and setting a second is refused (``Check``).
    static let targetFields = ["fid", "token", "topic", "condition"]
    static let sendMessageRequest = MessageType(package + "SendMessageRequest", [("validate_only", .bool), ("message", .message(message))])

    // MARK: Checking

    /// Checks a parsed request body (a JSON object's members) against `SendMessageRequest`; nil
    /// when it fits, else the error Google answers.
    static func check(request members: [(String, JSONValue)]) -> FCMError? {
        var check = Check()
        check.members(members, of: sendMessageRequest)
        if !check.unparsable.isEmpty { return .invalidJSONPayload(check.unparsable) }
        return check.wrongValue
    }

    /// One walk of the body. The path of the value being looked at is kept as a stack of proto
    /// names and indexes and joined only for an error: a body that fits builds no string.
    private struct Check {
        /// "Invalid JSON payload received." lines, every one in the body, in document order.
        var unparsable: [FCMError.FieldViolation] = []
        /// The first value of the wrong type.
        var wrongValue: FCMError?
        /// The fields and items from the request down to the value being checked. Room for the
        /// depth of a usual message (`message.android.notification.title`) is made once, instead
        /// of the array regrowing at each new depth of every message.
        private var path: [PathStep]

        init() {
            path = []
            path.reserveCapacity(6)
        }

        private enum PathStep {
            case field(String)
            case index(Int)
            case mapValue(Int)
        }

        /// `message.data[0].value`, or nil at the top of the request.
        private var pathText: String? {
            guard !path.isEmpty else { return nil }
            var text = ""
            for step in path {
                switch step {
                case .field(let name): text += text.isEmpty ? name : "." + name
                case .index(let i): text += "[\(i)]"
                case .mapValue(let i): text += "[\(i)].value"
                }
            }
            return text
        }

        mutating func members(_ members: [(String, JSONValue)], of type: MessageType) {
            var target: String?   // the member of `Message`'s `target` oneof set so far
            for (key, value) in members {
                guard let field = type.fields[key] else {
                    invalidPayload(name: key, "Cannot find field.")
                    continue
                }
                if case .null = value { continue }   // proto3 JSON: null is "not set"
                if type === FCMMessageSchema.message, FCMMessageSchema.targetFields.contains(field.name) {
                    if let set = target, set != field.name { oneofAlreadySet(name: key) }
                    target = field.name
                }
                path.append(.field(field.name))
                self.value(value, field.kind, name: key)
                path.removeLast()
            }
        }

        /// A line about the field `name` of the object at the current path.
        private mutating func invalidPayload(name: String, _ what: String) {
            let parent = pathText
            let place = parent.map { " at '\($0)'" } ?? ""
            unparsable.append(FCMError.FieldViolation(field: parent, description: "Invalid JSON payload received. Unknown name \"\(name)\"\(place): \(what)"))
        }

        /// A second member of `Message`'s `target` oneof, named `name` as written: Google's parser
        /// refuses it as captured in laravel-notification-channels/fcm#43 (`Invalid value at
        /// 'message' (oneof), oneof field 'target' is already set. Cannot set 'topic'`), whatever
        /// the values (firebase/firebase-tools#8586: an empty second one counts too).
        private mutating func oneofAlreadySet(name: String) {
            guard wrongValue == nil, let at = pathText else { return }
            wrongValue = .invalidArgument("Invalid value at '\(at)' (oneof), oneof field 'target' is already set. Cannot set '\(name)'", field: at)
        }

        private mutating func wrong(_ value: JSONValue, _ type: String) {
            guard wrongValue == nil, let at = pathText else { return }
            wrongValue = .invalidArgument("Invalid value at '\(at)' (\(type)), \(value.serialized())", field: at)
        }

        private mutating func wrong() {
            guard wrongValue == nil, let at = pathText else { return }
            wrongValue = .invalidArgument("Invalid value at '\(at)'.", field: at)
        }

        /// Checks `value` (not null) as a `kind` at the current path; `name` is the key it came under.
        private mutating func value(_ value: JSONValue, _ kind: Kind, name: String) {
            if case .array(let items) = value {
                guard case .list(let element) = kind else {
                    // Named at the parent: the field's own step comes off for the line.
                    let step = path.removeLast()
                    invalidPayload(name: name, "Proto field is not repeating, cannot start list.")
                    path.append(step)
                    return
                }
                for (i, item) in items.enumerated() {
                    if case .null = item { continue }
                    path.append(.index(i))
                    self.value(item, element, name: name)
                    path.removeLast()
                }
                return
            }
            switch kind {
            case .string:
                if case .string = value {} else { wrong(value, "TYPE_STRING") }
            case .bool:
                if value.boolValue == nil && value.stringValue.flatMap(FCMMessageSchema.quotedBool) == nil { wrong(value, "TYPE_BOOL") }
            case .int32:
                let number = value.numberValue?.text ?? value.stringValue
                if number.flatMap({ Int32($0) }) == nil { wrong(value, "TYPE_INT32") }
            case .float:
                if !FCMMessageSchema.isFloat(value) { wrong(value, "TYPE_FLOAT") }
            case .duration:
                if !(value.stringValue.map(FCMMessageSchema.isDuration) ?? false) { wrong() }
            case .timestamp:
                if !(value.stringValue.map(FCMMessageSchema.isTimestamp) ?? false) {
                    wrong(value, "type.googleapis.com/google.protobuf.Timestamp")
                }
            case .enumeration(let e):
                if let text = value.stringValue {
                    if !e.values.contains(where: { sameFieldName($0, text) }) {
                        wrong(value, "type.googleapis.com/" + e.name)
                    }
                } else if value.numberValue?.int64 == nil {
                    wrong(value, "type.googleapis.com/" + e.name)
                }
            case .list(let element):
                self.value(value, element, name: name)   // one value for a list: checked as an element
            case .stringMap:
                guard case .object(let members) = value else { return wrong() }
                for (i, (_, v)) in members.enumerated() {
                    if case .string = v { continue }
                    path.append(.mapValue(i))
                    wrong(v, "TYPE_STRING")
                    path.removeLast()
                }
            case .anyObject:
                if case .object = value {} else { wrong(value, "type.googleapis.com/google.protobuf.Struct") }
            case .message(let type):
                guard case .object(let members) = value else { return wrong(value, "type.googleapis.com/" + type.name) }
                self.members(members, of: type)
            }
        }
    }

    /// A boolean written as a string, as protobuf's `safe_strtob` reads it; nil for anything else.
    static func quotedBool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "t", "yes", "y", "1": return true
        case "false", "f", "no", "n", "0": return false
        default: return nil
        }
    }

    /// A `float` as Google's converter reads it (`DataPiece::ToFloat`): a JSON number, or a string
    /// that is `Infinity`, `-Infinity`, `NaN` or a number `strtod` reads (leading spaces, which
    /// `strtod` skips, are refused here); a value that comes out
    /// infinite (`"inf"`, `"1e999"`) or beyond a float's range is refused.
    static func isFloat(_ value: JSONValue) -> Bool {
        if let text = value.stringValue, ["Infinity", "-Infinity", "NaN"].contains(text) { return true }
        guard let text = value.numberValue?.text ?? value.stringValue, let number = Double(text) else { return false }
        return number.isFinite && abs(number) <= Double(Float.greatestFiniteMagnitude)
    }

    /// A `google.protobuf.Timestamp` in JSON, as protobuf's `ParseTime` (`stubs/time.cc`) reads it:
    /// `YYYY-MM-DDThh:mm:ss`, each field 1 to its width in digits (year 1–9999, a day that exists
    /// in its month), then optionally `.` and digits (the first nine count), then `Z` or an offset
    /// `+hh:mm` / `-hh:mm`, and nothing after.
    static func isTimestamp(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = 0
        func number(width: Int, in range: ClosedRange<Int>) -> Int? {
            var value = 0, digits = 0
            while digits < width, i < bytes.count, bytes[i].isASCIIDigit {
                value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                digits += 1
                i += 1
            }
            return digits > 0 && range.contains(value) ? value : nil
        }
        func literal(_ c: Character) -> Bool {
            guard i < bytes.count, bytes[i] == c.asciiValue else { return false }
            i += 1
            return true
        }
        guard let year = number(width: 4, in: 1...9999), literal("-"), let month = number(width: 2, in: 1...12), literal("-"),
              let day = number(width: 2, in: 1...31), literal("T"), number(width: 2, in: 0...23) != nil, literal(":"),
              number(width: 2, in: 0...59) != nil, literal(":"), number(width: 2, in: 0...59) != nil else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= monthDays[month - 1] else { return false }
        if literal(".") {
            let start = i
            while i < bytes.count, bytes[i].isASCIIDigit { i += 1 }
            guard i > start else { return false }
        }
        if !literal("Z") {
            guard literal("+") || literal("-"), number(width: 2, in: 0...23) != nil, literal(":"),
                  number(width: 2, in: 0...59) != nil else { return false }
        }
        return i == bytes.count
    }

    /// `google.protobuf.Duration` in JSON: an optional `-`, digits, up to 9 decimals, then `s`.
    static func isDuration(_ text: String) -> Bool {
        var bytes = Substring(text).utf8
        guard bytes.last == UInt8(ascii: "s") else { return false }
        bytes = bytes.dropLast()
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let whole = bytes.prefix { $0 &- 48 < 10 }
        guard !whole.isEmpty else { return false }
        let rest = bytes.dropFirst(whole.count)
        guard let dot = rest.first else { return true }
        let fraction = rest.dropFirst()
        return dot == UInt8(ascii: ".") && (1...9).contains(fraction.count) && fraction.allSatisfy { $0 &- 48 < 10 }
    }
}
