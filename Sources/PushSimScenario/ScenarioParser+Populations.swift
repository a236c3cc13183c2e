import PushSimKernel
import PushSimBackend
import PushSimDevices

/// Populations: many devices declared, driven and checked in one statement each.
///
///     devices fans 10000 ios,android,windows user fan-{n} client recommended
///     at 1s fans install
///     at 2s fans login                       # each member as its own user, password = user name
///     expect every device in fans shows "Goal!" by 1m
///     expect 5000 of fans show "Goal!"
///     expect no device in fans shows "Offside"
///
/// Members are named `<name>-1` … `<name>-<count>`, take the platforms in turn, and are used as
/// `<user pattern>` with `{n}` replaced by their number (default `<name>-{n}`). A population is
/// expanded into ordinary devices, steps and per-member checks when the file is read, so
/// everything else (invariants, reports, the runner) works unchanged. At most ``maxPopulation``
/// members.
extension ScenarioParser.Session {
    static let maxPopulation = 100_000

    /// `devices <name> <count> <platform>[,<platform>…] [user <pattern>] [client …] [backend …] [os <n>]`
    mutating func devicesStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write devices <name> <count> ios|android|windows[,…] [user <pattern with {n}>] [client …] [backend …] [os <n>]"
        let name = try t.word("a population name such as fans", hint: usage)
        if ScenarioParser.statementKeywords.contains(name.text) || name.text == "every" || name.text == "no" {
            throw ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) is a keyword and cannot name a population",
                                     hint: "choose another name, e.g. fans")
        }
        if populations[name.text] != nil || declaredLines[name.text] != nil {
            throw ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) is already declared",
                                     hint: "give each population and device its own name")
        }
        let (count, countToken) = try t.number("a number of devices such as 1000", as: Int.self)
        guard (1...Self.maxPopulation).contains(count) else {
            throw ScenarioDiagnostic(location: t.location(countToken), message: "a population has 1 to \(Self.maxPopulation) devices, not \(count)",
                                     hint: "for more, use a DeviceFleet from Swift (see broadcast-bench)")
        }
        let platformsToken = try t.word("platforms such as ios,android", hint: usage)
        var platforms: [DevicePlatform] = []
        for part in platformsToken.text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let p = DevicePlatform(rawValue: String(part)) else {
                throw ScenarioDiagnostic(location: t.location(platformsToken), message: "unknown platform \"\(part)\" in \(platformsToken.quoted)",
                                         hint: "platforms are ios, android, windows, separated by commas")
            }
            platforms.append(p)
        }
        var pattern = name.text + "-{n}"
        var client: ClientFlavour = .tutorial
        var backend: BackendFlavour?
        var os: Int?
        var seen: Set<String> = []
        while let option = t.peek, ["user", "client", "backend", "os"].contains(where: { option.isWord($0) }) {
            _ = t.next()
            guard seen.insert(option.text).inserted else {
                throw ScenarioDiagnostic(location: t.location(option), message: "\(option.text) is given twice in one devices statement", hint: "keep one of them")
            }
            switch option.text {
            case "user": pattern = try t.word("a user name pattern such as fan-{n}", hint: usage).text
            case "client": client = try t.choice(ClientFlavour.self, what: "client", plural: "clients")
            case "backend": backend = try t.choice(BackendFlavour.self, what: "backend", plural: "backends")
            default: os = try t.number("an OS major version such as 17", as: Int.self).0
            }
        }
        try t.finish(hint: usage)
        var members: [String] = []
        var users: [String] = []
        members.reserveCapacity(count)
        users.reserveCapacity(count)
        let location = t.location(t.line.tokens[0])
        for i in 1...count {
            let member = "\(name.text)-\(i)"
            if let line = declaredLines[member] {
                throw ScenarioDiagnostic(location: t.location(name), message: "member \"\(member)\" of \(name.quoted) is already declared on line \(line)",
                                         hint: "rename the population or the device")
            }
            declaredLines[member] = location.line
            declaredNames.insert(member)
            members.append(member)
            users.append(pattern.replacing("{n}", with: String(i)))
            devices.append(DeviceDeclaration(name: member, platform: platforms[(i - 1) % platforms.count],
                                             user: users[i - 1], client: client,
                                             location: location, backend: backend, osVersion: os))
        }
        populations[name.text] = members
        populationUsers[name.text] = users
    }

    /// `<population> install|uninstall|launch|offline|online|refresh-handle|logout|login|register`:
    /// the same step for every member, in member order, at `time`; `login` logs each member in as
    /// its own user with the user name as password.
    mutating func populationAction(_ t: inout ScenarioParser.Tokens, population: String, at time: VirtualTime) throws(ScenarioDiagnostic) {
        let members = populations[population] ?? []
        let users = populationUsers[population] ?? []
        let hint = "a population can install, uninstall, launch, offline, online, refresh-handle, login, register, logout"
        let verb = try t.word("an action", hint: hint)
        let kind: ActionKind
        switch verb.text {
        case "install": kind = .install
        case "uninstall": kind = .uninstall
        case "launch": kind = .launch
        case "offline": kind = .offline
        case "online": kind = .online
        case "refresh-handle": kind = .refreshHandle
        case "logout": kind = .logout
        case "register": kind = .register(tags: [])
        case "login": kind = .login(user: "", password: "")   // filled per member below
        default: throw ScenarioDiagnostic(location: t.location(verb), message: "unknown population action \(verb.quoted)", hint: hint)
        }
        try t.finish(hint: hint)
        let location = t.location(t.line.tokens[0])
        for (member, user) in zip(members, users) {
            var memberKind = kind
            if case .login = kind { memberKind = .login(user: user, password: user) }
            actions.append(Action(time: time, device: member, kind: memberKind, location: location))
        }
    }

    /// `expect every device in <p> shows "<text>"`, `expect no device in <p> shows "<text>"`,
    /// `expect <n> of <p> show "<text>"`: the quantifier word has been read.
    mutating func populationExpectation(_ t: inout ScenarioParser.Tokens, first: ScenarioToken) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = "write expect every device in <population> shows \"<text>\", expect no device in <population> shows \"<text>\", "
            + "or expect <n> of <population> show \"<text>\""
        let quantifier: PopulationQuantifier
        if first.text == "every" || first.text == "no" {
            try t.keyword("device", hint: usage)
            try t.keyword("in", hint: usage)
            quantifier = first.text == "every" ? .every : .none
        } else {
            guard let n = Int(first.text), n >= 0 else { throw ScenarioDiagnostic(location: t.location(first), message: "expected a number", hint: usage) }
            try t.keyword("of", hint: usage)
            quantifier = .exactly(n)
        }
        let name = try t.word("a population name", hint: usage)
        guard let members = populations[name.text] else {
            throw ScenarioDiagnostic(location: t.location(name), message: "no population \(name.quoted) is declared before this line",
                                     hint: "declare it first with: devices \(name.text) <count> ios|android|windows")
        }
        guard t.skip("shows") || t.skip("show") else { throw t.expected("\"shows\"", hint: usage) }
        let text = try t.string("the text in double quotes", hint: usage)
        if case .exactly(let n) = quantifier, n > members.count {
            throw ScenarioDiagnostic(location: t.location(first), message: "\(name.quoted) has only \(members.count) devices, not \(n)", hint: usage)
        }
        return .populationShows(population: name.text, members: members, quantifier: quantifier, text: text.text)
    }
}
