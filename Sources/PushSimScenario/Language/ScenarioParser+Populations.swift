import PushSimKernel
import PushSimBackend
import PushSimDevices

/// Populations: many devices declared and driven in one statement each.
///
///     devices fans 10000 ios,android,windows user fan-{n} client recommended
///     at 1s fans install
///     at 2s fans login                       # each member as its own user, password = user name
///     at 3s fans register with tags team:{n}
///
/// Members are named `<name>-1` … `<name>-<count>` and take the platforms in turn (list one twice
/// to weight it: `ios,ios,android` is two iPhones for each Android phone); member `n` is used by
/// the user pattern with `{n}` replaced by `n` (default `<name>-{n}`). A population is expanded
/// into ordinary devices and steps when the file is read, so the runner, the invariants and the
/// reports see nothing new; a file's populations have at most ``maxPopulationDevices`` members in
/// all (each is a full simulated phone: about 25 KB with its share of the trace).
extension ScenarioParser.Session {
    /// The most members a file's populations may have together.
    static let maxPopulationDevices = 100_000
    /// Words that cannot name a population: statement keywords and the words an expectation over
    /// a population starts with, the operator and the services' hosts.
    static let reservedPopulationNames = ScenarioParser.statementKeywords + ["every", "no", "none", "user", "invariant"]
        + ScenarioParser.serviceHosts

    /// `devices <name> <count> <platform>[,<platform>…] [user <pattern>] [client …] [backend …] [os <n>]`
    mutating func devicesStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write devices <name> <count> ios|android|windows[,…] [user <pattern with {n}>] [client …] [backend …] [os <n>]"
        let name = try t.word("a population name such as fans", hint: usage)
        try checkPopulationName(name, t)
        let (count, countToken) = try t.number("a number of devices such as 1000", as: Int.self)
        guard (1...Self.maxPopulationDevices).contains(count) else {
            throw ScenarioDiagnostic(location: t.location(countToken),
                                     message: "a population has 1 to \(Self.maxPopulationDevices) devices, not \(count)",
                                     hint: "each member is a full simulated phone; for millions, use a DeviceFleet from Swift (see broadcast-bench)")
        }
        guard populationDevices + count <= Self.maxPopulationDevices else {
            throw ScenarioDiagnostic(location: t.location(countToken),
                                     message: "this file's populations would have \(populationDevices + count) devices, more than \(Self.maxPopulationDevices)",
                                     hint: "each member is a full simulated phone; keep the populations of one file to \(Self.maxPopulationDevices) devices in all")
        }
        let platforms = try platformList(&t)
        var pattern = name.text + "-{n}"
        var client: ClientFlavour = .tutorial
        var backend: BackendChoice?
        var os: Int?
        var seen: [String] = []
        while let option = try t.option(among: ["user", "client", "backend", "os"], seen: &seen, in: "devices statement") {
            switch option.text {
            case "user":
                let token = try t.word("a user name pattern such as fan-{n}", hint: usage)
                if let (bad, offset) = PopulationPattern.unknownPlaceholder(in: token.text, allowed: ["{n}"]) {
                    throw ScenarioDiagnostic(location: t.location(column: token.column + offset),
                                             message: "unknown placeholder \"\(bad)\" in the user pattern \(token.quoted)",
                                             hint: "{n} is replaced by the member's number, e.g. user fan-{n}")
                }
                pattern = token.text
            case "client": client = try t.choice(ClientFlavour.self, what: "client", plural: "clients")
            case "backend": backend = try t.backendChoice()
            default:
                os = try t.osVersion()
            }
        }
        try t.finish(hint: "a devices statement may end with user <pattern>, client tutorial|recommended, backend tutorial|hardened and os <version>")
        let location = t.location(t.line.tokens[0])
        var population = Population(name: name.text, members: [], users: [], line: t.line.number)
        population.members.reserveCapacity(count)
        population.users.reserveCapacity(count)
        for n in 1...count {
            let member = Population.memberName(name.text, n)
            if let line = declaredLines[member] {
                throw ScenarioDiagnostic(location: t.location(name), message: "member \"\(member)\" of \(name.quoted) is already declared on line \(line)",
                                         hint: "rename the population or the device")
            }
            population.members.append(member)
            population.users.append(PopulationPattern.fill(pattern, n: n, user: ""))
        }
        for (n, member) in population.members.enumerated() {
            declaredLines[member] = location.line
            declaredNames.insert(member)
            devices.append(DeviceDeclaration(name: member, platform: platforms[n % platforms.count], user: population.users[n],
                                             client: client, location: location, backend: backend?.flavour, osVersion: os,
                                             externalBackend: backend?.external))
        }
        populationDevices += count
        populations[name.text] = population
    }

    /// A population's name: not reserved, not a number, and not already a population or a device.
    private func checkPopulationName(_ name: ScenarioToken, _ t: ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        if Self.reservedPopulationNames.contains(name.text) || ScenarioParser.isDigits(name.text[...]) || name.text.contains("{") {
            throw ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) cannot name a population",
                                     hint: "keywords, service names, numbers and braces are taken; choose another name, e.g. fans")
        }
        if let earlier = populations[name.text] {
            throw ScenarioDiagnostic(location: t.location(name), message: "population \(name.quoted) is already declared on line \(earlier.line)",
                                     hint: "give each population and device its own name")
        }
        if let line = declaredLines[name.text] {
            throw ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) already names a device, declared on line \(line)",
                                     hint: "give each population and device its own name")
        }
        if declaredNames.contains(name.text) {
            throw ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) also names a device declared further down",
                                     hint: "give each population and device its own name")
        }
    }

    /// `ios`, `ios,android,windows`, `ios,ios,android`: each piece located at its own column.
    private func platformList(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> [DevicePlatform] {
        let hint = "platforms are ios, android, windows, separated by commas; list one twice to weight it, e.g. ios,ios,android"
        let token = try t.word("platforms such as ios or ios,android,windows", hint: hint)
        var platforms: [DevicePlatform] = []
        var column = token.column
        for part in token.text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty else {
                throw ScenarioDiagnostic(location: t.location(column: column), message: "expected a platform, found \",\"", hint: hint)
            }
            guard let platform = DevicePlatform(rawValue: String(part)) else {
                throw ScenarioDiagnostic(location: t.location(column: column), message: "unknown platform \"\(part)\"", hint: hint)
            }
            platforms.append(platform)
            column += part.unicodeScalars.count + 1
        }
        return platforms
    }

    /// `<population> <action>`: the same step for every member, in member order, at `time`.
    /// Every action a device takes except `restore`; `login` takes no user (each member logs in as
    /// its own user, with the user name as password, unless `login [<user>] password <password>`
    /// says otherwise). `{n}` (the member's number) and `{user}` (its user) are replaced in every
    /// value of the step, e.g. `fans register with tags team:{n}`; other braces are left as written,
    /// except in the login's user and password, where they are refused as mistyped placeholders.
    mutating func populationAction(_ t: inout ScenarioParser.Tokens, population token: ScenarioToken, at time: VirtualTime) throws(ScenarioDiagnostic) {
        guard let population = populations[token.text] else { return }
        let verbs = ScenarioParser.actionVerbs.filter { $0 != "restore" }
        let hint = "a population can \(verbs.joined(separator: ", ")); each member does it in turn"
        let verb = try t.word("an action after \(token.quoted)", hint: hint)
        let kind: DeviceAction
        switch verb.text {
        case "restore":
            throw ScenarioDiagnostic(location: t.location(verb), message: "a population cannot restore from one device's backup",
                                     hint: "restore members one at a time, e.g. \(token.text)-1 restore from <device>")
        case "login":
            let usage = "write \(token.text) login (each as its own user, password = user name), or \(token.text) login [<user>] password <password>, "
                + "with {n} and {user} replaced per member"
            var user = "{user}"
            var password = "{user}"
            if t.peek != nil {
                if !t.skip("password") {
                    user = try placeholderChecked(t.text("a user name pattern after login", hint: usage), t).text
                    try t.keyword("password", hint: usage)
                }
                password = try placeholderChecked(t.text("a password pattern", hint: usage), t).text
            }
            kind = .login(user: user, password: password)
        case let word where verbs.contains(word):
            kind = try deviceAction(&t, device: token, verb: verb)
        default:
            throw ScenarioDiagnostic(location: t.location(verb), message: "unknown action \(verb.quoted) for population \(token.quoted)", hint: hint)
        }
        try t.finish(hint: hint)
        let location = t.location(token)
        actions.reserveCapacity(actions.count + population.members.count)
        for (i, member) in population.members.enumerated() {
            actions.append(ScenarioAction(time: time, device: member, kind: .device(PopulationPattern.fill(kind, n: i + 1, user: population.users[i])),
                                  location: location))
        }
    }

    /// `token` when it has no placeholder but `{n}` and `{user}`; else a diagnostic at the bad one.
    private func placeholderChecked(_ token: ScenarioToken, _ t: ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> ScenarioToken {
        guard let (bad, offset) = PopulationPattern.unknownPlaceholder(in: token.text, allowed: ["{n}", "{user}"]) else { return token }
        let column = token.column + offset + (token.kind == .string ? 1 : 0)
        throw ScenarioDiagnostic(location: t.location(column: column), message: "unknown placeholder \"\(bad)\" in \(token.quoted)",
                                 hint: "in a population's step, {n} is the member's number and {user} its user")
    }
}
