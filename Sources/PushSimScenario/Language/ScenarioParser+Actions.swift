import PushSimKernel
import PushSimBackend
import PushSimDevices
import PushSimNetwork
import PushSimHub

extension ScenarioParser {
    /// The words that may follow a device name in an action.
    static let actionVerbs = ["install", "uninstall", "launch", "restore", "refresh-handle", "clear-data", "login", "logout", "register", "send",
                              "request", "offline", "online", "subscribe", "unsubscribe", "deny", "allow", "disable", "enable",
                              "observe", "start", "end", "rotate"]
    static let actionHint = "actions are \(actionVerbs.joined(separator: ", "))"
    static let switchHint = "switches are \(PushSwitch.allCases.map(\.rawValue).joined(separator: ", ")); separate several with commas, e.g. via apns,wns"
}

/// Timed steps: `at <time> <action>`, `advance <duration>` and device actions.
extension ScenarioParser.Session {
    /// `at <time> <device> <action>`: `at 5s` sets the cursor (never backwards), `at +2s` moves it.
    mutating func atStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let (spec, token) = try t.time()
        guard let time = spec.resolved(from: cursor) else { throw overflow(token, t) }
        if case .absolute = spec, time < cursor {
            throw ScenarioDiagnostic(
                location: t.location(token),
                message: "at \(token.text) is earlier than the previous step at \(cursor - .zero)",
                hint: "steps run in file order; use at +<duration> for a time relative to the previous step")
        }
        cursor = time
        guard let device = t.peek, device.isWord, !ScenarioParser.statementKeywords.contains(device.text) else {
            throw t.expected("a device action after \"at \(token.text)\"", hint: "write at <time> <device> <action>, e.g. at \(token.text) bob-iphone install")
        }
        try actionStatement(&t, at: time)
    }

    /// `advance <duration>`: moves the cursor.
    mutating func advanceStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let d = try t.duration()
        try t.finish()
        guard let time = ScenarioParser.adding(d, to: cursor) else { throw overflow(t.line.tokens[1], t) }
        cursor = time
    }

    private func overflow(_ token: ScenarioToken, _ t: ScenarioParser.Tokens) -> ScenarioDiagnostic {
        ScenarioDiagnostic(location: t.location(token), message: "\(token.quoted) moves the time past the largest virtual time",
                           hint: "virtual time must fit in 64-bit microseconds (about 292,000 years)")
    }

    /// A step: the operator's (`operator send …`), a population's (`fans install`) or a device's
    /// (`<device> install|uninstall|offline|online`, `<device> login <user> password <password>`,
    /// `<device> send "<message>" to <user> via <switch>[,<switch>...]`).
    mutating func actionStatement(_ t: inout ScenarioParser.Tokens, at time: VirtualTime) throws(ScenarioDiagnostic) {
        let device = try t.word("a device name")
        if device.text == OperatorConsole.name { return try operatorAction(&t, device: device, at: time) }
        if populations[device.text] != nil { return try populationAction(&t, population: device, at: time) }
        if let line = populationLines[device.text], !declaredNames.contains(device.text) {
            guard line > t.line.number else { return }   // its declaration has a mistake, reported there
            throw ScenarioDiagnostic(location: t.location(device), message: "population \(device.quoted) is declared on line \(line), after this step",
                                     hint: "declare a population before the steps that use it")
        }
        use(device, t)
        if browserNames.contains(device.text) || appServerNames.contains(device.text) {
            let action = try webPushAction(&t, actor: device)
            return actions.append(ScenarioAction(time: time, device: device.text, kind: .webPush(action), location: t.location(device)))
        }
        let verb = try t.word("an action after \(device.quoted)", hint: ScenarioParser.actionHint)
        let action = try deviceAction(&t, device: device, verb: verb)
        try t.finish(hint: verb.text == "send" ? "separate switches with commas: via apns,wns" : nil)
        actions.append(ScenarioAction(time: time, device: device.text, kind: .device(action), location: t.location(device)))
    }

    /// The device's action after `<device> <verb>`: the rest of the statement up to its end, not checked.
    mutating func deviceAction(_ t: inout ScenarioParser.Tokens, device: ScenarioToken, verb: ScenarioToken) throws(ScenarioDiagnostic) -> DeviceAction {
        let kind: DeviceAction
        switch verb.text {
        case "install": kind = .install
        case "uninstall": kind = .uninstall
        case "offline": kind = .offline
        case "online": kind = .online
        case "login":
            let usage = "write login <user> password <password>"
            let user = try t.text("a user name after login", hint: usage)
            try t.keyword("password", hint: usage)
            let password = try t.text("a password", hint: usage)
            kind = .login(user: user.text, password: password.text)
        case "send":
            let usage = "write send \"<message>\" to <user> via apns|fcm|gcm|wns|browser"
            let message = try t.string("a message in double quotes", hint: usage)
            try t.keyword("to", hint: usage)
            let user = try t.word("a user name after to", hint: usage)
            try t.keyword("via", hint: "say which switches the app sends with: via apns, via fcm,wns, ... (\(ScenarioParser.switchHint))")
            kind = .send(message: message.text, to: user.text, via: try switches(&t))
        case "logout": kind = .logout
        case "launch": kind = .launch
        case "refresh-handle": kind = .refreshHandle
        case "clear-data": kind = .clearData
        case "restore":
            try t.keyword("from", hint: "write restore from <device>: install the app from that device's backup")
            let other = try t.word("the device whose backup is restored", hint: "write restore from <device>")
            use(other, t)
            guard other.text != device.text else {
                throw ScenarioDiagnostic(location: t.location(other), message: "a device cannot restore from itself",
                                         hint: "restore from another device, e.g. the old phone")
            }
            kind = .restore(from: other.text)
        case "register":
            var tags: [String] = []
            if t.skip("with") {
                try t.keyword("tags", hint: "write register with tags <tag>[,<tag>...]")
                tags = try t.tagList(hint: "e.g. register with tags username:bob")
            }
            kind = .register(tags: tags)
        case "request":
            kind = try request(&t)
        case "subscribe", "unsubscribe":
            if t.peek?.isWord("push") == true {
                throw ScenarioDiagnostic(location: t.location(verb), message: "\(device.quoted) is a phone or PC; \(verb.text) push is a browser's step",
                                         hint: "declare a browser with: browser <name> chrome|firefox|safari|edge, and subscribe it instead")
            }
            kind = try topicAction(&t, device: device, verb: verb)
        case "deny", "allow":
            kind = try permissionAction(&t, device: device, verb: verb)
        case "disable", "enable":
            // `disable|enable live activities` (LiveActivities), else a notification channel.
            kind = t.peek?.isWord("live") == true ? try liveActivityAction(&t, device: device, verb: verb)
                : try channelAction(&t, device: device, verb: verb)
        case "start" where t.peek?.isWord("activity") == true:
            // The first form of a Live Activity on a broadcast channel (§1.20), before it was one Live Activity model.
            throw ScenarioDiagnostic(location: t.location(verb), message: "start activity on channel is now a Live Activity step",
                                     hint: Self.activityUsage)
        case "observe", "start", "end", "rotate":
            kind = try liveActivityAction(&t, device: device, verb: verb)
        default:
            throw ScenarioDiagnostic(location: t.location(verb), message: "unknown action \(verb.quoted)",
                                     hint: ScenarioParser.actionHint)
        }
        return kind
    }

    /// `operator send|test-send <format> "<payload>"|file "<path>" [to "<expression>"]` (a file's
    /// path is relative to the scenario's folder; a `.apns` file is checked as the Simulator
    /// checks it, see ``ScenarioParser/payloadFile(_:format:scenarioPath:at:)``),
    /// `operator schedule <format> "<payload>" at <time> [to "<expression>"]`, `operator cancel scheduled`
    private mutating func operatorAction(_ t: inout ScenarioParser.Tokens, device: ScenarioToken, at time: VirtualTime) throws(ScenarioDiagnostic) {
        let usage = "write operator send|test-send apple|fcmv1|windows \"<payload>\"|file \"<path>\" [to \"<tag expression>\"], "
            + "operator send fcm \"<v1 body>\" to topic \"<name>\"|condition \"<expression>\", "
            + "operator send apns \"<payload>\" to live activity token of <device>|push-to-start token \"<Type>\" of <device>, "
            + "operator send template \"<properties as JSON>\" [to …], "
            + "operator schedule <format> \"<payload>\" at <time> [to …], operator cancel scheduled, "
            + "operator update|delete registration of <device> [if-match current|stale|any], "
            + "operator put|patch|delete installation of <device> …, operator list registrations [for \"<tag>\"], "
            + "operator create channel \"<name>\" storage none|most-recent, operator delete channel \"<name>\", "
            + "operator broadcast \"<payload>\" on channel \"<name>\", "
            + "or operator key full|listen|policy \"<name>\""
        let verb = try t.word("send, schedule, cancel, test-send, update, delete, put, patch, list, key, create or broadcast", hint: usage)
        let kind: OperatorAction
        if verb.text == "key" {
            kind = .useKey(try operatorKey(&t))
        } else if verb.text == "list" {
            let listUsage = "write operator list registrations [for \"<tag>\"]"
            try t.keyword("registrations", hint: listUsage)
            var tag: String?
            if t.skip("for") { tag = try t.string("a tag in double quotes, e.g. \"username:bob\"", hint: listUsage).text }
            kind = .listRegistrations(tag: tag)
        } else if verb.text == "broadcast" {
            kind = try broadcastAction(&t)
        } else if verb.text == "create" || (verb.text == "delete" && t.peek?.isWord("channel") == true) {
            kind = try channelManagementAction(&t, verb: verb)
        } else if ["put", "patch"].contains(verb.text) || (verb.text == "delete" && t.peek?.isWord("installation") == true) {
            kind = try installationAction(&t, verb: verb)
        } else if verb.text == "cancel" {
            try t.keyword("scheduled", hint: "write operator cancel scheduled (cancels the most recent scheduled send)")
            kind = .cancelScheduled
        } else if verb.text == "update" || verb.text == "delete" {
            let registrationUsage = "write operator \(verb.text) registration of <device> [if-match current|stale|any]"
            try t.keyword("registration", hint: registrationUsage)
            try t.keyword("of", hint: registrationUsage)
            let target = try t.word("a device name", hint: registrationUsage)
            use(target, t)
            var ifMatch = IfMatchChoice.current
            if t.skip("if-match") {
                let choice = t.peek
                ifMatch = try t.choice(IfMatchChoice.self, what: "If-Match choice", plural: "choices")
                if ifMatch == .any && verb.text == "update", let choice {
                    throw ScenarioDiagnostic(location: t.location(choice), message: "an update names a version: if-match any is for delete",
                                             hint: "write if-match current or if-match stale")
                }
            }
            kind = .registration(device: target.text, delete: verb.text == "delete", ifMatch: ifMatch)
        } else if verb.text == "send", t.peek?.isWord("apns") == true {
            _ = t.next()
            kind = try apnsSendAction(&t)
        } else if verb.text == "send", t.peek?.isWord(FCMSendTarget.service) == true {
            _ = t.next()
            kind = try fcmSendAction(&t)
        } else {
            guard ["send", "schedule", "test-send"].contains(verb.text) else {
                throw ScenarioDiagnostic(location: t.location(verb), message: "unknown operator action \(verb.quoted)", hint: usage)
            }
            let formats = PushServiceDescriptor.all.map(\.hubFormat) + ["template"]
            let format = try t.word("a format: \(formats.joined(separator: ", "))", hint: usage)
            guard formats.contains(format.text) else {
                throw ScenarioDiagnostic(location: t.location(format), message: "unknown format \(format.quoted)",
                                         hint: "formats are \(formats.joined(separator: ", "))")
            }
            let payload: String
            if format.text == "template" {
                payload = try templateProperties(&t)
            } else if t.skip("file") {
                let name = try t.string("the payload file's path in double quotes, e.g. file \"goal.apns\"", hint: usage)
                payload = try ScenarioParser.payloadFile(name, format: format.text, scenarioPath: path, at: t.location(name))
            } else {
                payload = try t.string("the payload in double quotes, or file \"<path>\"", hint: usage).text
            }
            var when: VirtualTime?
            if verb.text == "schedule" {
                try t.keyword("at", hint: "write operator schedule <format> \"<payload>\" at <time>, e.g. at +2h")
                let (spec, token) = try t.time()
                guard let resolved = spec.resolved(from: time) else {
                    throw ScenarioDiagnostic(location: t.location(token), message: "\(token.quoted) is past the largest virtual time", hint: usage)
                }
                when = resolved
            }
            var expression: String?
            if t.skip("to") {
                if let word = t.peek, word.isWord("topic") || word.isWord("condition") {
                    throw ScenarioDiagnostic(location: t.location(word), message: "the hub sends to tag expressions, not to FCM \(word.text)s",
                                             hint: "topics are FCM's own: operator send fcm \"{\\\"message\\\":{…}}\" to \(word.text) \"…\" sends straight to FCM")
                }
                expression = try t.string("a tag expression in double quotes, e.g. \"username:bob && topic:news\"", hint: usage).text
            }
            let headers = try sendHeaders(&t, format: format.text)
            switch verb.text {
            case "send": kind = .send(format: format.text, payload: payload, tagExpression: expression, headers: headers)
            case "schedule": kind = .schedule(format: format.text, payload: payload, at: when!, tagExpression: expression, headers: headers)
            default: kind = .testSend(format: format.text, payload: payload, tagExpression: expression, headers: headers)
            }
        }
        try t.finish(hint: usage)
        actions.append(ScenarioAction(time: time, device: device.text, kind: .operator(kind), location: t.location(device)))
    }

    /// `key full|listen|policy "<name>"`, after `operator`.
    private mutating func operatorKey(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> HubKey {
        try hubKey(&t, usage: "write operator key full (the default), operator key listen, or operator key policy \"<name>\" for a hub policy the file declares")
    }

    /// `full|listen|policy "<name>"` after `operator key` or `backend key`; a named policy is
    /// checked against the file's `hub policy` statements once the whole file is read.
    mutating func hubKey(_ t: inout ScenarioParser.Tokens, usage: String) throws(ScenarioDiagnostic) -> HubKey {
        let word = try t.word("full, listen or policy", hint: usage)
        switch word.text {
        case "full": return .full
        case "listen": return .listen
        case "policy":
            let name = try t.text("the policy's name, e.g. \"marketing\"", hint: usage)
            policyUses.append((name.text, t.location(name)))
            return .policy(name.text)
        default:
            throw ScenarioDiagnostic(location: t.location(word), message: "unknown key \(word.quoted)", hint: usage)
        }
    }

    /// `put installation of <device> [with tags <tag>,…] [user <id>]`, `patch installation of
    /// <device> add tag <tag> | remove tag <tag> | replace channel`, `delete installation of <device>`.
    private mutating func installationAction(_ t: inout ScenarioParser.Tokens, verb: ScenarioToken) throws(ScenarioDiagnostic) -> OperatorAction {
        let usage: String
        switch verb.text {
        case "put": usage = "write operator put installation of <device> [with tags <tag>[,<tag>…]] [user <id>] [template \"<name>\" body \"<body>\" "
            + "[header \"<name>\" \"<value>\"]… [expiry \"<value>\"] [tags <tag>,…]]…"
        case "patch": usage = "write operator patch installation of <device> add tag <tag> | remove tag <tag> | add template \"<name>\" body \"<body>\" "
            + "[header …]… [expiry …] [tags …] | remove template \"<name>\" | replace channel"
        default: usage = "write operator delete installation of <device>"
        }
        try t.keyword("installation", hint: usage)
        try t.keyword("of", hint: usage)
        let target = try t.word("a device name", hint: usage)
        use(target, t)
        /// A tag, checked by the hub, not here: a tag it refuses is its 400 to see.
        func tag() throws(ScenarioDiagnostic) -> String { try t.text("a tag, e.g. news or topic:sports", hint: usage).text }
        switch verb.text {
        case "put":
            var tags: [String] = []
            if t.skip("with") {
                try t.keyword("tags", hint: usage)
                tags = try t.tagList(hint: usage)
            }
            var user: String?
            if t.skip("user") { user = try t.text("a user id", hint: usage).text }
            var templates: [NamedTemplate] = []
            while let keyword = t.peek, keyword.isWord("template") {
                _ = t.next()
                let name = t.peek
                let template = try namedTemplate(&t, device: target.text, usage: usage)
                if let name, templates.contains(where: { $0.name == template.name }) {
                    throw ScenarioDiagnostic(location: t.location(name), message: "template \"\(template.name)\" is given twice",
                                             hint: "an installation's templates have distinct names")
                }
                templates.append(template)
            }
            return .installation(device: target.text, change: .put(tags: tags, userID: user, templates: templates))
        case "patch":
            if t.skip("add") {
                if t.skip("template") { return .installation(device: target.text, change: .addTemplate(try namedTemplate(&t, device: target.text, usage: usage))) }
                try t.keyword("tag", hint: usage)
                return .installation(device: target.text, change: .addTag(try tag()))
            }
            if t.skip("remove") {
                if t.skip("template") {
                    let name = try t.string("the template's name in double quotes", hint: usage)
                    return .installation(device: target.text, change: .removeTemplate(name.text))
                }
                try t.keyword("tag", hint: usage)
                return .installation(device: target.text, change: .removeTag(try tag()))
            }
            if t.skip("replace") {
                try t.keyword("channel", hint: usage)
                return .installation(device: target.text, change: .replaceChannel)
            }
            throw t.expected("add tag, remove tag, add template, remove template or replace channel", hint: usage)
        default:
            return .installation(device: target.text, change: .delete)
        }
    }

    /// The properties of a template send, `"{\"message\":\"Goal\"}"` after `template`: a JSON object
    /// of string values, which is all the SDK's `SendTemplateNotificationAsync(IDictionary<string,
    /// string>)` can send (NH-TPL). Returned as the SDK writes the body; anything else is an error
    /// at the string.
    private func templateProperties(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> String {
        let usage = "write operator send template \"{\\\"message\\\":\\\"Goal\\\"}\" [to \"<tag expression>\"]: the properties the hub fills the templates with"
        let text = try t.string("the template's properties in double quotes, a JSON object of strings", hint: usage)
        guard let parsed = try? JSONParser.parse(text.text), let members = parsed.objectMembers else {
            throw ScenarioDiagnostic(location: t.location(text), message: "a template send's properties must be a JSON object", hint: usage)
        }
        var properties: [(String, String)] = []
        for (name, value) in members {
            guard let string = value.stringValue else {
                throw ScenarioDiagnostic(location: t.location(text), message: "template property \"\(name)\" is not a string", hint: usage)
            }
            properties.append((name, string))
        }
        return NotificationPayload.template(properties).body
    }

    /// `header "<name>" "<value>"`, repeated, after an operator send: `apns-*` headers for `apple`
    /// (`apns-push-type`, `apns-priority`, `apns-collapse-id`, `apns-expiration`), `X-WNS-*` for
    /// `windows` (`X-WNS-TTL`, `X-WNS-Tag`, …); none for `fcmv1`, whose options are in its body.
    func sendHeaders(_ t: inout ScenarioParser.Tokens, format: String) throws(ScenarioDiagnostic) -> [SendHeader] {
        var headers: [SendHeader] = []
        while let keyword = t.peek, keyword.isWord("header") {
            _ = t.next()
            let usage = "write header \"apns-priority\" \"5\" (apple) or header \"X-WNS-TTL\" \"60\" (windows)"
            let name = try t.string("a header name in double quotes", hint: usage)
            guard let service = PushServiceDescriptor.forHubFormat(format) else {
                throw ScenarioDiagnostic(location: t.location(keyword), message: "a template send takes no headers",
                                         hint: "a template's headers come from the installation or registration it fills")
            }
            guard let prefix = service.hubHeaderPrefix else {
                throw ScenarioDiagnostic(location: t.location(keyword), message: "an \(format) send takes no headers",
                                         hint: "\(service.displayName) takes its options in the message body, e.g. \"android\":{\"priority\":\"high\",\"ttl\":\"60s\"}")
            }
            guard name.text.lowercased().hasPrefix(prefix.lowercased()) else {
                throw ScenarioDiagnostic(location: t.location(name),
                                         message: "the hub passes only \(prefix)* headers to \(service.displayName), not \(name.quoted)", hint: usage)
            }
            let value = try t.string("the header's value in double quotes", hint: usage)
            headers.append(SendHeader(name.text, value.text))
        }
        return headers
    }

    /// `request <METHOD> "<path?query>" [auth none|basic <user> <password>|header "<value>"] [body "<text>"]`;
    /// without `auth` the request carries no Authorization header.
    private func request(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> DeviceAction {
        let usage = "write request <METHOD> \"/api/…\" [auth none|basic <user> <password>|header \"<value>\"] [body \"<text>\"]"
        let method = try t.word("an HTTP method such as POST", hint: usage)
        guard ["GET", "POST", "PUT", "DELETE", "PATCH"].contains(method.text) else {
            throw ScenarioDiagnostic(location: t.location(method), message: "unknown HTTP method \(method.quoted)",
                                     hint: "methods are GET, POST, PUT, DELETE, PATCH")
        }
        let target = try t.string("the request path in double quotes, e.g. \"/api/register?handle=AB\"", hint: usage)
        guard target.text.hasPrefix("/") else {
            throw ScenarioDiagnostic(location: t.location(target), message: "the request path must start with /", hint: usage)
        }
        var auth = RequestAuthorization.none
        if t.skip("auth") {
            if t.skip("none") {
                auth = .none
            } else if t.skip("basic") {
                let user = try t.text("a user name after basic", hint: usage)
                let password = try t.text("a password after the user name", hint: usage)
                auth = .basic(user: user.text, password: password.text)
            } else if t.skip("header") {
                auth = .header(try t.string("the header value in double quotes", hint: usage).text)
            } else {
                throw t.expected("none, basic or header after auth", hint: usage)
            }
        }
        var body: String?
        if t.skip("body") { body = try t.string("the body in double quotes", hint: usage).text }
        return .request(method: method.text, target: target.text, authorization: auth, body: body)
    }

    /// `apns`, `apns,wns`, `apns, wns`, `apns ,wns`: one or more switches separated by commas.
    private func switches(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> [PushSwitch] {
        var result: [PushSwitch] = []
        var pending: [(text: String, column: Int)] = [] // pieces of the current word not read yet
        while true {
            if pending.isEmpty {
                guard let token = t.peek, token.isWord else {
                    throw t.expected(result.isEmpty ? "a switch after via" : "a switch after the comma",
                                     hint: ScenarioParser.switchHint)
                }
                _ = t.next()
                pending = pieces(token)
            }
            let name = pending.removeFirst()
            let location = t.location(column: name.column)
            guard name.text != "," else {
                throw ScenarioDiagnostic(location: location, message: "expected a switch, found \",\"", hint: ScenarioParser.switchHint)
            }
            guard let value = PushSwitch(rawValue: name.text) else {
                throw ScenarioDiagnostic(location: location, message: "unknown switch \"\(name.text)\"", hint: ScenarioParser.switchHint)
            }
            guard !result.contains(value) else {
                throw ScenarioDiagnostic(location: location, message: "switch \"\(name.text)\" is listed twice",
                                         hint: "list each switch once")
            }
            result.append(value)
            if pending.isEmpty {
                guard let token = t.peek, token.isWord, token.text.hasPrefix(",") else { return result }
                _ = t.next()
                pending = pieces(token)
            }
            pending.removeFirst() // a comma: within a word, pieces alternate between names and commas
        }
    }

    /// `apns,wns` as `apns`, `,`, `wns`, each with its column.
    private func pieces(_ token: ScenarioToken) -> [(text: String, column: Int)] {
        ScenarioParser.commaPieces(token.text, column: token.column)
    }
}
