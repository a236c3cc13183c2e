import PushSimKernel
import PushSimDevices

/// Notification permission in scenario files: `<device> deny notifications`, `<device> allow
/// notifications [provisionally]`, `<device> disable|enable channel "<id>"`, and `expect <device>
/// suppressed "<text>" | nothing | <n> notifications`.
extension ScenarioParser.Session {
    static let permissionUsage = "write deny notifications, allow notifications, allow notifications provisionally (iOS), "
        + "or disable|enable channel \"<id>\" (Android)"

    /// After `<device> deny|allow`: `notifications`, and after allow an optional `provisionally`,
    /// which only an iOS device (12 or later) takes.
    mutating func permissionAction(_ t: inout ScenarioParser.Tokens, device: ScenarioToken, verb: ScenarioToken) throws(ScenarioDiagnostic) -> DeviceAction {
        try t.keyword("notifications", hint: Self.permissionUsage)
        guard verb.text == "allow", let word = t.peek, word.isWord("provisionally") else {
            return .permission(verb.text == "deny" ? .denied : .authorized)
        }
        _ = t.next()
        if let declared = devices.first(where: { $0.name == device.text }) {
            let rules = declared.platform.profile.permission
            let os = declared.osVersion ?? declared.platform.profile.defaultOSVersion
            guard let since = rules.provisionalSince, os >= since else {
                throw ScenarioDiagnostic(location: t.location(word),
                                         message: "\(device.quoted) is \(declared.platform.rawValue) \(os): provisional authorization is iOS 12's and later's",
                                         hint: "use an ios device (os 12 or later), or write allow notifications")
            }
        }
        return .permission(.provisional)
    }

    /// After `<device> disable|enable`: `channel "<id>"`, on an Android device (8 or later).
    mutating func channelAction(_ t: inout ScenarioParser.Tokens, device: ScenarioToken, verb: ScenarioToken) throws(ScenarioDiagnostic) -> DeviceAction {
        let usage = "write \(verb.text) channel \"<id>\", e.g. \(verb.text) channel \"\(Device.fallbackChannel)\""
        try t.keyword("channel", hint: usage)
        let id = try t.string("a channel id in double quotes", hint: usage)
        guard !id.text.isEmpty else {
            throw ScenarioDiagnostic(location: t.location(id), message: "a channel id cannot be empty", hint: usage)
        }
        if let declared = devices.first(where: { $0.name == device.text }) {
            let os = declared.osVersion ?? declared.platform.profile.defaultOSVersion
            guard let since = declared.platform.profile.permission.channelsSince, os >= since else {
                throw ScenarioDiagnostic(location: t.location(verb),
                                         message: "\(device.quoted) is \(declared.platform.rawValue) \(os): notification channels are Android 8's and later's",
                                         hint: "use an android device, or deny notifications to turn all of the app's notifications off")
            }
        }
        return .channel(id.text, enabled: verb.text == "enable")
    }

    /// After `expect <device> suppressed`: `"<text>"`, `nothing`, or `<n> notification(s)`, as after `shows`.
    func suppressed(_ t: inout ScenarioParser.Tokens, device: String) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = "write expect \(device) suppressed \"<text>\" | nothing | <n> notifications"
        let what = "\"<text>\", nothing or <n> notifications after suppressed"
        guard let next = t.peek else { throw t.expected(what, hint: usage) }
        if next.kind == .string {
            _ = t.next()
            return .suppressed(device: device, text: next.text)
        }
        if t.skip("nothing") { return .suppressedCount(device: device, count: 0) }
        guard ScenarioParser.isDigits(next.text[...]) else { throw t.expected(what, hint: usage) }
        let (count, _) = try t.number("a number of notifications", as: Int.self)
        guard t.skip("notifications") || t.skip("notification") else {
            throw t.expected("\"notifications\" after \(count)", hint: "write suppressed \(count) notifications")
        }
        return .suppressedCount(device: device, count: count)
    }
}
