import PushSimBackend
import PushSimDevices

/// The fixed design beside the broken one: a defect scenario's story replayed with the hardened
/// backend and the recommended client on every device, the same switch `pushsim explore
/// --flavour hardened` makes for generated worlds (`backend hardened`, `client recommended`).
extension TeachingPage {
    /// `scenario` with every built-in backend hardened and every device on the recommended
    /// client; devices on an external backend keep it. Same steps, same expectations (written for
    /// the tutorial run: on the twin they show what the fix changed), same seed.
    package static func hardenedTwin(of scenario: Scenario) -> Scenario {
        var twin = scenario
        twin.settings = scenario.settings.filter { if case .backend = $0 { return false } else { return true } } + [.backend(.hardened)]
        twin.devices = scenario.devices.map { d in
            var d = d
            d.client = .recommended
            if d.externalBackend == nil { d.backend = nil }
            return d
        }
        return twin
    }

    /// True for the scenarios that show one of the tutorial's defects (those in a `defects` folder):
    /// their pages put the run as written beside its hardened twin.
    package static func isDefectScenario(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains("defects")
    }

    /// The runs for `report`'s page: itself, and for a defect scenario (or when `compare` asks)
    /// its hardened twin run with the same seed beside it.
    package static func runs(for report: ScenarioReport, compare: Bool? = nil) -> [Run] {
        guard compare ?? isDefectScenario(report.scenario.path) else { return [Run(title: "the run", report: report)] }
        let twin = hardenedTwin(of: report.scenario)
        guard case .success(let hardened) = ScenarioRunner.run(twin, seed: report.seed) else {
            return [Run(title: "the run", report: report)]
        }
        return [Run(title: "as written (the tutorial's parts, as the scenario declares them)", report: report),
                Run(title: "hardened twin (backend hardened, recommended client on every device)", report: hardened,
                    expectationsFromAnotherRun: true)]
    }
}
