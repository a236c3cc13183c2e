import PushSimKernel
import PushSimNetwork
import PushSimDevices

/// FCM topics in scenario files: `<device> subscribe to topic "<name>"`, `<device> unsubscribe
/// from topic "<name>"`, `operator send fcm "<body>" to topic "<name>"|condition "<expression>"`,
/// and `expect fcm topic "<name>" has <n> subscribers`.
extension ScenarioParser.Session {
    static let topicUsage = "write subscribe to topic \"<name>\" or unsubscribe from topic \"<name>\", e.g. subscribe to topic \"news\""
    static let fcmSendUsage = "write operator send fcm \"{\\\"message\\\":{…}}\" to topic \"<name>\", to condition \"<expression>\" or to token of <device>, "
        + "e.g. to condition \"'news' in topics && 'sport' in topics\""

    /// After `<device> subscribe|unsubscribe`: `to|from topic "<name>"`. Only an Android device
    /// subscribes (a population's other members are ignored when the step runs, with the reason);
    /// the name must be one FCM takes (letters, digits, `-_.~%`), checked here unless it holds a
    /// population's `{n}` or `{user}`.
    mutating func topicAction(_ t: inout ScenarioParser.Tokens, device: ScenarioToken, verb: ScenarioToken) throws(ScenarioDiagnostic) -> DeviceAction {
        let unsubscribe = verb.text == "unsubscribe"
        try t.keyword(unsubscribe ? "from" : "to", hint: Self.topicUsage)
        try t.keyword("topic", hint: Self.topicUsage)
        let name = try t.string("a topic name in double quotes", hint: Self.topicUsage)
        if let declared = devices.first(where: { $0.name == device.text }), declared.platform != .android {
            throw ScenarioDiagnostic(location: t.location(verb),
                                     message: "\(device.quoted) is \(declared.platform == .ios ? "an iOS" : "a Windows") device: topics are FCM's",
                                     hint: "only an Android app subscribes to an FCM topic; use an android device")
        }
        let bare = name.text.hasPrefix(FCMTopicName.prefix) ? String(name.text.dropFirst(FCMTopicName.prefix.count)) : name.text
        if !bare.contains("{"), !FCMTopicName.isValid(bare) {
            throw ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) is not an FCM topic name",
                                     hint: "a topic name is one or more letters, digits, -, _, ., ~ or %")
        }
        return .topic(name.text, unsubscribe: unsubscribe)
    }

    /// After `operator send fcm`: the v1 request body (an object with a `message` object) and
    /// `to topic "<name>"` or `to condition "<expression>"`. Neither is checked here: FCM answers a
    /// bad one (400 INVALID_ARGUMENT), which is what a scenario may want to show.
    mutating func fcmSendAction(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> OperatorAction {
        let body = try t.string("the v1 request body in double quotes, {\"message\":{…}}", hint: Self.fcmSendUsage)
        guard let json = try? JSONParser.parse(Array(body.text.utf8)), case .object? = json["message"] else {
            throw ScenarioDiagnostic(location: t.location(body), message: "\(body.quoted) is not an FCM v1 request body",
                                     hint: "a send straight to FCM takes {\"message\":{…}}, as messages:send does; the target is added from to topic|condition")
        }
        try t.keyword("to", hint: Self.fcmSendUsage)
        guard let which = t.peek, which.isWord("topic") || which.isWord("condition") || which.isWord("token") else {
            throw t.expected("topic, condition or token of <device> after to",
                             hint: "a send straight to FCM goes to a topic, a condition or a device's token; tag expressions are the hub's (operator send fcmv1 … to \"<tags>\")")
        }
        _ = t.next()
        if which.text == "token" {
            let holder = try fcmTokenHolder(&t)
            // `with live activity token of <device>`: the message's apns.live_activity_token (F-LIVE).
            if t.skip("with") {
                let token = try liveActivityToken(&t, usage: "write … to token of \(holder) with live activity token of <device> or with push-to-start token \"<Type>\" of <device>")
                return .fcmLiveActivitySend(body: body.text, device: holder, token: token)
            }
            return .fcmSend(body: body.text, target: .tokenOf(holder))
        }
        let target = try t.string(which.text == "topic" ? "a topic name in double quotes" : "a condition in double quotes", hint: Self.fcmSendUsage)
        return .fcmSend(body: body.text, target: which.text == "topic" ? .topic(target.text) : .condition(target.text))
    }

    /// After `to token`: `of <device>`, a device that has an FCM token of its own: an Android
    /// device, or an iOS device declared `firebase`. Another iOS or a Windows device is an error at
    /// its name (when declared above; a device declared later is checked as any device name is).
    mutating func fcmTokenHolder(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> String {
        try t.keyword("of", hint: Self.fcmSendUsage)
        let device = try t.word("a device name", hint: Self.fcmSendUsage)
        if let declared = devices.first(where: { $0.name == device.text }), declared.platform != .android, !declared.firebase {
            throw ScenarioDiagnostic(location: t.location(device),
                                     message: "\(device.quoted) has no FCM token: \(declared.platform == .ios ? "its app has no Firebase SDK" : "a Windows app has a WNS channel")",
                                     hint: "send to an android device, or declare the iPhone with firebase (device \(device.text) ios firebase)")
        }
        use(device, t)
        return device.text
    }

    /// After `expect fcm`: `topic "<name>" has <n> subscriber(s)`.
    mutating func topicSubscribers(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = "write expect fcm topic \"<name>\" has <n> subscribers"
        try t.keyword("topic", hint: usage)
        let name = try t.string("a topic name in double quotes", hint: usage)
        try t.keyword("has", hint: usage)
        let (count, _) = try t.number("a number of subscribers", as: Int.self)
        guard t.skip("subscribers") || t.skip("subscriber") else { throw t.expected("\"subscribers\" after \(count)", hint: usage) }
        return .topicSubscribers(topic: name.text, count: count)
    }
}
