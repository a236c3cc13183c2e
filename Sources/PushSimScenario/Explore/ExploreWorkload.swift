import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices

/// What `pushsim explore` generates worlds for: which flavour of the system, how large, whether
/// faults are injected, and test-only planted bugs.
public struct ExploreOptions: Sendable, Equatable {
    /// `tutorial`: the tutorial's backend and client as written; `hardened`: the hardened backend
    /// with the recommended client.
    public var flavour: BackendFlavour = .hardened
    /// Most devices in a generated world (at least 1).
    public var maxDevices = 5
    /// Most user actions in the fault phase.
    public var maxSteps = 12
    /// Whether the fault phase injects network and service faults (else it is only a workload).
    public var faults = true
    /// Whether worlds also hold browsers subscribed to a site's Web Push (`--browsers`; see
    /// `ExploreWorkload+Browsers.swift`). Off by default: a seed's devices and steps are the
    /// same either way, the browsers' choices come from a stream of their own.
    public var browsers = false
    /// Bugs planted on purpose (test-only), to show that exploration finds and shrinks them.
    public var plantedBugs: [PlantedBug] = []

    /// Options with no planted bugs; `maxDevices` and `maxSteps` below 1 count as 1.
    public init(flavour: BackendFlavour = .hardened, maxDevices: Int = 5, maxSteps: Int = 12, faults: Bool = true) {
        self.flavour = flavour
        self.maxDevices = max(1, maxDevices)
        self.maxSteps = max(1, maxSteps)
        self.faults = faults
    }
}

/// A bug planted on purpose behind a test-only switch, to show that exploration finds and shrinks it.
public enum PlantedBug: String, Sendable, CaseIterable {
    /// The hardened backend's tag check is gone (``HardenedBackend/plantedBugSkipsTagCheck``).
    case hardenedTagCheckRemoved = "hardened-tag-check-removed"
    /// The hub keeps sending to handles its PNS reported dead (``NotificationHub/plantedBugKeepsDeadHandles``).
    case hubSendsToDeadHandles = "hub-sends-to-dead-handles"

    /// Plants the bug in `simulation`.
    public func plant(in simulation: Simulation) {
        switch self {
        case .hardenedTagCheckRemoved: simulation.hardenedBackend.plantedBugSkipsTagCheck = true
        case .hubSendsToDeadHandles: simulation.hub.plantedBugKeepsDeadHandles = true
        }
    }
}

/// Writes the scenario of one exploration seed: a world, a fault phase of random user actions
/// under injected faults, then a healed phase that must converge.
///
/// The output is scenario text, one statement per line, so that a failing run can be saved,
/// shrunk line by line and replayed with `pushsim run` exactly as it was found. Every choice
/// comes from the seed (``SeededRandom`` forked as `explore`): the same seed writes the same
/// file in any process.
///
/// Only faults the real systems show are injected, each labelled as injected in the trace: lost
/// messages, partitions between a phone and the backend, and the push services' outages,
/// throttling, internal errors and slow answers. The healed phase brings every device back
/// online, lets the hub's registrations expire when the world has a time-to-live (the user comes
/// back days later and opens the app, sometimes logging in again), restarts every installed app,
/// waits ``settleTime``, and then the operator sends one notification to each user: every device
/// logged in as that user must show it exactly once within ``convergenceBound``. So the stated
/// bound of convergence is: 10 s + 120 s + 60 s after the heal (plus the time-to-live when the
/// world has one).
public struct ExploreWorkload {
    /// How long after the apps start again the operator sends: longer than any call still in
    /// flight from the fault phase can take (the apps time out after 60 s) plus a retry.
    public static let settleTime = VirtualDuration.seconds(120)
    /// How long after its convergence send a device has to show it.
    public static let convergenceBound = VirtualDuration.seconds(60)

    /// The seed the world is generated from.
    public let seed: UInt64
    /// What may be generated.
    public let options: ExploreOptions
    private var random: SeededRandom
    /// The browsers' choices (``ExploreOptions/browsers``), apart from ``random`` so that turning
    /// browsers on leaves every other choice of a seed as it was.
    var browserRandom: SeededRandom
    /// The browsers planned, when ``ExploreOptions/browsers`` is on.
    var browsers: [PlannedBrowser] = []
    /// The scenario written so far as UTF-8, each statement ended by a line feed.
    private var scenarioText: [UInt8] = []
    /// How many statements ``scenarioText`` holds (a fault-phase message is numbered by it).
    private(set) var lineCount = 0

    /// The scenario text of `seed` under `options`.
    public static func scenario(seed: UInt64, options: ExploreOptions) -> String {
        var workload = ExploreWorkload(seed: seed, options: options)
        workload.scenarioText.reserveCapacity(2_048)
        workload.write()
        return String(decoding: workload.scenarioText, as: UTF8.self)
    }

    /// Adds `statement` as the scenario's next line.
    mutating func line(_ statement: StatementText) {
        scenarioText += statement.utf8
        scenarioText.append(UInt8(ascii: "\n"))
        lineCount += 1
    }

    private init(seed: UInt64, options: ExploreOptions) {
        self.seed = seed
        self.options = options
        self.random = SeededRandom(seed: seed).fork("explore")
        self.browserRandom = SeededRandom(seed: seed).fork("explore-browsers")
    }

    /// One generated device and what the generator believes of it while writing steps.
    private struct PlannedDevice {
        var name: String
        var platform: DevicePlatform
        var user: String
        var installed = false
        var online = true
    }

    static let userNames = ["alice", "bob", "carol"]

    private mutating func write() {
        let flavour = options.flavour
        let client: ClientFlavour = flavour == .tutorial ? .tutorial : .recommended
        line("scenario \"explore \(flavour.rawValue) seed \(seed)\"")
        line("seed \(seed)")
        line("backend \(flavour.rawValue)")
        let ttlDays: Int64? = random.chance(Ratio(1, 3)) ? [1, 7, 30][random.int(below: 3)] : nil
        if let ttlDays { line("hub ttl \(ttlDays)d") }
        line("network latency 5ms..\([20, 80, 400][random.int(below: 3)])ms")

        let users = Array(Self.userNames.prefix(1 + random.int(below: Self.userNames.count)))
        var devices: [PlannedDevice] = []
        for k in 0..<(1 + random.int(below: options.maxDevices)) {
            let platform = DevicePlatform.allCases[random.int(below: DevicePlatform.allCases.count)]
            let user = users[random.int(below: users.count)]
            devices.append(PlannedDevice(name: "\(user)-\(platform.rawValue)\(k + 1)", platform: platform, user: user))
        }
        let healAt = Int64(60 + random.int(below: 241))   // seconds: the fault phase is [0, healAt)
        if options.faults { writeFaults(devices: devices, healAt: healAt) }
        for d in devices {
            // The tutorial's client meets the hardened backend now and then: its own defect (a, the
            // retry that re-sends a dead id) only shows when the backend passes the hub's 410 on.
            let backend = flavour == .tutorial && random.chance(Ratio(1, 3)) ? " backend hardened" : ""
            line("device \(d.name) \(d.platform.rawValue) user \(d.user) client \(client.rawValue)\(backend)")
        }
        if options.browsers { declareBrowsers(users: users) }

        // Fault phase: everyone installs early, then random actions at increasing times.
        var now: Int64 = 0
        for i in devices.indices {
            line("at \(now)s \(devices[i].name) install")
            devices[i].installed = true
        }
        if options.browsers { subscribeBrowsers(at: 1) }
        var loggedIn: [String: String] = [:]   // device → user (looked up only)
        now = 2
        for d in devices where random.chance(Ratio(2, 3)) {
            line("at \(now)s \(d.name) login \(d.user) password \(d.user)")
            loggedIn[d.name] = d.user
        }
        let steps = 1 + random.int(below: options.maxSteps)
        for _ in 0..<steps {
            now = min(healAt - 1, now + 1 + Int64(random.int(below: Int(max(1, healAt / Int64(steps))))))
            if options.browsers { browserStep(at: now) }
            let i = random.int(below: devices.count)
            let d = devices[i]
            switch random.int(below: 14) {
            case 0...3:
                guard d.installed else { continue }
                line("at \(now)s \(d.name) login \(d.user) password \(d.user)")
                loggedIn[d.name] = d.user
            case 4...6:
                guard loggedIn[d.name] != nil else { continue }
                let to = users[random.int(below: users.count)]
                line("at \(now)s \(d.name) send \"m\(lineCount)\" to \(to) via apns,fcm,wns")
            case 7:
                guard loggedIn[d.name] != nil else { continue }
                line("at \(now)s \(d.name) logout")
                loggedIn[d.name] = nil
            case 8:
                line("at \(now)s \(d.name) \(d.installed ? "uninstall" : "install")")
                devices[i].installed.toggle()
                loggedIn[d.name] = nil
            case 9:
                line("at \(now)s \(d.name) refresh-handle")
            case 10, 11:
                line("at \(now)s \(d.name) \(d.online ? "offline" : "online")")
                devices[i].online.toggle()
            case 12:
                // A client asking for a tag that is not its user's (how defects i and g show: another
                // user's tag, or a sender's from: tag); the hardened backend must refuse it.
                guard loggedIn[d.name] != nil else { continue }
                let other = users[random.int(below: users.count)]
                let tag = random.chance(Ratio(1, 2)) ? "from:\(other)" : "username:\(other)"
                guard tag != "username:\(d.user)" else { continue }
                line("at \(now)s \(d.name) register with tags \(tag)")
            default:
                // A new phone restored from the same user's backup of the same platform.
                guard !d.installed, let source = devices.first(where: { $0.platform == d.platform && $0.user == d.user && $0.name != d.name })
                else { continue }
                line("at \(now)s \(d.name) restore from \(source.name)")
                devices[i].installed = true
            }
        }

        // The user turns notifications off now and then (a stream of its own, so that the steps
        // above stay what each seed always gave): the convergence send must still reach such a
        // device, which keeps it off screen (`notification.suppressed`).
        var permissionRandom = random.fork("permission")
        var denied: [String] = []
        for d in devices where d.installed && permissionRandom.chance(Ratio(1, 4)) {
            now = min(healAt - 1, now + 1)
            line("at \(now)s \(d.name) deny notifications")
            denied.append(d.name)
        }

        // Healed phase.
        line(StatementText(Self.healedMarker))
        var t = healAt
        for d in devices where !d.online { line("at \(t)s \(d.name) online") }
        for name in denied where permissionRandom.chance(Ratio(1, 2)) { line("at \(t)s \(name) allow notifications") }
        if options.browsers { healBrowsers(at: t) }
        if let ttlDays {
            t += ttlDays * 86_400 + 60
            for d in devices where d.installed && loggedIn[d.name] != nil && random.chance(Ratio(1, 2)) {
                line("at \(t)s \(d.name) login \(d.user) password \(d.user)")
            }
        }
        t += 10
        for d in devices where d.installed { line("at \(t)s \(d.name) launch") }
        t += Self.settleTime.seconds
        for user in users where devices.contains(where: { $0.user == user }) {
            let text = "final to \(user)"
            for platform in DevicePlatform.allCases where devices.contains(where: { $0.user == user && $0.platform == platform }) {
                line("at \(t)s operator send \(Self.format(platform)) \(ScenarioLexer.quote(Self.payload(text, platform))) to \"username:\(user)\"")
            }
            line("expect user \(user) shows \(ScenarioLexer.quote(text)) once on every device by +\(Self.convergenceBound)")
        }
        if options.browsers { pushToBrowsers(at: t) }
    }

    private mutating func writeFaults(devices: [PlannedDevice], healAt: Int64) {
        for _ in 0..<random.int(below: 3) {
            let from = Int64(random.int(below: Int(healAt)))
            let to = from + 1 + Int64(random.int(below: Int(healAt - from)))
            switch random.int(below: 3) {
            case 0:
                let d = devices[random.int(below: devices.count)]
                line("network partition \(d.name) backend from \(from)s to \(to)s")
            case 1:
                line("network loss 1/\([5, 10, 50][random.int(below: 3)]) from \(from)s to \(to)s")
            default:
                let service = PushServiceDescriptor.all[random.int(below: PushServiceDescriptor.all.count)].name
                let fault = ["outage", "throttle", "internal-error", "slow 20s"][random.int(below: 4)]
                line("fault \(service) \(fault) from \(from)s to \(to)s")
            }
        }
    }

    /// The comment that opens the healed phase in a generated scenario.
    static let healedMarker = "# healed phase: every device online, the apps started again, one send to each user"

    /// How ``ScenarioShrinker`` may remove the statements of a generated scenario, one unit per
    /// statement: the `backend` line (the flavour under test) stays; a device's declaration goes
    /// with its `launch` of the healed phase; a device's `offline` goes with the `online` that
    /// ends it; each `expect user <name>` goes with the operator's sends to that user; the rest
    /// goes statement by statement (what a convergence expectation still needs is kept by
    /// ``convergencePremise(of:)``).
    public static func units(of scenario: String) -> [ScenarioShrinker.Unit] {
        var toggles = 0
        var openToggle: [String: Int] = [:]   // device → its offline step's group (looked up only)
        var inHealed = false
        var units: [ScenarioShrinker.Unit] = []
        for line in scenario.split(separator: "\n") {
            if line == healedMarker { inHealed = true; continue }
            let words = line.split(separator: " ")
            guard let first = words.first, !first.hasPrefix("#") else { continue }
            let unit: ScenarioShrinker.Unit
            if first == "backend" {
                unit = .fixed
            } else if words.count >= 3, first == "expect", words[1] == "user" {
                unit = .group("user:" + words[2])
            } else if line.contains(" operator send "), let to = line.firstRange(of: "to \"username:") {
                unit = .group("user:" + line[to.upperBound...].prefix { $0 != "\"" })
            } else if let browser = browserUnit(words, inHealed: inHealed) {
                unit = browser
            } else if words.count >= 2, first == "device" {
                unit = .group("device:" + words[1])
            } else if words.count >= 4, first == "at", words[3] == "offline" {
                toggles += 1
                openToggle[String(words[2])] = toggles
                unit = .group("toggle:\(toggles)")
            } else if words.count >= 4, first == "at", words[3] == "online", let k = openToggle.removeValue(forKey: String(words[2])) {
                unit = .group("toggle:\(k)")
            } else if inHealed, words.count >= 4, first == "at", words[3] == "launch" {
                unit = .group("device:" + words[2])
            } else {
                unit = .alone
            }
            units.append(unit)
        }
        return units
    }

    /// Whether a shrunk candidate of `original` still has the premise of its convergence
    /// expectations: for each `expect user <name>` left, each of the user's declared devices keeps
    /// its healed-phase `launch` (if it had one), an operator send to the user for its platform,
    /// and an `online` after each `offline`. (Without them, a device would fail to show the
    /// message for the wrong reason.)
    public static func convergencePremise(of original: String) -> (String) -> Bool {
        var launches: [String: String] = [:]   // device → its healed-phase launch statement
        var inHealed = false
        for line in original.split(separator: "\n") {
            if line == healedMarker { inHealed = true; continue }
            let words = line.split(separator: " ")
            if inHealed, words.count >= 4, words[0] == "at", words[3] == "launch" { launches[String(words[2])] = String(line) }
        }
        return { candidate in keepsConvergencePremise(candidate, launches: launches) }
    }

    private static func keepsConvergencePremise(_ candidate: String, launches: [String: String]) -> Bool {
        let statements = ScenarioShrinker.statements(candidate)
        let present = Set(statements)
        var devicesOf: [String: [String]] = [:]      // user → the user's declared devices
        var offline: Set<String> = []                // devices whose last network step is offline
        var platforms: [String: Set<String>] = [:]   // user → platforms of the user's devices
        var sent: Set<String> = []                   // "user format"
        var checked: [String] = []
        for line in statements {
            let words = line.split(separator: " ")
            if words.count >= 5, words[0] == "device", words[3] == "user" {
                platforms[String(words[4]), default: []].insert(String(words[2]))
                devicesOf[String(words[4]), default: []].append(String(words[1]))
            }
            if words.count >= 3, words[0] == "expect", words[1] == "user" { checked.append(String(words[2])) }
            if words.count >= 4, words[0] == "at", words[3] == "offline" { offline.insert(String(words[2])) }
            if words.count >= 4, words[0] == "at", words[3] == "online" { offline.remove(String(words[2])) }
            if words.count >= 5, words[2] == "operator", words[3] == "send", let to = line.firstRange(of: "to \"username:") {
                sent.insert(line[to.upperBound...].prefix { $0 != "\"" } + " " + words[4])
            }
        }
        return checked.allSatisfy { user in
            (platforms[user] ?? []).allSatisfy { p in
                DevicePlatform(rawValue: p).map { sent.contains(user + " " + format($0)) } ?? true
            } && (devicesOf[user] ?? []).allSatisfy { d in (launches[d].map(present.contains) ?? true) && !offline.contains(d) }
        }
    }

    /// The hub's native format for a platform.
    static func format(_ platform: DevicePlatform) -> String { platform.service.hubFormat }

    /// A native payload that the platform's OS shows as `text` (``DevicePlatformProfile/shownText``).
    static func payload(_ text: String, _ platform: DevicePlatform) -> String { platform.profile.shownText.payload(text) }
}

/// One statement of a generated scenario, written by string interpolation straight into UTF-8
/// bytes: `"at \(now)s \(d.name) install"` reads as it would as a `String`, without a `String`
/// built per piece (`String` interpolation and `+=` cost some 500 instructions per piece, and
/// explore writes some 30 statements of 5 to 10 pieces per seed). Integers are written in
/// decimal and anything else by its `description`, as `String` interpolation writes them.
struct StatementText: ExpressibleByStringInterpolation {
    /// The statement's UTF-8 bytes.
    var utf8: [UInt8]

    /// The statement `text`.
    init(_ text: String) {
        utf8 = []
        utf8.appendUTF8(text)
    }

    /// The statement `value`, written without interpolation.
    init(stringLiteral value: String) { self.init(value) }

    /// The statement the pieces of `stringInterpolation` make.
    init(stringInterpolation: Interpolation) { utf8 = stringInterpolation.utf8 }

    /// The pieces of an interpolated statement, appended as they come.
    struct Interpolation: StringInterpolationProtocol {
        /// The bytes written so far.
        var utf8: [UInt8] = []

        /// Room for the literal text and some 16 bytes per interpolated value.
        init(literalCapacity: Int, interpolationCount: Int) { utf8.reserveCapacity(literalCapacity + 16 * interpolationCount) }

        /// A piece of the literal text.
        mutating func appendLiteral(_ literal: String) { utf8.appendUTF8(literal) }

        /// A string, as it is.
        mutating func appendInterpolation(_ text: String) { utf8.appendUTF8(text) }

        /// An integer in decimal, `-` before a negative one (its text is a small string: no allocation).
        mutating func appendInterpolation(_ n: some FixedWidthInteger) { utf8.appendUTF8(String(n)) }

        /// Anything else by its description (``PushSimKernel/VirtualDuration`` as `60s`).
        mutating func appendInterpolation(_ value: some CustomStringConvertible) { utf8.appendUTF8(value.description) }
    }
}
