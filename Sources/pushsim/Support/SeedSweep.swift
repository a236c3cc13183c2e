import Foundation
import PushSim

/// `pushsim run FILE... --seeds A..B`: each scenario once per seed, on every core; lists the
/// seeds whose run failed (an expectation, an enforced invariant or a limit), each with its
/// replay command.
enum SeedSweep {
    /// Sweeps `seeds` over each of `files` in turn; returns the exit status: 0 when no run failed,
    /// 1 when one did, 2 when a file cannot be read or parsed (its mistakes on `output`'s standard
    /// error; the files after it are not run).
    static func run(_ files: [String], seeds: ClosedRange<UInt64>, output: Output) -> Int32 {
        var failed = 0
        for file in files {
            let scenario: Scenario
            switch PushSim.loadScenario(path: file) {
            case .success(let s): scenario = s
            case .failure(let error): output.error(error.rendered(limit: 20)); return 2
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
        output.flush()
        return failed == 0 ? 0 : 1
    }
}
