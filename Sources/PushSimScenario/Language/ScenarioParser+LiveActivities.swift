import PushSimKernel
import PushSimNetwork
import PushSimDevices

/// Live Activities in scenario files (Citations §1.14–§1.17): an iPhone's steps (`observe
/// push-to-start "<Type>"`, `start live activity …`, `end live activity …`, `rotate …`,
/// `disable|enable live activities`), the operator's send straight to APNs with a Live Activity
/// token (`operator send apns "<payload>" to live activity token of <device>`), an FCM send that
/// carries one (`… to token of <device> with live activity token of <device>`), and
/// `expect <device> live activity ["<Type>"] <state>|content "<field>" "<value>"|alert "<text>"`.
extension ScenarioParser.Session {
    static let liveActivityUsage = "write observe push-to-start \"<Type>\", start live activity \"<Type>\" \"<content-state JSON>\" "
        + "[attributes \"<JSON>\"] [stale after <duration>] [on channel \"<name>\"], end live activity [\"<Type>\"] [dismiss after <duration>], "
        + "rotate push-to-start \"<Type>\", rotate live activity token [\"<Type>\"], or disable|enable live activities"
    static let apnsSendUsage = "write operator send apns \"<payload>\" to live activity token of <device> [\"<Type>\"] "
        + "or to push-to-start token \"<Type>\" of <device>, then any header \"apns-…\" \"<value>\""

    /// A Live Activity step after `<device> <verb>` (`observe`, `start`, `end`, `rotate`, `disable`,
    /// `enable`); only an iPhone on iOS 16 or later (17 for push-to-start) takes one.
    mutating func liveActivityAction(_ t: inout ScenarioParser.Tokens, device: ScenarioToken, verb: ScenarioToken) throws(ScenarioDiagnostic) -> DeviceAction {
        let step: LiveActivityStep
        switch verb.text {
        case "observe":
            try t.keyword("push-to-start", hint: Self.liveActivityUsage)
            step = .observePushToStart(attributesType: try attributesType(&t))
        case "start":
            try liveActivityWords(&t)
            let type = try attributesType(&t)
            let state = try jsonObject(&t, what: "the content-state, a JSON object in double quotes")
            var attributes = "{}"
            var staleAfter: VirtualDuration?
            var channel: String?
            var seen: [String] = []
            while let option = try t.option(among: ["attributes", "stale", "on"], seen: &seen, in: "start live activity") {
                switch option.text {
                case "attributes": attributes = try jsonObject(&t, what: "the attributes, a JSON object in double quotes")
                case "stale":
                    try t.keyword("after", hint: "write stale after <duration>, e.g. stale after 10m")
                    staleAfter = try t.duration()
                default: channel = try activityChannel(&t, device: device, verb: verb)
                }
            }
            step = .start(attributesType: type, contentState: state, attributes: attributes, staleAfter: staleAfter, channel: channel)
        case "end":
            try liveActivityWords(&t)
            let type = try optionalAttributesType(&t)
            var dismissAfter: VirtualDuration?
            if t.skip("dismiss") {
                try t.keyword("after", hint: "write dismiss after <duration>, e.g. dismiss after 15m")
                dismissAfter = try t.duration()
            }
            step = .end(attributesType: type, dismissAfter: dismissAfter)
        case "rotate":
            if t.skip("push-to-start") {
                step = .rotatePushToStart(attributesType: try attributesType(&t))
            } else {
                try liveActivityWords(&t)
                try t.keyword("token", hint: "write rotate live activity token [\"<Type>\"]")
                step = .rotateToken(attributesType: try optionalAttributesType(&t))
            }
        default:
            try t.keyword("live", hint: Self.liveActivityUsage)
            try t.keyword("activities", hint: "write \(verb.text) live activities")
            step = .enabled(verb.text == "enable")
        }
        try liveActivityDevice(device, pushToStart: { if case .observePushToStart = step { return true } else { return false } }(), at: t.location(verb))
        return .liveActivity(step)
    }

    /// After `operator send apns`: the payload, `to` and a Live Activity token, then headers.
    mutating func apnsSendAction(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> OperatorAction {
        let payload = try t.string("the APNs payload in double quotes", hint: Self.apnsSendUsage)
        try t.keyword("to", hint: Self.apnsSendUsage)
        let token = try liveActivityToken(&t, usage: Self.apnsSendUsage)
        return .apnsSend(payload: payload.text, token: token, headers: try sendHeaders(&t, format: "apple"))
    }

    /// `live activity token of <device> ["<Type>"]` or `push-to-start token "<Type>" of <device>`.
    mutating func liveActivityToken(_ t: inout ScenarioParser.Tokens, usage: String) throws(ScenarioDiagnostic) -> LiveActivityTokenReference {
        if t.skip("push-to-start") {
            try t.keyword("token", hint: usage)
            let type = try attributesType(&t)
            try t.keyword("of", hint: usage)
            let device = try t.word("a device name", hint: usage)
            try liveActivityDevice(device, pushToStart: true, at: t.location(device))
            use(device, t)
            return .pushToStart(device: device.text, attributesType: type)
        }
        guard t.peek?.isWord("live") == true else {
            throw t.expected("live activity token of <device> or push-to-start token \"<Type>\" of <device>", hint: usage)
        }
        try liveActivityWords(&t)
        try t.keyword("token", hint: usage)
        try t.keyword("of", hint: usage)
        let device = try t.word("a device name", hint: usage)
        try liveActivityDevice(device, pushToStart: false, at: t.location(device))
        use(device, t)
        return .update(device: device.text, attributesType: try optionalAttributesType(&t))
    }

    /// After `expect <device> live`: `activity ["<Type>"]` and what to check.
    mutating func liveActivityExpectation(_ t: inout ScenarioParser.Tokens, device: ScenarioToken) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = "write expect \(device.text) live activity [\"<Type>\"] active|stale|ended|dismissed|none, "
            + "content \"<field>\" \"<value>\", or alert \"<text>\""
        try t.keyword("activity", hint: usage)
        try liveActivityDevice(device, pushToStart: false, at: t.location(device))
        let type = try optionalAttributesType(&t)
        let what = try t.word("active, stale, ended, dismissed, none, content or alert", hint: usage)
        let check: LiveActivityCheck
        switch what.text {
        case "content":
            let field = try t.string("a content-state field in double quotes, e.g. \"score\"", hint: usage)
            check = .content(field: field.text, value: try t.string("the value in double quotes", hint: usage).text)
        case "alert":
            check = .alert(try t.string("the alert text in double quotes", hint: usage).text)
        case "none":
            check = .state(nil)
        default:
            guard let state = LiveActivityState(rawValue: what.text) else {
                throw ScenarioDiagnostic(location: t.location(what), message: "unknown Live Activity check \(what.quoted)", hint: usage)
            }
            check = .state(state)
        }
        return .liveActivity(device: device.text, attributesType: type, check: check)
    }

    private func liveActivityWords(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        try t.keyword("live", hint: Self.liveActivityUsage)
        try t.keyword("activity", hint: Self.liveActivityUsage)
    }

    private func attributesType(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> String {
        let type = try t.string("the ActivityAttributes type's name in double quotes, e.g. \"MatchAttributes\"", hint: Self.liveActivityUsage)
        guard !type.text.isEmpty else {
            throw ScenarioDiagnostic(location: t.location(type), message: "an attributes type cannot be empty", hint: Self.liveActivityUsage)
        }
        return type.text
    }

    private func optionalAttributesType(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> String? {
        guard t.peek?.kind == .string else { return nil }
        return try attributesType(&t)
    }

    private func jsonObject(_ t: inout ScenarioParser.Tokens, what: String) throws(ScenarioDiagnostic) -> String {
        let text = try t.string(what, hint: Self.liveActivityUsage)
        guard let json = try? JSONParser.parse(Array(text.text.utf8)), json.objectMembers != nil else {
            throw ScenarioDiagnostic(location: t.location(text), message: "\(text.quoted) is not a JSON object",
                                     hint: "write it as in the push, e.g. \"{\\\"home\\\":0,\\\"away\\\":0}\"")
        }
        return text.text
    }

    /// A device declared above must be an iPhone new enough for Live Activities (push-to-start:
    /// iOS 17.2, written 17).
    private func liveActivityDevice(_ device: ScenarioToken, pushToStart: Bool, at location: SourceLocation) throws(ScenarioDiagnostic) {
        guard let declared = devices.first(where: { $0.name == device.text }) else { return }
        let os = declared.osVersion ?? declared.platform.profile.defaultOSVersion
        let needed = pushToStart ? LiveActivityLimits.firstPushToStartOS : LiveActivityLimits.firstOS
        guard declared.platform == .ios, os >= needed else {
            throw ScenarioDiagnostic(location: location,
                                     message: "\(device.quoted) is \(declared.platform.rawValue) \(os): \(pushToStart ? "push-to-start needs iOS 17.2" : "Live Activities need iOS 16.1") or later",
                                     hint: "declare an iPhone with os \(needed) or later, e.g. device \(device.text) ios os 18")
        }
    }
}
