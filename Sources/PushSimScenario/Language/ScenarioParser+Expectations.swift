import PushSimKernel
import PushSimBackend
import PushSimDevices

extension ScenarioParser {
    /// The operations an app calls, by name: what `expect <device> <operation> status <code>` may name.
    static let appCallNames = AppOperation.allCases.filter(\.isAppCall).map(\.rawValue)
    /// How to write an expectation, the hint when one cannot be read.
    static let expectUsage = "write expect <device> shows \"<text>\" | nothing | <n> notifications, "
        + "or expect <device> \(appCallNames.joined(separator: "|")) status <code>"
}

/// `expect <device> shows ... [by <time>]` and `expect <device> <operation> status <code> [by <time>]`.
extension ScenarioParser.Session {
    /// Reads an expectation; `by 6s` is absolute, `by +1s` is relative to the cursor on this line.
    mutating func expectStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        let keyword = t.next()!
        let names = ScenarioParser.appCallNames
        let usage = ScenarioParser.expectUsage
        let device = try t.word("a device name after expect", hint: usage)
        let kind: ExpectationKind
        if device.text == "invariant" {
            kind = try invariant(&t)
        } else if device.text == "user", !declaredNames.contains("user") {
            kind = try userOnEveryDevice(&t)
        } else if startsPopulationExpectation(device, then: t.peek) {
            kind = try populationExpectation(&t, first: device)
        } else if device.text == "hub", t.peek?.isWord("has") == true {
            kind = try hubRegistrations(&t)
        } else if device.text == "hub", t.peek?.isWord("notification") == true {
            _ = t.next()
            let usage = "write expect hub notification 1 state Completed (the first send the hub took), or the id the hub "
                + "gave it in double quotes, \"NH-…\""
            let what = "which notification: its number among the sends the hub took (1 for the first), or its id in double quotes"
            guard let reference = t.peek else { throw t.expected(what, hint: usage) }
            let notification: NotificationReference
            if reference.kind == .string {
                notification = .id(reference.text)
            } else if let n = Int(reference.text), n >= 1, reference.text.allSatisfy(\.isASCII) {
                notification = .number(n)
            } else {
                throw ScenarioDiagnostic(location: t.location(reference), message: "\(reference.quoted) names no notification: " + what,
                                         hint: usage)
            }
            _ = t.next()
            try t.keyword("state", hint: usage)
            let states = ["Enqueued", "DetailedStateAvailable", "Processing", "Completed", "Abandoned", "Unknown", "NoTargetFound",
                          "Cancelled", "Scheduled"]
            let state = try t.word("a state: \(states.joined(separator: ", "))", hint: usage)
            guard states.contains(state.text) else {
                throw ScenarioDiagnostic(location: t.location(state), message: "unknown notification state \(state.quoted)",
                                         hint: "states are \(states.joined(separator: ", "))")
            }
            kind = .notificationState(notification, state: state.text)
        } else if device.text == "apns", t.peek?.isWord("has") == true {
            _ = t.next()
            kind = try channelCount(&t)
        } else if t.peek?.isWord("activity") == true, device.text != "operator", !ScenarioParser.serviceHosts.contains(device.text) {
            use(device, t)
            _ = t.next()
            kind = try activityExpectation(&t, device: device)
        } else if device.text == FCMSendTarget.service, t.peek?.isWord("topic") == true {
            kind = try topicSubscribers(&t)
        } else if ScenarioParser.serviceHosts.contains(device.text), device.text != "operator" {
            kind = try received(&t, host: device.text)
        } else if device.text == "operator", t.peek?.isWord("listed") == true {
            _ = t.next()
            let usage = "write expect operator listed <n> registrations"
            let (count, _) = try t.number("a number of registrations", as: Int.self)
            guard t.skip("registrations") || t.skip("registration") else { throw t.expected("\"registrations\"", hint: usage) }
            kind = .listedRegistrations(count: count)
        } else if device.text == "operator", t.peek?.isWord("test-send") == true {
            _ = t.next()
            try t.keyword("results", hint: "write expect operator test-send results <n>")
            kind = .testSendResults(count: try t.number("a number of results", as: Int.self).0)
        } else {
            if device.text != "operator" { use(device, t) }
            kind = try deviceExpectation(&t, device: device, names: names, usage: usage)
        }
        try by(&t, keyword: keyword, kind: kind)
    }

    /// What a device (or the operator) saw: `shows …`, `never shows …`, `<operation> status <code>`.
    private mutating func deviceExpectation(_ t: inout ScenarioParser.Tokens, device: ScenarioToken, names: [String],
                                            usage: String) throws(ScenarioDiagnostic) -> ExpectationKind {
        let what = try t.word("shows, never shows, suppressed, badge, woke or an operation (\(names.joined(separator: ", ")))", hint: usage)
        let kind: ExpectationKind
        if appServerNames.contains(device.text), what.text != AppOperation.push.rawValue {
            throw ScenarioDiagnostic(location: t.location(what), message: "\(device.quoted) is an application server: it shows nothing",
                                     hint: "write expect \(device.text) push status <code>, or expect <browser> shows \"<text>\"")
        }
        if browserNames.contains(device.text), !["shows", "never"].contains(what.text) {
            throw ScenarioDiagnostic(location: t.location(what), message: "\(device.quoted) is a browser: it has no \(what.quoted) to check",
                                     hint: "write expect \(device.text) shows \"<text>\"|nothing|<n> notifications, or never shows \"<text>\"")
        }
        if what.text == "shows" {
            kind = try shows(&t, device: device.text, usage: usage)
        } else if what.text == "never" {
            try t.keyword("shows", hint: "write expect <device> never shows \"<text>\"")
            kind = .neverShows(device: device.text, text: try t.string("the text in double quotes", hint: "write never shows \"<text>\"").text)
        } else if what.text == "suppressed" {
            kind = try suppressed(&t, device: device.text)
        } else if what.text == "badge" {
            kind = .badge(device: device.text, value: try badge(&t))
        } else if what.text == "live" {
            kind = try liveActivityExpectation(&t, device: device)
        } else if what.text == "woke" {
            let (count, _) = try t.number("how many times background pushes woke the app", as: Int.self)
            guard t.skip("times") || t.skip("time") else {
                throw t.expected("\"times\" after \(count)", hint: "write expect <device> woke \(count) times")
            }
            kind = .woke(device: device.text, count: count)
        } else if let operation = AppOperation(rawValue: what.text) {
            if operation == .push, !appServerNames.contains(device.text) {
                throw ScenarioDiagnostic(location: t.location(what), message: "only an application server makes push calls",
                                         hint: "declare one with: app-server <name>, and write expect <name> push status 201")
            }
            if !operation.isAppCall, operation != .push, device.text != "operator" {
                throw ScenarioDiagnostic(location: t.location(what), message: "only the operator makes \(operation.rawValue) calls",
                                         hint: "write expect operator \(operation.rawValue) status <code>")
            }
            try t.keyword("status", hint: "write expect <device> \(operation.rawValue) status <code>, e.g. status 410, 4xx or 401 or 403")
            let quantifier = try statusQuantifier(&t, device: device.text, operation: operation)
            kind = .status(device: device.text, operation: operation, code: try t.statusPattern(), quantifier: quantifier)
        } else {
            throw ScenarioDiagnostic(location: t.location(what), message: "unknown expectation \(what.quoted)",
                                     hint: "after the device comes shows, never shows, suppressed, badge, woke or an operation: \(names.joined(separator: ", "))")
        }
        return kind
    }

    /// The word after `status`, if any: `first`, `last`, `every` or `never` (``StatusQuantifier``);
    /// ``StatusQuantifier/any`` when a status comes straight after. A status starts with a digit,
    /// so any other word there is refused with a hint naming the quantifiers, and so is a second one.
    private func statusQuantifier(_ t: inout ScenarioParser.Tokens, device: String, operation: AppOperation) throws(ScenarioDiagnostic) -> StatusQuantifier {
        let usage = "write expect \(device) \(operation.rawValue) status [\(StatusQuantifier.words.joined(separator: "|"))] <status>, "
            + "e.g. status every 200 or status never 410; without a word, some answer matches"
        func isWordNotStatus(_ token: ScenarioToken?) -> Bool { token.map { $0.isWord && $0.text.first?.isLetter == true } ?? false }
        guard let word = t.peek, isWordNotStatus(word) else { return .any }
        guard let quantifier = StatusQuantifier(rawValue: word.text), quantifier != .any else {
            // Worded as a status pattern's mistake (what most such words are), hinting at the quantifiers.
            throw ScenarioDiagnostic(location: t.location(word), message: "expected an HTTP status such as 410 or 4xx, found \(word.quoted)", hint: usage)
        }
        _ = t.next()
        if let second = t.peek, isWordNotStatus(second) {
            throw ScenarioDiagnostic(location: t.location(second), message: "\(second.quoted) after \(word.quoted): a status expectation takes one quantifier",
                                     hint: usage)
        }
        return quantifier
    }

    /// The badge after `expect <device> badge`: a number, a Windows glyph by its badge-schema
    /// name (W-BADGE), or `none`; nil for `none` and for `0`, which shows no badge either.
    private func badge(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> AppBadge? {
        let glyphs = BadgeGlyph.allCases.map(\.rawValue).joined(separator: ", ")
        let hint = "a badge is a number, none, or a Windows glyph: \(glyphs)"
        guard let token = t.peek, token.isWord else { throw t.expected("a badge: a number, a glyph or none", hint: hint) }
        if ScenarioParser.isDigits(token.text[...]) {
            let (n, _) = try t.number("a badge number", as: Int.self)
            return n == 0 ? nil : .number(n)
        }
        _ = t.next()
        if token.text == "none" { return nil }
        guard let glyph = BadgeGlyph(rawValue: token.text) else {
            throw ScenarioDiagnostic(location: t.location(token), message: "unknown badge \(token.quoted)", hint: hint)
        }
        return .glyph(glyph)
    }

    /// `expect user <name> shows "<text>" [once] on every device`
    private func userOnEveryDevice(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = "write expect user <name> shows \"<text>\" [once] on every device [by <time>]"
        let user = try t.word("a user name after expect user", hint: usage)
        try t.keyword("shows", hint: usage)
        let text = try t.string("the text in double quotes", hint: usage)
        let once = t.skip("once")
        try t.keyword("on", hint: usage)
        try t.keyword("every", hint: usage)
        try t.keyword("device", hint: usage)
        return .userShowsOnEveryDevice(user: user.text, text: text.text, once: once)
    }

    /// `expect invariant cross-user-delivery|dead-handles holds|broken`
    private func invariant(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> ExpectationKind {
        let ids = ScenarioParser.invariantIDs
        let hint = "invariants are \(ids.joined(separator: ", ")); write expect invariant <id> holds|broken"
        let id = try t.word("an invariant", hint: hint)
        guard ids.contains(id.text) else {
            throw ScenarioDiagnostic(location: t.location(id), message: "unknown invariant \(id.quoted)", hint: hint)
        }
        if t.skip("holds") { return .invariant(id: id.text, holds: true) }
        if t.skip("broken") { return .invariant(id: id.text, holds: false) }
        throw t.expected("holds or broken", hint: hint)
    }

    /// `expect hub has <n> registration(s)|installation(s) [for "<tag>"]`
    private func hubRegistrations(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = "write expect hub has <n> registrations|installations [for \"<tag>\"]"
        _ = t.next()
        let (count, _) = try t.number("a number of registrations or installations", as: Int.self)
        let installations = t.skip("installations") || t.skip("installation")
        guard installations || t.skip("registrations") || t.skip("registration") else {
            throw t.expected("\"registrations\" or \"installations\"", hint: usage)
        }
        var tag: String?
        if t.skip("for") { tag = try t.string("a tag in double quotes, e.g. \"username:bob\"", hint: usage).text }
        return installations ? .hubInstallations(tag: tag, count: count) : .hubRegistrations(tag: tag, count: count)
    }

    /// `expect <host> received [at least|at most] <n> request(s) [with <condition> [and <condition>]…]`
    private func received(_ t: inout ScenarioParser.Tokens, host: String) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = "write expect \(host) received [at least|at most] <n> requests [with status 410 and reason \"Unregistered\" …]"
        try t.keyword("received", hint: usage)
        let count: RequestCount
        if t.skip("at") {
            if t.skip("least") { count = .atLeast(try t.number("a number of requests", as: Int.self).0) }
            else if t.skip("most") { count = .atMost(try t.number("a number of requests", as: Int.self).0) }
            else { throw t.expected("least or most after at", hint: usage) }
        } else {
            count = .exactly(try t.number("a number of requests", as: Int.self).0)
        }
        guard t.skip("requests") || t.skip("request") else { throw t.expected("\"requests\"", hint: usage) }
        var conditions: [ExchangeCondition] = []
        if t.skip("with") {
            repeat { conditions.append(try exchangeCondition(&t, host: host)) } while t.skip("and")
        }
        return .received(host: host, count: count, conditions: conditions)
    }

    /// One condition on an exchange: `status <pattern>`, `reason "<r>"` (APNs and FCM), `path
    /// "<prefix>"`, or `request|answer header "<name>" ["<value>"]` / `request|answer field "<path>" ["<value>"]`.
    private func exchangeCondition(_ t: inout ScenarioParser.Tokens, host: String) throws(ScenarioDiagnostic) -> ExchangeCondition {
        let hint = "conditions are status <code>, reason \"<reason>\", path \"<prefix>\", request|answer header \"<name>\" [\"<value>\"], "
            + "request|answer field \"<json.path>\" [\"<value>\"], joined by and"
        let word = try t.word("a condition (status, reason, path, request or answer)", hint: hint)
        switch word.text {
        case "status":
            return .status(try t.statusPattern())
        case "reason":
            guard host == "apns" || host == "fcm" else {
                throw ScenarioDiagnostic(location: t.location(word), message: "reason applies to apns and fcm, not \(host)",
                                         hint: "APNs gives its reason in the body's reason, FCM in error.status; for \(host), "
                                            + "check answer header \"<name>\" or answer field \"<path>\"")
            }
            return .reason(try t.string("the reason in double quotes, e.g. \"Unregistered\"", hint: hint).text)
        case "path":
            let prefix = try t.string("a path in double quotes, e.g. \"/token\"", hint: hint)
            guard prefix.text.hasPrefix("/") else {
                throw ScenarioDiagnostic(location: t.location(prefix), message: "a path starts with /, not \"\(prefix.text)\"", hint: hint)
            }
            return .path(prefix.text)
        case "request", "answer":
            let side: ExchangeSide = word.text == "request" ? .request : .answer
            let what = try t.word("header or field after \(word.text)", hint: hint)
            guard what.text == "header" || what.text == "field" else {
                throw ScenarioDiagnostic(location: t.location(what), message: "expected header or field after \(word.text), found \(what.quoted)",
                                         hint: hint)
            }
            let name = try t.string(what.text == "header" ? "a header name in double quotes, e.g. \"apns-id\""
                                                           : "a JSON path in double quotes, e.g. \"error.status\"", hint: hint)
            guard !name.text.isEmpty else {
                throw ScenarioDiagnostic(location: t.location(name), message: "the \(what.text) name is empty", hint: hint)
            }
            let value = t.peek?.kind == .string ? t.next()!.text : nil
            return what.text == "header" ? .header(side, name: name.text, value: value) : .field(side, path: name.text, value: value)
        default:
            throw ScenarioDiagnostic(location: t.location(word), message: "unknown condition \(word.quoted)", hint: hint)
        }
    }

    /// The optional `by <time>`, the end of the line, and the expectation itself.
    private mutating func by(_ t: inout ScenarioParser.Tokens, keyword: ScenarioToken, kind: ExpectationKind) throws(ScenarioDiagnostic) {
        var by: VirtualTime?
        if t.skip("by") {
            let (spec, token) = try t.time()
            guard let time = spec.resolved(from: cursor) else {
                throw ScenarioDiagnostic(location: t.location(token), message: "\(token.quoted) is past the largest virtual time",
                                         hint: "virtual time must fit in 64-bit microseconds (about 292,000 years)")
            }
            by = time
        }
        try t.finish(hint: "an expectation may end with by <time>, e.g. by 6s or by +1s")
        expectations.append(Expectation(kind: kind, by: by, location: t.location(keyword), source: t.line.source))
    }

    /// After `shows`: `"<text>"`, `nothing`, or `<n> notification(s)`.
    private func shows(_ t: inout ScenarioParser.Tokens, device: String, usage: String) throws(ScenarioDiagnostic) -> ExpectationKind {
        guard let next = t.peek else { throw t.expected("\"<text>\", nothing or <n> notifications after shows", hint: usage) }
        if next.kind == .string {
            _ = t.next()
            var texts = [next.text]
            while t.skip("then") { texts.append(try t.string("the next text in double quotes after then", hint: usage).text) }
            return texts.count == 1 ? .shows(device: device, text: next.text) : .showsInOrder(device: device, texts: texts)
        }
        if t.skip("nothing") { return .showsNothing(device: device) }
        guard ScenarioParser.isDigits(next.text[...]) else {
            throw t.expected("\"<text>\", nothing or <n> notifications after shows", hint: usage)
        }
        let (count, _) = try t.number("a number of notifications", as: Int.self)
        guard t.skip("notifications") || t.skip("notification") else {
            throw t.expected("\"notifications\" after \(count)", hint: "write shows \(count) notifications")
        }
        return .showsCount(device: device, count: count)
    }
}
