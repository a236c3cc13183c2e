import Foundation
import PushSim

/// Scenario files: decoded (`ScenarioSource`), parsed, and, when they parse, run with the run's
/// limits capped (20,000 events, 30 days) so that runtime paths are covered too.
public enum ScenarioSurface {
    /// The surface, its corpus read from the `.scenario` files under `corpusDirectory`.
    public static func make(corpusDirectory: String) -> FuzzSurface {
        let (files, _) = PushSim.scenarioFiles(in: [corpusDirectory])
        let corpus = files.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        return FuzzSurface(name: "scenario", corpus: corpus) { bytes in
            guard case .success(let text) = ScenarioSource.decode(bytes, path: "fuzz.scenario") else { return "not-utf8" }
            guard case .success(var scenario) = ScenarioParser.parse(text, path: "fuzz.scenario") else { return "diagnostics" }
            scenario.settings += [.limitEvents(20_000), .limitTime(.days(30))]
            switch ScenarioRunner.run(scenario) {
            case .failure: return "run-refused"
            case .success(let report): return report.end.isLimit ? "limit" : (report.passed ? "passed" : "failed")
            }
        }
    }
}
