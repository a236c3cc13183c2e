import PushSimKernel
import PushSimServices
import PushSimNetwork
import PushSimBackend
import PushSimDevices

/// Parses `.scenario` files into a ``Scenario``.
///
/// The language is line oriented: one statement per line, blank lines allowed, `#` starts a
/// comment (outside strings). Strings are double-quoted with the escapes `\"` `\\` `\n` `\t`;
/// everything else is bare words. Durations are `<digits><unit>` parts with units us, ms, s, m, h, d, largest first (`2h59s`).
///
///     scenario "Alice notifies Bob"          # required, first statement, once
///     seed 7                                 # optional
///     backend tutorial|hardened
///     hub ttl <duration>
///     network latency <duration>[..<duration>]
///     network loss <n>/<d> [between <host> <host>]
///     network partition <host> <host> from <time> to <time>
///     limit events <n>
///     limit time <duration>
///     device <name> ios|android|windows [user <name>] [client tutorial|recommended]
///     devices <name> <count> ios|android|windows[,...] [user <pattern with {n}>] [client …] [backend …] [os <n>]
///     [at <time>] <device> install|uninstall|offline|online
///     [at <time>] <population> <action>       # each member in turn; {n} and {user} filled in
///     [at <time>] <device> login <user> password <password>
///     [at <time>] <device> send "<message>" to <user> via apns|fcm|gcm|wns[,...]
///     advance <duration>
///     expect <device> shows "<text>"|nothing|<n> notifications [by <time>]
///     expect <device> create-id|register|unregister|send status <code> [by <time>]
///     expect every device in <population> shows "<text>"|nothing|<n> notifications [by <time>]
///     expect no device in|none of|<n> of|at least <n> of|at most <n> of <population> show(s) …
///
/// Steps run in file order on a cursor that starts at 0: `at 5s` sets it (never backwards),
/// `at +2s` and `advance 2s` move it, and a step without `at` happens at the cursor.
/// `by 6s` is absolute; `by +1s` is relative to the cursor on that line. Settings are kept in file
/// order; devices may be used before the line that declares them.
public enum ScenarioParser {
    /// Parses `text`; `path` is used in locations. Reports every problem found, recovering at the
    /// next line, never stopping at the first; diagnostics come in file order.
    public static func parse(_ text: String, path: String) -> Result<Scenario, ScenarioParseFailure> {
        let lines = ScenarioLexer.lexLines(text, path: path)
        var session = Session(path: path)
        session.actions.reserveCapacity(lines.count)
        session.deviceUses.reserveCapacity(lines.count)
        lines.withUnsafeBufferPointer { lines in   // each line's tokens read in place, not copied with the line
            for i in lines.indices {
                let tokens = lines[i].0.tokens
                guard tokens.count >= 2, tokens[1].isWord else { continue }
                if tokens[0].isWord("device") {
                    // Devices may be used before they are declared, so learn their names first.
                    session.declaredNames.insert(tokens[1].text)
                } else if tokens[0].isWord("browser") || tokens[0].isWord("app-server") {
                    // So may browsers and application servers.
                    session.declaredNames.insert(tokens[1].text)
                    if tokens[0].isWord("browser") { session.browserNames.insert(tokens[1].text) } else { session.appServerNames.insert(tokens[1].text) }
                } else if tokens[0].isWord("devices"), session.populationLines[tokens[1].text] == nil {
                    // Populations must be declared before use (their members are made then);
                    // remember where each is declared, to say so when one is used too early.
                    session.populationLines[tokens[1].text] = lines[i].0.number
                }
            }
        }
        for (line, problem) in lines { session.read(line, lexProblem: problem) }
        return session.finish()
    }

    /// The words that start a statement; no device may be named after one.
    /// The invariants every run checks, by id (`expect invariant <id> holds|broken`).
    static let invariantIDs = ["cross-user-delivery", "dead-handles", "accounting", "logout-privacy"]
    /// The services' host names, usable in network rules besides device names.
    static let serviceHosts = ["backend", "backend-hardened", "hub"] + PushServiceDescriptor.all.map(\.name) + [WebPushService.name, "operator"]
    /// Every name a host of a simulated world answers to (`apns`, `api.push.apple.com`,
    /// `webpush`, `web.push.apple.com`, the hub's, the backends', …): no device may take one, as
    /// the world would then have two hosts of one name.
    static let worldHostNames: Set<String> = Set(Simulation(seed: 0).world.registeredNames)
    static let statementKeywords = ["scenario", "seed", "epoch", "backend", "hub", "apns", "fcm", "network", "fault", "limit", "account", "device", "devices",
                                    "browser", "app-server", "at", "advance", "expect"]

    static let unknownStatementHint =
        "statements are \(statementKeywords.joined(separator: ", ")), or <device> <action> for a declared device"

    /// The state of one parse: what has been read so far and the problems found.
    struct Session {
        let path: String
        var diagnostics: [ScenarioDiagnostic] = []
        /// Names of every `device <name>` statement in the file, well-formed or not.
        var declaredNames: Set<String> = []
        /// Each declared device (a population's members too) → the line that declares it.
        var declaredLines: [String: Int] = [:]
        /// Each population read so far (`devices <name> …`), by name (looked up only, never iterated).
        var populations: [String: Population] = [:]
        /// The line of each `devices <name>` statement in the file, read or not yet (looked up only).
        var populationLines: [String: Int] = [:]
        /// Members of every population read so far (at most ``maxPopulationDevices``).
        var populationDevices = 0
        var statementCount = 0
        var name: String?
        var scenarioLine: Int?
        var seed: UInt64?
        var seedLine: Int?
        /// In file order; a later setting of the same kind overrides an earlier one when the world is built.
        var settings: [ScenarioSetting] = []
        var devices: [DeviceDeclaration] = []
        /// Names of every `browser <name>` statement in the file, well-formed or not.
        var browserNames: Set<String> = []
        /// The names of the APNs broadcast channels `operator create channel` statements create, in file order.
        var broadcastChannelNames: [String] = []
        /// Names of every `app-server <name>` statement in the file, well-formed or not.
        var appServerNames: Set<String> = []
        var browsers: [BrowserDeclaration] = []
        var applicationServers: [ApplicationServerDeclaration] = []
        /// Every use of a device name, in file order, checked against `declaredNames` at the end.
        var deviceUses: [(name: String, location: SourceLocation)] = []
        /// Every host named in a network rule, checked against devices and services at the end.
        var hostUses: [(name: String, location: SourceLocation)] = []
        /// Every policy named by `operator key policy`, checked against the `hub policy` statements at the end.
        var policyUses: [(name: String, location: SourceLocation)] = []
        /// Every installation template header and expiry, checked against its device's platform at the end.
        var templateUses: [TemplatePlatformUse] = []
        var actions: [ScenarioAction] = []
        var expectations: [Expectation] = []
        /// The time of the current step.
        var cursor = VirtualTime.zero

        init(path: String) { self.path = path }

        /// Reads one line; a line with a problem adds a diagnostic and nothing else.
        mutating func read(_ line: ScenarioLine, lexProblem: ScenarioDiagnostic?) {
            guard !line.tokens.isEmpty || lexProblem != nil else { return }
            statementCount += 1
            if let lexProblem {
                diagnostics.append(lexProblem)
                if line.tokens.first?.isWord("scenario") == true, scenarioLine == nil { scenarioLine = line.number }
                return
            }
            var tokens = Tokens(line: line, path: path)
            do {
                try statement(&tokens)
            } catch {
                diagnostics.append(error)
            }
        }

        /// Dispatches on the statement's first word.
        mutating func statement(_ t: inout Tokens) throws(ScenarioDiagnostic) {
            guard let first = t.peek, first.isWord else {
                throw t.expected("a statement", hint: ScenarioParser.unknownStatementHint)
            }
            switch first.text {
            case "scenario": try scenarioStatement(&t)
            case "seed": try seedStatement(&t)
            case "epoch": try epochStatement(&t)
            case "backend": try backendStatement(&t)
            case "hub": try hubStatement(&t)
            case "apns": try apnsStatement(&t)
            case "fcm": try fcmStatement(&t)
            case "network": try networkStatement(&t)
            case "fault": try faultStatement(&t)
            case "limit": try limitStatement(&t)
            case "device": try deviceStatement(&t)
            case "devices": try devicesStatement(&t)
            case "browser": try browserStatement(&t)
            case "app-server": try applicationServerStatement(&t)
            case "account": try accountStatement(&t)
            case "at": try atStatement(&t)
            case "advance": try advanceStatement(&t)
            case "expect": try expectStatement(&t)
            default:
                // A device action without a time; an action word after an unknown name also counts,
                // so that the diagnostic is "never declared" rather than "unknown statement".
                let verb = t.peekSecond.map { $0.isWord && ScenarioParser.actionVerbs.contains($0.text) } ?? false
                guard declaredNames.contains(first.text) || verb || first.text == OperatorConsole.name || populations[first.text] != nil else {
                    throw ScenarioDiagnostic(location: t.location(first), message: "unknown statement \(first.quoted)",
                                             hint: ScenarioParser.unknownStatementHint)
                }
                try actionStatement(&t, at: cursor)
            }
        }

        /// Notes a use of a device name, checked once the whole file has been read.
        mutating func use(_ device: ScenarioToken, _ t: Tokens) {
            deviceUses.append((device.text, t.location(device)))
        }

        /// Adds the checks that need the whole file, then returns the scenario or every diagnostic.
        func finish() -> Result<Scenario, ScenarioParseFailure> {
            var found = diagnostics
            var reported: Set<String> = []
            for use in deviceUses where !declaredNames.contains(use.name) && !reported.contains(use.name) {
                reported.insert(use.name)
                if populationLines[use.name] != nil {
                    found.append(ScenarioDiagnostic(location: use.location, message: "\"\(use.name)\" is a population, not a device",
                                                    hint: "act on every member with: \(use.name) <action>; check them with: expect every device in "
                                                        + "\(use.name) shows \"<text>\"; or name one member, e.g. \(use.name)-1"))
                    continue
                }
                let others = deviceUses.filter { $0.name == use.name && $0.location != use.location }.map { String($0.location.line) }
                let also = others.isEmpty ? "" : " (also used on line\(others.count == 1 ? "" : "s") \(others.joined(separator: ", ")))"
                found.append(ScenarioDiagnostic(location: use.location,
                                                message: "device \"\(use.name)\" is used but never declared\(also)",
                                                hint: "declare it with: device \(use.name) ios|android|windows"))
            }
            for use in hostUses where !declaredNames.contains(use.name) && !ScenarioParser.serviceHosts.contains(use.name) {
                if populationLines[use.name] != nil {
                    found.append(ScenarioDiagnostic(location: use.location, message: "\"\(use.name)\" is a population; a network rule names single hosts",
                                                    hint: "name a member, e.g. \(use.name)-1, or a service: \(ScenarioParser.serviceHosts.joined(separator: ", "))"))
                    continue
                }
                found.append(ScenarioDiagnostic(location: use.location, message: "unknown host \"\(use.name)\" in a network rule",
                                                hint: "hosts are the declared devices and \(ScenarioParser.serviceHosts.joined(separator: ", "))"))
            }
            let policies = Set(settings.compactMap { if case .hubPolicy(let p) = $0 { p.name } else { nil } })
            for use in policyUses where !policies.contains(use.name) {
                found.append(ScenarioDiagnostic(location: use.location, message: "no hub policy \"\(use.name)\" is declared",
                                                hint: "declare it with: hub policy \"\(use.name)\" listen|send|manage[,…]"))
            }
            found += templatePlatformProblems()
            // Sorted by position; the index keeps the order of diagnostics at the same place.
            var ordered = found.enumerated().sorted {
                ($0.element.location.line, $0.element.location.column, $0.offset)
                    < ($1.element.location.line, $1.element.location.column, $1.offset)
            }.map(\.element)
            if scenarioLine == nil {
                ordered.insert(ScenarioDiagnostic(location: SourceLocation(file: path, line: 1, column: 1),
                                                  message: "missing scenario statement",
                                                  hint: "start the file with: scenario \"<name>\""), at: 0)
            }
            guard ordered.isEmpty, let name else { return .failure(ScenarioParseFailure(diagnostics: ordered)) }
            var scenario = Scenario(path: path, name: name, seed: seed, settings: settings, devices: devices,
                                    actions: actions, expectations: expectations)
            scenario.browsers = browsers
            scenario.applicationServers = applicationServers
            return .success(scenario)
        }
    }
}
