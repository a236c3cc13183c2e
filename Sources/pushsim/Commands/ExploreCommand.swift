import Foundation
import PushSim

/// `pushsim explore`: generates a world and a workload from each seed, runs it, checks every
/// invariant and the convergence after the heal, and shrinks each failure to a scenario that
/// `pushsim run` replays. `pushsim explore summary FILE...` merges the failure files of shards.
/// Exit status 0 when no seed failed, 1 when one did, 2 for a usage error.
struct ExploreCommand: Command {
    static let name = "explore"
    static let summary = "generate worlds from seeds, check every run, shrink what fails to a scenario"

    /// What a sweep explores and where it puts what it finds (the flags, read).
    struct Settings {
        /// What each world holds: `--flavour`, `--devices`, `--no-faults`, `--browsers`.
        var options = ExploreOptions()
        /// `--seeds <a>..<b>` (default 1..1000).
        var seeds: ClosedRange<UInt64> = 1...1_000
        /// `--shard <i>/<n>`: only the seeds s with s mod n = i (default 0/1, every seed).
        var shard = (index: 0, count: 1)
        /// `--jobs <n>`: worlds run at once, one per thread (default the number of cores).
        var jobs = ParallelSeeds.cores
        /// `--time-budget <seconds>`: wall-clock seconds after which no seed is started.
        var timeBudget: Double?
        /// `--out <folder>`: where each cause's scenario is saved.
        var outDirectory = ".build/explore"
        /// `--failures <file>`: the JSON Lines file each failing seed is appended to.
        var failuresPath: String?
        /// False with `--no-shrink`: failures grouped by check and defects, not shrunk.
        var shrink = true
    }

    static let usage = """
    OVERVIEW: Find push bugs by exploration: each seed generates users, devices on the three platforms,
    a fault phase (lost messages, partitions, the push services' outages, throttling, errors and slow
    answers, all labelled as injected) and a healed phase that must converge. Every run is checked
    (cross-user delivery, dead handles, accounting, logout privacy, convergence). Failing seeds are
    grouped by cause: the check that failed and the shape of the shrunk scenario (its statements with
    devices, users, platforms, times and texts abstracted). One seed per cause is shrunk to a scenario
    file that `pushsim run` replays; every other failing seed joins a cause when its own statements of
    that shape fail the same check (a run or a few), and is shrunk otherwise. Causes are printed
    largest first, one shrunk scenario each, with their seeds.

    USAGE: pushsim explore [--flavour tutorial|hardened] [--seeds <a>..<b>] [--shard <i>/<n>] [--jobs <n>]
                           [--time-budget <seconds>] [--out <folder>] [--failures <file>] [--devices <n>]
                           [--no-faults] [--browsers] [--no-shrink]
           pushsim explore summary <failures-file>...

    OPTIONS:
      --flavour tutorial|hardened  the system under test: the tutorial's backend and client as written
                                   (each device sometimes on the hardened backend), or the hardened backend
                                   with the recommended client (default)
      --seeds <a>..<b>             the seeds to explore (default 1..1000)
      --shard <i>/<n>              only the seeds s with s mod n = i (0 <= i < n): for a CI matrix or a
                                   Kubernetes Indexed Job (--shard "$JOB_COMPLETION_INDEX/<n>")
      --jobs <n>                   worlds run at once, one per thread (default: the number of cores)
      --time-budget <seconds>      start no seed after this much wall time; the rest are reported skipped
      --out <folder>               where each cause's scenario is saved (default .build/explore)
      --failures <file>            append one JSON line per failing seed, with its cause (shards may share one
                                   file; `pushsim explore summary` groups them by cause)
      --devices <n>                most devices in a world (default 5)
      --no-faults                  the workload only, no injected faults
      --browsers                   worlds also hold browsers subscribed to a site's Web Push (off: seeds
                                   write the same worlds as before)
      --no-shrink                  report failures without shrinking them (grouped by check and the defects marked)

    Exit codes: 0 no seed failed; 1 a seed failed (each cause is printed with its replay commands); 2 usage error.
    """

    /// Ends the process on a usage error: `pushsim explore: <message>` and the short usage on
    /// standard error, exit status 2.
    static func fail(_ message: String) -> Never {
        UsageError.end("pushsim explore: \(message)", usage: "Usage: pushsim explore [--seeds <a>..<b>] … (see pushsim explore --help)")
    }

    /// What the command line asks for.
    enum Task {
        /// Explore seeds (`pushsim explore [flags]`).
        case sweep(Settings)
        /// Merge the failure files of shards (`pushsim explore summary FILE...`).
        case summary(paths: [String])
    }

    /// What to do.
    let task: Task

    /// ``usage`` when `-h` or `--help` is among `arguments`, unless they start with `summary`
    /// (whose words are all file names).
    static func help(in arguments: [String]) -> String? {
        arguments.first != "summary" && (arguments.contains("-h") || arguments.contains("--help")) ? usage : nil
    }

    /// Reads `summary FILE...`, or the flags of a sweep (see ``usage``).
    init(arguments: [String]) {
        if arguments.first == "summary" {
            let paths = Array(arguments.dropFirst())
            guard !paths.isEmpty else { Self.fail("summary needs at least one failures file") }
            task = .summary(paths: paths)
        } else {
            task = .sweep(Self.parse(arguments))
        }
    }

    /// Sweeps the seeds, or prints the summary of failure files.
    func run() -> Int32 {
        switch task {
        case .sweep(let settings): return Self.sweep(settings)
        case .summary(let paths): return Self.summary(paths)
        }
    }

    /// Explores every seed of the shard on `jobs` threads, groups the failing seeds by cause and
    /// reports each cause (``report(_:number:of:outcomes:settings:)``); returns 0 when no seed
    /// failed, else 1.
    private static func sweep(_ settings: Settings) -> Int32 {
        let flavour = settings.options.flavour.rawValue
        let seeds = Explorer.seeds(settings.seeds, shard: settings.shard.index, of: settings.shard.count)
        print("explore: flavour \(flavour), seeds \(settings.seeds.lowerBound)..\(settings.seeds.upperBound), shard \(settings.shard.index)/\(settings.shard.count) "
              + "(\(seeds.count) seeds, \(settings.jobs) at once); one seed again: \(program) explore --flavour \(flavour)\(settings.options.browsers ? " --browsers" : "") --seeds <s>..<s>")
        fflush(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = settings.timeBudget.map { start + UInt64($0 * 1e9) }
        let options = settings.options
        let sweep = ParallelSeeds.run(seeds, jobs: settings.jobs, deadline: deadline) { seed -> Explorer.Outcome? in
            let outcome = Explorer.explore(seed: seed, options: options)
            return outcome.verdict.passed ? nil : outcome
        }
        let swept = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let failing = sweep.results.compactMap(\.1)
        try? FileManager.default.createDirectory(atPath: settings.outDirectory, withIntermediateDirectories: true)
        let ran = sweep.results.count
        if !failing.isEmpty {
            print(String(format: "%d seeds run in %.2f s, %d failed; grouping them by cause (%@)", ran, swept, failing.count,
                         settings.shrink ? "each cause shrunk once, the other seeds tried against its shape" : "not shrunk: by check and the defects marked"))
            fflush(nil)
        }
        let jobs = settings.jobs
        let (causes, work) = ExploreGrouping.causes(of: failing, shrink: settings.shrink, batch: jobs) { seeds, body in
            let done = ParallelSeeds.run(seeds, jobs: jobs, body).results
            var bySeed: [UInt64: ExploreGrouping.Step] = [:]   // looked up only
            for (seed, step) in done { bySeed[seed] = step }
            return seeds.map { bySeed[$0]! }
        }
        var outcomes: [UInt64: Explorer.Outcome] = [:]   // seed → outcome (looked up only)
        for outcome in failing { outcomes[outcome.seed] = outcome }
        for (i, cause) in causes.enumerated() { report(cause, number: i + 1, of: causes.count, outcomes: outcomes, settings: settings) }
        let grouped = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 - swept
        let grouping = failing.isEmpty ? "" : String(format: " in %d cause(s) (grouped in %.2f s", causes.count, grouped) + (settings.shrink
            ? ": \(work.shrunk) shrunk in \(work.shrinkRuns) runs" + (work.unneeded > 0 ? " (\(work.unneeded) ahead of need)" : "")
                + ", \(work.joined) joined a cause in \(work.joinRuns) runs)" : ")")
        print(String(format: "%d seeds in %.2f s (%.0f seeds/min), %d failed%@%@", ran, swept, Double(ran) / max(swept, 1e-9) * 60,
                     failing.count, grouping, sweep.skipped > 0 ? ", \(sweep.skipped) skipped (time budget)" : ""))
        fflush(nil)
        return failing.isEmpty ? 0 : 1
    }

    /// How the printed commands (`replay:`, `regenerate:`, `one seed again:`) name this program:
    /// the binary that is running, as the run command's replay lines do (``ScenarioReport/replayProgram``).
    static var program: String { ScenarioReport.replayProgram }

    /// Seeds as `3, 8, 12, … 40 more`.
    static func seedList(_ seeds: [UInt64], first: Int = 8) -> String {
        seeds.prefix(first).map(String.init).joined(separator: ", ") + (seeds.count > first ? ", … \(seeds.count - first) more" : "")
    }

    /// Prints and saves one cause (its representative's scenario, shrunk when it was), and records
    /// each of its seeds.
    private static func report(_ cause: ExploreCause, number: Int, of count: Int, outcomes: [UInt64: Explorer.Outcome], settings: Settings) {
        let flavour = settings.options.flavour.rawValue
        let outcome = cause.representative
        let failure = outcome.verdict.failures[0]
        print("FAIL cause \(number) of \(count): \(cause.label), \(cause.seeds.count) seed(s): \(seedList(cause.seeds)) [cause \(cause.id)]")
        print("  seed \(outcome.seed): \(failure)".escapingControlCharacters)
        let saved: String
        let statements: Int
        if let shrunk = cause.shrunk {
            saved = "\(settings.outDirectory)/explore-\(flavour)-\(outcome.seed)-shrunk.scenario"
            try? shrunk.scenario.write(toFile: saved, atomically: true, encoding: .utf8)
            statements = shrunk.statements
            print("  shrunk to \(shrunk.statements) statements in \(shrunk.runs) runs:")
            for line in ScenarioShrinker.statements(shrunk.scenario) { print("    " + line.escapingControlCharacters) }
        } else {
            saved = "\(settings.outDirectory)/explore-\(flavour)-\(outcome.seed).scenario"
            try? outcome.scenario.write(toFile: saved, atomically: true, encoding: .utf8)
            statements = ScenarioShrinker.statementCount(outcome.scenario)
        }
        print("  replay: \(program) run \(saved)")
        print("  regenerate: \(program) explore --flavour \(flavour)\(settings.options.browsers ? " --browsers" : "") --seeds \(outcome.seed)..\(outcome.seed)")
        guard let path = settings.failuresPath else { return }
        var records = ""
        for seed in cause.seeds {
            let verdict = outcomes[seed]?.verdict ?? outcome.verdict
            records += JSONValue.object([
                ("seed", .number(JSONNumber(text: String(seed)))), ("flavour", .string(flavour)),
                ("check", .string(cause.check)), ("detail", .string(verdict.failures.first?.detail ?? "")),
                ("defects", .array(verdict.defects.map { .string($0) })),
                ("cause", .string(cause.id)), ("cause_seeds", .number(JSONNumber(Int64(cause.seeds.count)))),
                ("representative", .number(JSONNumber(text: String(outcome.seed)))),
                ("shape", .array((cause.shape?.lines ?? []).map { .string($0) })),
                ("statements", .number(JSONNumber(Int64(statements)))), ("scenario", .string(saved)),
            ]).serializedSortedKeys() + "\n"
        }
        append(records, to: path)
    }

    /// Appends `line` to the file at `path`, created if need be; a usage error if it cannot be written.
    private static func append(_ line: String, to path: String) {
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot write \(path)") }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
        try? handle.close()
    }

    /// `pushsim explore summary FILE...`: failures by cause (by check, for records written before
    /// causes), largest first, with their seeds and a scenario to replay, from shard files.
    /// Returns 0 when the files hold no failing seed, else 1.
    private static func summary(_ paths: [String]) -> Int32 {
        struct Group { var check: String; var seeds: Set<UInt64> = []; var scenario: (seed: UInt64, path: String)? }
        var groups: [String: Group] = [:]   // cause → its seeds (printed sorted)
        var total = 0
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
            for line in text.split(separator: "\n") {
                guard let json = try? JSONParser.parse(Array(line.utf8)), let check = json["check"]?.stringValue,
                      let seed = json["seed"].flatMap({ UInt64($0.description) }) else { continue }
                let cause = json["cause"]?.stringValue ?? "check " + check
                groups[cause, default: Group(check: check)].seeds.insert(seed)
                if let file = json["scenario"]?.stringValue, let representative = json["representative"].flatMap({ UInt64($0.description) }),
                   groups[cause]!.scenario.map({ representative < $0.seed }) ?? true {
                    groups[cause]!.scenario = (representative, file)
                }
                total += 1
            }
        }
        print("\(total) failing seed(s) in \(paths.count) file(s), \(groups.count) cause(s)")
        let order = groups.keys.sorted { a, b in
            let (x, y) = (groups[a]!, groups[b]!)
            return (x.seeds.count, y.seeds.min()!, b) > (y.seeds.count, x.seeds.min()!, a)
        }
        for key in order {
            let group = groups[key]!
            let seeds = group.seeds.sorted()
            print("  \(group.check): \(seeds.count) seed(s): \(seedList(seeds, first: 20))" + (key.hasPrefix("check ") ? "" : " [cause \(key)]"))
            if let scenario = group.scenario { print("    replay: \(program) run \(scenario.path)") }
        }
        return total == 0 ? 0 : 1
    }

    /// The settings a sweep's flags ask for (help already answered, see ``help(in:)``).
    private static func parse(_ raw: [String]) -> Settings {
        var settings = Settings()
        var arguments = ArgumentReader(raw, fail: fail)
        while let arg = arguments.next() {
            switch arg {
            case "--flavour", "--flavor":
                let v = arguments.value(arg)
                guard let f = BackendFlavour(rawValue: v) else { fail("--flavour takes tutorial or hardened, not '\(v)'") }
                settings.options.flavour = f
            case "--seeds": settings.seeds = arguments.seedRange(arg)
            case "--shard":
                let v = arguments.value(arg)
                let parts = v.split(separator: "/")
                guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(i) else {
                    fail("--shard takes <i>/<n> with 0 <= i < n, such as 3/8, not '\(v)'")
                }
                settings.shard = (i, n)
            case "--jobs": settings.jobs = arguments.number(arg, in: 1...1_024)
            case "--time-budget":
                let v = arguments.value(arg)
                guard let s = Double(v.hasSuffix("s") ? String(v.dropLast()) : v), s.isFinite, s > 0, s <= 31_536_000 else {
                    fail("--time-budget takes seconds up to a year (31536000), such as 60 or 60s, not '\(v)'")
                }
                settings.timeBudget = s
            case "--out": settings.outDirectory = arguments.value(arg)
            case "--failures": settings.failuresPath = arguments.value(arg)
            case "--devices": settings.options.maxDevices = arguments.number(arg, in: 1...50)
            case "--no-faults": settings.options.faults = false
            case "--browsers": settings.options.browsers = true
            case "--no-shrink": settings.shrink = false
            default: fail("unknown option '\(arg)'")
            }
        }
        return settings
    }
}
