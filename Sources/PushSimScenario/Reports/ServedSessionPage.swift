import PushSimKernel
import PushSimNetwork

/// A teaching page (`TeachingPage`) of a world that was not run from a scenario: `pushsim
/// serve`'s session, rebuilt with its trace by replaying its requests. The page's "scenario" is
/// the session: its devices are the world's, it has no steps or expectations of its own, and its
/// verdicts are the invariants the checkers judged on the session (``LiveExpectations``).
package enum ServedSessionPage {
    /// The page of `simulation`, whose trace must have been kept (``World/isRecordingTrace``);
    /// `title` heads it, `source` says where the session came from (a record file, the server).
    package static func html(of simulation: Simulation, expectations: LiveExpectations, title: String, source: String, seed: UInt64) -> String {
        let location = SourceLocation(file: source, line: 1, column: 1)
        let devices = simulation.devices.map {
            DeviceDeclaration(name: $0.name, platform: $0.platform, user: nil, client: $0.client, location: location)
        }
        let scenario = Scenario(path: source, name: title, seed: seed, settings: [], devices: devices, actions: [], expectations: [])
        let world = simulation.world
        let leftovers = world.leftovers()
        let report = ScenarioReport(scenario: scenario, seed: seed, results: [], invariants: expectations.invariants(leftovers: leftovers),
                                    end: .quiescent, finalTime: world.now, events: world.eventsProcessed,
                                    leftovers: leftovers.map(\.line), trace: world.trace.events)
        return TeachingPage.html([TeachingPage.Run(title: title, report: report)])
    }
}
