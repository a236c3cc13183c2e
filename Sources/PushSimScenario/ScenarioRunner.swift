import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices

/// Builds a ``Simulation`` from a parsed ``Scenario``, schedules its steps, runs it to the end
/// and checks its expectations.
public enum ScenarioRunner {
    /// Runs `scenario` with `seed` (the file's own seed, else 0, when nil).
    public static func run(_ scenario: Scenario, seed: UInt64? = nil) -> Result<ScenarioReport, ScenarioParseFailure> {
        let seed = seed ?? scenario.seed ?? 0
        var options = Simulation.Options()
        var problems: [ScenarioDiagnostic] = []
        let fileStart = SourceLocation(file: scenario.path, line: 1, column: 1)
        for setting in scenario.settings {
            switch setting {
            case .backend(.tutorial): break
            case .backend(.hardened):
                problems.append(ScenarioDiagnostic(location: fileStart, message: "the hardened backend is not available yet",
                                                   hint: "use 'backend tutorial'"))
            case .hubRegistrationTTL(let ttl): options.registrationTimeToLive = ttl
            case .limitEvents(let n): options.limits.maxEvents = n
            case .limitTime(let d): options.limits.maxTime = .zero + d
            case .latency, .loss, .partition: break // network settings, applied below
            }
        }
        let simulation = Simulation(seed: seed, options: options)
        for d in scenario.devices { simulation.addDevice(d.name, d.platform, client: d.client) }
        for setting in scenario.settings {
            switch setting {
            case .latency(let min, let max):
                simulation.world.faults.latencyMin = min
                simulation.world.faults.latencyMax = max
            case .loss(let ratio, let between):
                problems += unknownHosts(between ?? [], simulation, fileStart)
                simulation.world.faults.rules.append(LinkFault(between: between, effect: .loss(ratio)))
            case .partition(let a, let b, let from, let to):
                problems += unknownHosts([a, b], simulation, fileStart)
                simulation.world.faults.rules.append(LinkFault(between: [a, b], window: from..<to, effect: .partition))
            default: break
            }
        }
        if !problems.isEmpty { return .failure(ScenarioParseFailure(diagnostics: problems)) }
        for action in scenario.actions {
            guard let device = simulation.device(action.device) else { continue }
            simulation.at(action.time, "\(action.device) \(describe(action.kind))") { perform(action.kind, on: device) }
        }
        let end = simulation.run()
        let results = scenario.expectations.map { ExpectationCheck.evaluate($0, in: simulation) }
        return .success(ScenarioReport(scenario: scenario, seed: seed, results: results, end: end,
                                       finalTime: simulation.world.now, events: simulation.world.eventsProcessed,
                                       leftovers: simulation.world.leftovers(), trace: simulation.world.trace.events))
    }

    static func perform(_ kind: ActionKind, on device: Device) {
        switch kind {
        case .install: device.install()
        case .uninstall: device.uninstall()
        case .login(let user, let password): device.login(user: user, password: password)
        case .send(let message, let to, let via): device.send(message, to: to, via: via)
        case .offline: device.goOffline()
        case .online: device.goOnline()
        }
    }

    static func describe(_ kind: ActionKind) -> String {
        switch kind {
        case .install: return "install"
        case .uninstall: return "uninstall"
        case .login(let user, _): return "login \(user)"
        case .send(let message, let to, let via): return "send \(jsonString(message)) to \(to) via \(via.map(\.rawValue).joined(separator: ","))"
        case .offline: return "offline"
        case .online: return "online"
        }
    }

    private static func unknownHosts(_ names: [String], _ simulation: Simulation, _ at: SourceLocation) -> [ScenarioDiagnostic] {
        names.filter { simulation.world.primaryName($0) == nil }.map {
            ScenarioDiagnostic(location: at, message: "unknown host \"\($0)\" in a network rule",
                               hint: "hosts are device names and \(simulation.world.hostNames.prefix(5).joined(separator: ", "))")
        }
    }
}

func jsonString(_ s: String) -> String {
    var out = ""
    appendJSONString(s, to: &out)
    return out
}
