import PushSimKernel

/// `pushsim explore`, in process: generate the world of a seed, run it, judge it, and shrink what
/// fails to a scenario a person can read.
///
/// Seeds are independent: a seed's verdict never depends on which other seeds ran, in which order,
/// in which process or shard. Parallelism belongs to the command-line tool; this type is plain
/// single-threaded code.
public enum Explorer {
    /// One explored seed.
    public struct Outcome: Sendable {
        /// The seed that generated and ran the world.
        public var seed: UInt64
        /// The generated scenario, as it would be saved.
        public var scenario: String
        /// Bugs planted in the run (test-only; empty in real use).
        public var planted: [PlantedBug]
        /// How the run was judged.
        public var verdict: ExploreVerdict
    }

    /// A failure cut down to the statements it needs.
    public struct Shrunk: Sendable {
        /// The seed of the outcome that was shrunk.
        public var seed: UInt64
        /// The check the shrunk scenario still fails (and the defect it still shows, if one was kept).
        public var failure: ExploreFailure
        /// The tutorial defect the shrinking had to keep in the trace; nil when none was asked for.
        public var defect: String?
        /// The shrunk scenario's text.
        public var scenario: String
        /// Statements in the shrunk scenario (``ScenarioShrinker/statementCount(_:)``).
        public var statements: Int
        /// Candidate runs the shrinking took.
        public var runs: Int
    }

    /// Generates and runs the world of `seed`.
    public static func explore(seed: UInt64, options: ExploreOptions) -> Outcome {
        let text = ExploreWorkload.scenario(seed: seed, options: options)
        let verdict = verdict(of: text, path: "explore-\(seed).scenario", planted: options.plantedBugs)
        return Outcome(seed: seed, scenario: text, planted: options.plantedBugs,
                       verdict: verdict ?? ExploreVerdict.unparsable("explore-\(seed).scenario"))
    }

    /// Parses and runs `text` (with bugs `planted`); a text that does not parse has no verdict (nil).
    public static func verdict(of text: String, path: String, planted: [PlantedBug] = []) -> ExploreVerdict? {
        guard case .success(let scenario) = ScenarioParser.parse(text, path: path),
              case .success(let report) = ScenarioRunner.run(scenario, keepingTrace: false, prepare: { s in planted.forEach { $0.plant(in: s) } })
        else { return nil }
        return ExploreVerdict(report)
    }

    /// Shrinks a failing outcome while the same check fails; with `defect`, the trace must also
    /// keep showing that tutorial defect, and with `requiring`, the scenario must keep a statement
    /// containing that text (so that a finding stays about what it shows).
    public static func shrink(_ outcome: Outcome, check: String? = nil, defect: String? = nil, requiring: String? = nil,
                              maxRuns: Int = 5_000) -> Shrunk? {
        guard let target = check.flatMap({ c in outcome.verdict.failures.first { $0.check == c } }) ?? outcome.verdict.failures.first
        else { return nil }
        let path = "explore-\(outcome.seed).scenario"
        var shrinker = ScenarioShrinker(maxRuns: maxRuns)
        let premise = ExploreWorkload.convergencePremise(of: outcome.scenario)
        let text = shrinker.shrink(outcome.scenario, units: ExploreWorkload.units(of: outcome.scenario)) { candidate in
            if let requiring, !candidate.contains(requiring) { return false }
            guard premise(candidate) else { return false }
            guard let v = verdict(of: candidate, path: path, planted: outcome.planted), v.fails(target.check) else { return false }
            return defect.map(v.defects.contains) ?? true
        }
        let final = verdict(of: text, path: path, planted: outcome.planted)
        let failure = final?.failures.first { $0.check == target.check } ?? target
        return Shrunk(seed: outcome.seed, failure: failure, defect: defect, scenario: text,
                      statements: ScenarioShrinker.statementCount(text), runs: shrinker.runs)
    }

    /// The seeds of `range` that belong to shard `index` of `count` (seed mod count == index):
    /// the same seed lands in the same shard whatever the range, so shard runs can be merged.
    public static func seeds(_ range: ClosedRange<UInt64>, shard index: Int = 0, of count: Int = 1) -> [UInt64] {
        guard count > 1 else { return Array(range) }
        return range.filter { $0 % UInt64(count) == UInt64(index) }
    }
}

extension ExploreVerdict {
    /// A generated scenario that does not parse: a bug in the generator, reported as a failure.
    static func unparsable(_ path: String) -> ExploreVerdict {
        ExploreVerdict(failures: [ExploreFailure(check: "generator", detail: "\(path) does not parse")], defects: [], events: 0)
    }

    init(failures: [ExploreFailure], defects: [String], events: Int) {
        self.failures = failures
        self.defects = defects
        self.events = events
    }
}
