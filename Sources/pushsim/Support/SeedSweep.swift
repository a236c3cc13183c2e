import Foundation
import PushSim

/// `pushsim run FILE... --seeds A..B`: each scenario once per seed, on every core; lists the
/// seeds whose run failed (an expectation, an enforced invariant or a limit), each with its
/// replay command.
enum SeedSweep {
    static func run(_ files: [String], seeds: ClosedRange<UInt64>) -> Never {
        var failed = 0
        for file in files {
            let scenario: Scenario
            switch PushSim.loadScenario(path: file) {
            case .success(let s): scenario = s
            case .failure(let error): writeError(error.rendered(limit: 20)); exit(2)
            }
            let start = DispatchTime.now().uptimeNanoseconds
            let sweep = ParallelSeeds.run(Array(seeds), jobs: ParallelSeeds.cores) { seed -> String? in
                // Only the verdict is read: the trace is not kept (the replay command gives it back).
                guard case .success(let report) = ScenarioRunner.run(scenario, seed: seed, keepingTrace: false), !report.passed else { return nil }
                let first = report.results.first { !$0.passed }.map { "\($0.expectation.source): \($0.seen)" }
                    ?? report.invariants.first { !$0.holds && $0.enforced }.map { "invariant \($0.id): \($0.violations[0])" }
                    ?? "\(report.end)"
                return first
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let failures = sweep.results.compactMap { seed, detail in detail.map { (seed, $0) } }
            failed += failures.count
            print("\(file): \(sweep.results.count) seeds in \(String(format: "%.2f", elapsed)) s, \(failures.count) failed".escapingControlCharacters)
            for (seed, detail) in failures.prefix(20) {
                print("  seed \(seed): \(detail)\n    replay: \(ScenarioReport.replayProgram) run \(file) --seed \(seed)".escapingControlCharacters)
            }
            if failures.count > 20 { print("  … and \(failures.count - 20) more failing seeds") }
        }
        fflush(nil)
        exit(failed == 0 ? 0 : 1)
    }
}
