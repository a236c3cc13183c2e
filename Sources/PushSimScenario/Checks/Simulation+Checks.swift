import PushSimKernel
import PushSimNetwork
import PushSimHub

/// What a test of your own code needs from a hand-built ``Simulation``: the hub's address and
/// keys to give your backend, and the checks, narration and diagrams a scenario run gets.
extension Simulation {
    /// The hub's full-access connection string, as a backend is given it
    /// (`Endpoint=sb://pushsim.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=…`).
    /// A ``NotificationHubClient`` made from it with ``hubPath`` reaches this world's hub.
    public var hubConnectionString: String {
        let rules = hub.configuration.accessRules
        return hub.configuration.connectionString(for: rules.first { $0.rights.contains(.manage) } ?? rules[0])
    }

    /// The listen-only connection string (what a device SDK is given: it may register, not send).
    public var hubListenConnectionString: String {
        let rules = hub.configuration.accessRules
        return hub.configuration.connectionString(for: rules.first { $0.rights == [.listen] } ?? rules[0])
    }

    /// The hub's name, the first segment of its REST paths (`notifyusers`).
    public var hubPath: String { hub.configuration.hubName }

    /// The four invariants (cross-user delivery, dead handles, accounting, logout privacy),
    /// checked over everything the world has recorded so far. `enforced` false reports violations
    /// without failing (how scenario runs treat the tutorial's backend, whose defects break them).
    /// Needs the trace recording (the default).
    public func checkInvariants(enforced: Bool = true) -> [InvariantResult] {
        let checkers = InvariantCheckers.make(crossUserEnforced: enforced, logoutPrivacyEnforced: enforced)
        for event in world.trace.events { for c in checkers { c.observe(event) } }
        let leftovers = world.leftovers()
        return checkers.map { $0.result(leftovers: leftovers) }
    }

    /// This run as a ``ScenarioReport`` (no expectations; the invariants of
    /// ``checkInvariants(enforced:)``), for `report.text()`, ``Explanation/narrate(_:)`` and
    /// `SequenceDiagram/mermaid(_:)`. `end` is what ``run(until:)`` returned.
    public func report(name: String = "hand-built simulation", end: RunEnd, enforced: Bool = true) -> ScenarioReport {
        let devices = devices.map {
            DeviceDeclaration(name: $0.name, platform: $0.platform, user: $0.loggedInUser, client: $0.client,
                              location: SourceLocation(file: "-", line: 0, column: 0))
        }
        let scenario = Scenario(path: "-", name: name, seed: world.seed, settings: [], devices: devices, actions: [], expectations: [])
        let memory = RunMemory()
        for event in world.trace.events { memory.observe(event) }
        return ScenarioReport(scenario: scenario, seed: world.seed, results: [], invariants: checkInvariants(enforced: enforced), end: end,
                              finalTime: world.now, events: world.eventsProcessed, leftovers: world.leftovers().map(\.line), trace: world.trace.events,
                              defects: memory.defects)
    }
}
