import PushSimKernel
import PushSimNetwork
import PushSimDevices
import PushSimServices

extension ScenarioParser {
    /// A browser's steps, as hints name them.
    static let browserActionHint = "a browser's steps are subscribe push for <app-server>, unsubscribe push, clear-profile, offline, online, "
        + "login <user> password <password> [template \"<body>\"]"
    /// An application server's step, as hints name it.
    static let pushUsage = "write <app-server> push \"<text>\" to <browser> [ttl <seconds>] [topic \"<name>\"] "
        + "[urgency very-low|low|normal|high] [forged]"
    /// The `Urgency` values (RFC 8030 section 5.3).
    static let urgencies = ["very-low", "low", "normal", "high"]
}

/// `browser …`, `app-server …` and their steps (see `ScenarioLanguage.md`, Web Push).
extension ScenarioParser.Session {
    /// `browser <name> chrome|firefox|safari|edge [permission default|granted|denied] [prompt allow|deny]`
    mutating func browserStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write browser <name> chrome|firefox|safari|edge [permission default|granted|denied] [prompt allow|deny]"
        let name = try declaredName(&t, what: "a browser name such as bob-chrome", usage: usage, kind: "browser")
        let vendor = try t.choice(BrowserVendor.self, what: "browser", plural: "browsers")
        var permission = WebNotificationPermission.default
        var prompt = PermissionPromptAnswer.allow
        var seen: [String] = []
        while let option = try t.option(among: ["permission", "prompt"], seen: &seen, in: "browser declaration") {
            if option.text == "permission" {
                permission = try t.choice(WebNotificationPermission.self, what: "permission", plural: "permissions")
            } else {
                prompt = try t.choice(PermissionPromptAnswer.self, what: "prompt answer", plural: "prompt answers")
            }
        }
        try t.finish(hint: "a browser declaration may end with permission default|granted|denied and prompt allow|deny")
        declaredLines[name.text] = t.line.number
        browsers.append(BrowserDeclaration(name: name.text, vendor: vendor, permission: permission, promptAnswer: prompt,
                                           location: t.location(t.line.tokens[0])))
    }

    /// `app-server <name> [subject "<mailto:…|https:…>"]`
    mutating func applicationServerStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write app-server <name> [subject \"mailto:ops@example.com\"]"
        let name = try declaredName(&t, what: "an application server name such as shop", usage: usage, kind: "application server")
        var subject = "mailto:push@example.com"
        if t.skip("subject") {
            let given = try t.string("a contact in double quotes, a mailto: or https: URL", hint: usage)
            guard given.text.hasPrefix("mailto:") || given.text.hasPrefix("https:") else {
                throw ScenarioDiagnostic(location: t.location(given), message: "a VAPID subject is a mailto: or https: URL, not \(given.quoted)",
                                         hint: "e.g. subject \"mailto:ops@example.com\" (RFC 8292 section 2.1)")
            }
            subject = given.text
        }
        try t.finish(hint: usage)
        declaredLines[name.text] = t.line.number
        applicationServers.append(ApplicationServerDeclaration(name: name.text, subject: subject, location: t.location(t.line.tokens[0])))
    }

    /// The name a `browser` or `app-server` statement declares (`kind`): not a keyword, a world
    /// host or a name already declared.
    private func declaredName(_ t: inout ScenarioParser.Tokens, what: String, usage: String, kind: String) throws(ScenarioDiagnostic) -> ScenarioToken {
        let name = try t.word(what, hint: usage)
        try ScenarioParser.checkFreeName(name, t, kind: kind, example: kind == "browser" ? "bob-chrome" : "shop")
        if let line = declaredLines[name.text] {
            throw ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) is already declared on line \(line)",
                                     hint: "give each device, browser and application server its own name")
        }
        return name
    }

    /// A browser's or an application server's step, after its name (already consumed).
    mutating func webPushAction(_ t: inout ScenarioParser.Tokens, actor: ScenarioToken) throws(ScenarioDiagnostic) -> WebPushAction {
        if appServerNames.contains(actor.text) { return try pushAction(&t, server: actor) }
        let verb = try t.word("a step after \(actor.quoted)", hint: ScenarioParser.browserActionHint)
        let action: WebPushAction
        switch verb.text {
        case "subscribe":
            let usage = "write \(actor.text) subscribe push for <app-server>"
            try t.keyword("push", hint: usage)
            try t.keyword("for", hint: usage)
            let server = try t.word("the application server whose key the page subscribes with", hint: usage)
            guard appServerNames.contains(server.text) else {
                throw ScenarioDiagnostic(location: t.location(server), message: "no application server \(server.quoted) is declared",
                                         hint: "declare it with: app-server \(server.text)")
            }
            action = .subscribe(server: server.text)
        case "unsubscribe":
            try t.keyword("push", hint: "write \(actor.text) unsubscribe push")
            action = .unsubscribe
        case "login":
            let usage = "write \(actor.text) login <user> password <password> [template \"<json body>\"]"
            let user = try t.word("a user name after login", hint: usage)
            try t.keyword("password", hint: usage)
            let password = try t.word("the user's password", hint: usage)
            var template: String?
            if t.skip("template") {
                let body = try t.string("the template's body in double quotes, a JSON object", hint: usage)
                // The hub's rule for a browser template (PushSim: a JSON object, Citations §7),
                // refused here where it is written rather than by the hub's 400.
                guard (try? JSONParser.parse(body.text))?.objectMembers != nil else {
                    throw ScenarioDiagnostic(location: t.location(body), message: "a browser template must be a JSON object",
                                             hint: "e.g. template \"{\\\"title\\\":\\\"$(title)\\\",\\\"body\\\":\\\"$(message)\\\"}\"")
                }
                template = body.text
            }
            action = .login(user: user.text, password: password.text, template: template)
        case "clear-profile": action = .clearProfile
        case "offline": action = .offline
        case "online": action = .online
        default:
            throw ScenarioDiagnostic(location: t.location(verb), message: "\(verb.quoted) is not a browser's step (\(actor.quoted) is a browser)",
                                     hint: ScenarioParser.browserActionHint)
        }
        try t.finish(hint: ScenarioParser.browserActionHint)
        return action
    }

    /// `<app-server> push "<text>" to <browser> [ttl <seconds>] [topic "<name>"] [urgency <u>] [forged]`
    private mutating func pushAction(_ t: inout ScenarioParser.Tokens, server: ScenarioToken) throws(ScenarioDiagnostic) -> WebPushAction {
        let usage = ScenarioParser.pushUsage
        let verb = try t.word("push after the application server's name", hint: usage)
        guard verb.text == "push" else {
            throw ScenarioDiagnostic(location: t.location(verb), message: "\(verb.quoted) is not an application server's step (\(server.quoted) is one)",
                                     hint: usage)
        }
        let text = try t.string("the message in double quotes", hint: usage)
        try t.keyword("to", hint: usage)
        let browser = try t.word("a browser after to", hint: usage)
        guard browserNames.contains(browser.text) else {
            throw ScenarioDiagnostic(location: t.location(browser), message: "\(browser.quoted) is not a declared browser",
                                     hint: "declare it with: browser \(browser.text) chrome|firefox|safari|edge")
        }
        var options = WebPushApplicationServer.MessageOptions()
        var seen: [String] = []
        while let option = try t.option(among: ["ttl", "topic", "urgency", "forged"], seen: &seen, in: "push") {
            switch option.text {
            case "ttl": options.ttlSeconds = try t.number("a TTL in seconds such as 60 or 0", as: Int.self).0
            case "topic":
                let topic = try t.string("a topic in double quotes", hint: usage)
                // RFC 8030 section 5.4: at most 32 characters of the base64url alphabet. Refused
                // here rather than sent: a service's answer to it is `400` (see the Web Push rules).
                guard (1...32).contains(topic.text.count), topic.text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                    throw ScenarioDiagnostic(location: t.location(topic), message: "topic \(topic.quoted) is not 1 to 32 base64url characters",
                                             hint: "a Topic uses A-Z a-z 0-9 - _ only (RFC 8030 section 5.4), e.g. topic \"score\"")
                }
                options.topic = topic.text
            case "urgency":
                let word = try t.word("an urgency (\(ScenarioParser.urgencies.joined(separator: ", ")))", hint: usage)
                guard ScenarioParser.urgencies.contains(word.text) else {
                    throw ScenarioDiagnostic(location: t.location(word), message: "unknown urgency \(word.quoted)",
                                             hint: "urgencies are \(ScenarioParser.urgencies.joined(separator: ", ")) (RFC 8030 section 5.3)")
                }
                options.urgency = word.text
            default: options.forged = true
            }
        }
        try t.finish(hint: usage)
        return .push(text: text.text, to: browser.text, options: options)
    }
}
