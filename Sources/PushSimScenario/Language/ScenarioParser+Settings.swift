import PushSimHub
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices
import PushSimHub

/// The header and world settings: `scenario`, `seed`, `epoch`, `backend`, `hub`, `network`, `limit`, `device`.
extension ScenarioParser.Session {
    /// `scenario "<name>"`: required, exactly once, the first statement.
    mutating func scenarioStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        let keyword = t.next()!
        if let first = scenarioLine {
            throw ScenarioDiagnostic(location: t.location(keyword), message: "scenario is given twice (first on line \(first))",
                                     hint: "a file holds one scenario; put another one in its own file")
        }
        scenarioLine = t.line.number
        let value = try t.string("the scenario's name in double quotes", hint: "write scenario \"Alice notifies Bob\"")
        try t.finish()
        name = value.text
        if statementCount > 1 {
            throw ScenarioDiagnostic(location: t.location(keyword), message: "scenario must be the first statement",
                                     hint: "move this line to the top of the file")
        }
    }

    /// `seed <n>`: optional, once; the command line may override it.
    mutating func seedStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let (value, _) = try t.number("a seed such as 7", as: UInt64.self)
        try t.finish()
        if let first = seedLine {
            throw ScenarioDiagnostic(location: t.location(t.line.tokens[0]), message: "seed is given twice (first on line \(first))",
                                     hint: "keep one seed; the command line can override it")
        }
        seedLine = t.line.number
        seed = value
    }

    /// `epoch <YYYY-MM-DDTHH:MM:SSZ>`: the calendar instant of virtual time zero (``EpochText``).
    mutating func epochStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write epoch \(EpochText.example): a UTC date and time, to the second, ending in Z (RFC 3339)"
        let value = try t.text("the instant of time zero, e.g. \(EpochText.example)", hint: usage)
        try t.finish(hint: usage)
        switch EpochText.unixSeconds(value.text) {
        case .success(let seconds): settings.append(.epoch(CalendarAnchor(unixSecondsAtZero: seconds)))
        case .failure(let problem):
            let column = value.column + problem.offset + (value.kind == .string ? 1 : 0)
            throw ScenarioDiagnostic(location: t.location(column: column), message: problem.message, hint: usage)
        }
    }

    /// `backend tutorial|hardened|external "<address>"`, or `backend key full|listen|policy
    /// "<name>"`: the key the built-in backends sign their hub calls with.
    mutating func backendStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        if t.skip("key") {
            let usage = "write backend key full (the default), backend key listen, or backend key policy \"<name>\" for a hub policy the file declares"
            let key = try hubKey(&t, usage: usage)
            try t.finish(hint: usage)
            return settings.append(.backendKey(key))
        }
        let choice = try t.backendChoice()
        try t.finish()
        switch choice {
        case .builtIn(let flavour): settings.append(.backend(flavour))
        case .external(let address): settings.append(.externalBackend(address))
        }
    }

    /// `apns broadcast enabled|disabled`: whether the app's App ID has the Broadcast capability;
    /// disabled, channel management and broadcasts are refused with 400 `FeatureNotEnabled` (§1.20).
    mutating func apnsStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write apns broadcast enabled|disabled"
        try t.keyword("broadcast", hint: usage)
        let state = try t.word("enabled or disabled", hint: usage)
        guard state.text == "enabled" || state.text == "disabled" else {
            throw ScenarioDiagnostic(location: t.location(state), message: "expected enabled or disabled, found \(state.quoted)", hint: usage)
        }
        try t.finish(hint: usage)
        settings.append(.apnsBroadcast(enabled: state.text == "enabled"))
    }

    /// `fcm apns key uploaded|missing|wrong-team`: the APNs auth key the Firebase project holds,
    /// which FCM relays sends to iOS app instances with (``FCMAPNsKeyState``).
    mutating func fcmStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write fcm apns key uploaded|missing|wrong-team"
        try t.keyword("apns", hint: usage)
        try t.keyword("key", hint: usage)
        let state = try t.choice(FCMAPNsKeyState.self, what: "APNs key state", plural: "states")
        try t.finish(hint: usage)
        settings.append(.fcmAPNsKey(state))
    }

    /// `hub ttl <duration>`, `hub credentials apns|fcm|wns wrong|missing`, `hub policy "<name>"
    /// listen|send|manage[,…]`, and the hub's rules
    /// where sources disagree: `hub send status 200|201`, `hub registration status 200|201`, `hub if-match absent 404|412`,
    /// `hub delete without if-match deletes|412`, `hub apns payload refused|passed`,
    /// `hub apns token renewal <duration>` and `hub answers current|classic`.
    mutating func hubStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let hint = "hub settings are: hub ttl <duration>, hub credentials apns|fcm|wns wrong|missing, hub policy \"<name>\" listen|send|manage, hub send status 200|201, "
            + "hub registration status 200|201, hub if-match absent 404|412, hub delete without if-match deletes|412, hub apns payload refused|passed, hub apns token renewal <duration>, "
            + "hub answers current|classic"
        if let rule = try hubRule(&t, hint: hint) {
            try t.finish()
            return settings.append(.hubRule(rule))
        }
        if t.skip("policy") {
            let policy = try hubPolicy(&t)
            try t.finish(hint: "write hub policy \"<name>\" listen|send|manage[,…]")
            return settings.append(.hubPolicy(policy))
        }
        if t.skip("credentials") {
            let service = try t.word("a push service: apns, fcm or wns", hint: hint)
            guard PushServiceDescriptor.named(service.text) != nil else {
                throw ScenarioDiagnostic(location: t.location(service), message: "unknown push service \(service.quoted)", hint: hint)
            }
            let problem = try t.word("wrong or missing", hint: hint)
            guard ["wrong", "missing"].contains(problem.text) else {
                throw ScenarioDiagnostic(location: t.location(problem), message: "expected wrong or missing, found \(problem.quoted)", hint: hint)
            }
            try t.finish()
            return settings.append(.hubCredentials(service: service.text, problem: problem.text))
        }
        try t.keyword("ttl", hint: "the hub setting is: hub ttl <duration>, e.g. hub ttl 90d")
        let ttl = try t.duration()
        try t.finish()
        settings.append(.hubRegistrationTTL(ttl))
    }

    /// `hub policy "<name>" listen|send|manage[,…]` after `hub policy`: a shared access policy
    /// (``HubAccessPolicy``). The name goes into a connection string and every token's `skn`, so it
    /// takes letters, digits, `.`, `-` and `_` only, and neither a default policy's name nor a name
    /// declared before; each right is listed once.
    private func hubPolicy(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> HubAccessPolicy {
        let usage = "write hub policy \"<name>\" listen|send|manage[,…], e.g. hub policy \"marketing\" send"
        let name = try t.text("the policy's name, e.g. \"marketing\"", hint: usage)
        let nameColumn = name.column + (name.kind == .string ? 1 : 0)
        func allowed(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || "._-".unicodeScalars.contains(c) }
        if let bad = name.text.unicodeScalars.firstIndex(where: { !allowed($0) }) {
            let offset = name.text.unicodeScalars.distance(from: name.text.unicodeScalars.startIndex, to: bad)
            throw ScenarioDiagnostic(location: t.location(column: nameColumn + offset),
                                     message: "a policy's name takes letters, digits, \".\", \"-\" and \"_\", not \"\(name.text.unicodeScalars[bad])\"", hint: usage)
        }
        guard !name.text.isEmpty else { throw ScenarioDiagnostic(location: t.location(name), message: "a policy's name cannot be empty", hint: usage) }
        let taken = HubAccessPolicy.defaultNames + settings.compactMap { if case .hubPolicy(let p) = $0 { p.name } else { nil } }
        guard !taken.contains(name.text) else {
            throw ScenarioDiagnostic(location: t.location(name), message: "the hub already has a policy named \"\(name.text)\"",
                                     hint: "every policy has its own name; the defaults are \(HubAccessPolicy.defaultNames.joined(separator: " and "))")
        }
        guard let list = t.peek, list.isWord else { throw t.expected("the policy's rights: listen, send or manage", hint: usage) }
        _ = t.next()
        var rights: [HubRight] = []
        var column = list.column
        for piece in list.text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let right = HubRight.allCases.first(where: { $0.rawValue.lowercased() == piece }) else {
                throw ScenarioDiagnostic(location: t.location(column: column), message: "unknown right \"\(piece)\"",
                                         hint: "rights are listen, send and manage, separated by commas")
            }
            guard !rights.contains(right) else {
                throw ScenarioDiagnostic(location: t.location(column: column), message: "right \"\(piece)\" is listed twice", hint: usage)
            }
            rights.append(right)
            column += piece.unicodeScalars.count + 1
        }
        return HubAccessPolicy(name: name.text, rights: rights)
    }

    /// One of the hub's rules, or nil (nothing consumed) when the next word starts none.
    private func hubRule(_ t: inout ScenarioParser.Tokens, hint: String) throws(ScenarioDiagnostic) -> HubRuleSetting? {
        /// The next word, which must be one of `choices`.
        func choose(_ choices: [String], usage: String) throws(ScenarioDiagnostic) -> String {
            let word = try t.word(choices.joined(separator: " or "), hint: usage)
            guard choices.contains(word.text) else {
                throw ScenarioDiagnostic(location: t.location(word), message: "expected \(choices.joined(separator: " or ")), found \(word.quoted)",
                                         hint: usage)
            }
            return word.text
        }
        switch t.peek?.text {
        case "send" where t.peek?.kind == .word:
            _ = t.next()
            let usage = "write hub send status 200 (the REST pages) or 201 (the service, the default)"
            try t.keyword("status", hint: usage)
            return .sendStatus(Int(try choose(["200", "201"], usage: usage))!)
        case "registration":
            _ = t.next()
            let usage = "write hub registration status 200 (the service, the default) or 201 (the REST pages)"
            try t.keyword("status", hint: usage)
            return .registrationStatus(Int(try choose(["200", "201"], usage: usage))!)
        case "if-match":
            _ = t.next()
            let usage = "write hub if-match absent 404 (the default) or 412"
            try t.keyword("absent", hint: usage)
            return .ifMatchAbsent(Int(try choose(["404", "412"], usage: usage))!)
        case "delete":
            _ = t.next()
            let usage = "write hub delete without if-match deletes (the default) or 412"
            try t.keyword("without", hint: usage)
            try t.keyword("if-match", hint: usage)
            return .deleteWithoutIfMatch(refused: try choose(["deletes", "412"], usage: usage) == "412")
        case "apns":
            _ = t.next()
            if t.skip("token") {
                try t.keyword("renewal", hint: "write hub apns token renewal <duration>, e.g. hub apns token renewal 2h (the default is 50m)")
                let at = t.here
                let every = try t.duration()
                guard every > .zero else {
                    throw ScenarioDiagnostic(location: at, message: "a token renewal interval must be longer than zero",
                                             hint: "e.g. hub apns token renewal 2h (APNs refuses a token over an hour old)")
                }
                return .apnsTokenRenewal(every)
            }
            let usage = "write hub apns payload refused (the default) or passed, or hub apns token renewal <duration>"
            try t.keyword("payload", hint: usage)
            return .invalidAPNsPayload(refused: try choose(["refused", "passed"], usage: usage) == "refused")
        case "answers":
            _ = t.next()
            let usage = "write hub answers current (as the service answers since 2023, the default) or classic "
                + "(as it answered until 2022 and as the REST pages describe)"
            return .answerShape(try choose(["current", "classic"], usage: usage) == "current" ? .current : .classic)
        default:
            return nil
        }
    }

    /// `network latency <d>[..<d>]`, `network loss <ratio> [between <a> <b>] [from <time> to <time>]`,
    /// `network partition <a> <b> from <time> to <time>`
    mutating func networkStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let hint = "network settings are latency, loss, partition"
        let what = try t.word("a network setting (latency, loss, partition)", hint: hint)
        switch what.text {
        case "latency":
            let range = try t.word("a latency such as 10ms or 5ms..80ms", hint: ScenarioParser.durationHint)
            let (low, high) = try latencyRange(range, t)
            if t.skip("between") {
                let hosts = try twoHosts(&t, after: "between")
                try t.finish()
                settings.append(.linkLatency(min: low, max: high, between: hosts))
            } else {
                try t.finish(hint: "to set one link's latency, write: between <host> <host>")
                settings.append(.latency(min: low, max: high))
            }
        case "loss":
            let ratio = try t.ratio()
            var between: [String]?
            if t.skip("between") {
                between = try twoHosts(&t, after: "between")
            }
            var window: Range<VirtualTime>?
            if t.skip("from") {
                let usage = "write network loss <ratio> [between <host> <host>] from <time> to <time>"
                let from = try absoluteTime(&t)
                try t.keyword("to", hint: usage)
                let to = try absoluteTime(&t)
                guard from.time < to.time else {
                    throw ScenarioDiagnostic(location: t.location(to.token),
                                             message: "the loss ends at \(to.token.text), which is not after its start at \(from.token.text)",
                                             hint: "a loss lasts from <start> to a later <end>, e.g. from 10s to 60s")
                }
                window = from.time..<to.time
            }
            try t.finish(hint: between == nil ? "to limit the loss to one link, write: between <host> <host>; to a time, from <time> to <time>"
                                              : "to limit the loss to a time, write: from <time> to <time>")
            settings.append(.loss(ratio, between: between, window: window))
        case "partition":
            let hosts = try twoHosts(&t, after: "partition")
            try t.keyword("from", hint: "write network partition <host> <host> from <time> to <time>")
            let from = try absoluteTime(&t)
            try t.keyword("to", hint: "write network partition <host> <host> from <time> to <time>")
            let to = try absoluteTime(&t)
            try t.finish()
            guard from.time < to.time else {
                throw ScenarioDiagnostic(location: t.location(to.token),
                                         message: "the partition ends at \(to.token.text), which is not after its start at \(from.token.text)",
                                         hint: "a partition lasts from <start> to a later <end>, e.g. from 10s to 20s")
            }
            settings.append(.partition(hosts[0], hosts[1], from: from.time, to: to.time))
        default:
            throw ScenarioDiagnostic(location: t.location(what), message: "unknown network setting \(what.quoted)", hint: hint)
        }
    }

    /// `5ms..80ms` (min must not exceed max) or `10ms` (min == max).
    private func latencyRange(_ token: ScenarioToken, _ t: ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> (VirtualDuration, VirtualDuration) {
        let text = token.text
        guard let (dots, charactersToHigh) = ScenarioParser.firstRange(of: "..", in: text) else {
            let d = try ScenarioParser.duration(text[...], at: t.location(token))
            return (d, d)
        }
        let low = try ScenarioParser.duration(text[..<dots.lowerBound], at: t.location(token))
        let highColumn = token.column + charactersToHigh
        let high = try ScenarioParser.duration(text[dots.upperBound...], at: t.location(column: highColumn))
        guard low <= high else {
            throw ScenarioDiagnostic(location: t.location(token),
                                     message: "latency range \(token.quoted) goes backwards: \(low) is more than \(high)",
                                     hint: "write the smaller duration first, e.g. 5ms..80ms")
        }
        return (low, high)
    }

    /// Two different host names (`bob-iphone backend`).
    private mutating func twoHosts(_ t: inout ScenarioParser.Tokens, after keyword: String) throws(ScenarioDiagnostic) -> [String] {
        let hint = "name two hosts after \(keyword), e.g. \(keyword) bob-iphone backend"
        let a = try t.word("a host name", hint: hint)
        let b = try t.word("a second host name", hint: hint)
        guard a.text != b.text else {
            throw ScenarioDiagnostic(location: t.location(b), message: "\(keyword) names host \(a.quoted) twice", hint: hint)
        }
        // Checked once the whole file is read: a host is a device or one of the services.
        hostUses.append((a.text, t.location(a)))
        hostUses.append((b.text, t.location(b)))
        return [a.text, b.text]
    }

    /// A time since the start (`10s`); `+2s` is refused.
    private func absoluteTime(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> (time: VirtualTime, token: ScenarioToken) {
        let (spec, token) = try t.time()
        guard case .absolute(let time) = spec else {
            throw ScenarioDiagnostic(location: t.location(token),
                                     message: "partition times are absolute, found \(token.quoted)",
                                     hint: "write the virtual time since the start, e.g. from 10s to 20s")
        }
        return (time, token)
    }

    /// `limit events <n>` or `limit time <duration>`
    mutating func limitStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let hint = "limits are events, time"
        let what = try t.word("a limit (events, time)", hint: hint)
        switch what.text {
        case "events":
            let (n, _) = try t.number("a number of events such as 1000000", as: Int.self)
            try t.finish()
            settings.append(.limitEvents(n))
        case "time":
            let d = try t.duration()
            try t.finish()
            settings.append(.limitTime(d))
        default:
            throw ScenarioDiagnostic(location: t.location(what), message: "unknown limit \(what.quoted)", hint: hint)
        }
    }
}
