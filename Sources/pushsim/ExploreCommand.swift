import Foundation
import PushSim

/// `pushsim explore`: generates a world and a workload from each seed, runs it, checks every
/// invariant and the convergence after the heal, and shrinks each failure to a scenario that
/// `pushsim run` replays. `pushsim explore summary FILE...` merges the failure files of shards.
enum ExploreCommand {
    struct Settings {
        var options = ExploreOptions()
        var seeds: ClosedRange<UInt64> = 1...1_000
        var shard = (index: 0, count: 1)
        var jobs = ParallelSeeds.cores
        var timeBudget: Double?
        var outDirectory = ".build/explore"
        var failuresPath: String?
        var shrink = true
    }

    static let usage = """
    OVERVIEW: Find push bugs by exploration: each seed generates users, devices on the three platforms,
    a fault phase (lost messages, partitions, the push services' outages, throttling, errors and slow
    answers, all labelled as injected) and a healed phase that must converge. Every run is checked
    (cross-user delivery, dead handles, accounting, logout privacy, convergence); each failure is
    shrunk to a scenario file that `pushsim run` replays.

    USAGE: pushsim explore [--flavour tutorial|hardened] [--seeds <a>..<b>] [--shard <i>/<n>] [--jobs <n>]
                           [--time-budget <seconds>] [--out <folder>] [--failures <file>] [--devices <n>]
                           [--no-faults] [--no-shrink]
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
      --out <folder>               where shrunk scenarios are saved (default .build/explore)
      --failures <file>            append one JSON line per failing seed (shards may share one file)
      --devices <n>                most devices in a world (default 5)
      --no-faults                  the workload only, no injected faults
      --no-shrink                  report failures without shrinking them

    Exit codes: 0 no seed failed; 1 a seed failed (each is printed with its replay commands); 2 usage error.
    """

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("pushsim explore: \(message)\n\nUsage: pushsim explore [--seeds <a>..<b>] … (see pushsim explore --help)\n".utf8))
        exit(2)
    }

    static func run(_ raw: [String]) -> Never {
        if raw.first == "summary" { summary(Array(raw.dropFirst())) }
        let settings = parse(raw)
        let flavour = settings.options.flavour.rawValue
        let seeds = Explorer.seeds(settings.seeds, shard: settings.shard.index, of: settings.shard.count)
        print("explore: flavour \(flavour), seeds \(settings.seeds.lowerBound)..\(settings.seeds.upperBound), shard \(settings.shard.index)/\(settings.shard.count) "
              + "(\(seeds.count) seeds, \(settings.jobs) at once); one seed again: swift run pushsim explore --flavour \(flavour) --seeds <s>..<s>")
        fflush(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = settings.timeBudget.map { start + UInt64($0 * 1e9) }
        let options = settings.options
        let sweep = ParallelSeeds.run(seeds, jobs: settings.jobs, deadline: deadline) { seed -> Explorer.Outcome? in
            let outcome = Explorer.explore(seed: seed, options: options)
            return outcome.verdict.passed ? nil : outcome
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let failing = sweep.results.compactMap(\.1)
        try? FileManager.default.createDirectory(atPath: settings.outDirectory, withIntermediateDirectories: true)
        for outcome in failing { report(outcome, settings: settings) }
        let ran = sweep.results.count
        print(String(format: "%d seeds in %.2f s (%.0f seeds/min), %d failed%@", ran, elapsed, Double(ran) / max(elapsed, 1e-9) * 60,
                     failing.count, sweep.skipped > 0 ? ", \(sweep.skipped) skipped (time budget)" : ""))
        fflush(nil)
        exit(failing.isEmpty ? 0 : 1)
    }

    /// Prints, saves, shrinks and records one failing seed.
    private static func report(_ outcome: Explorer.Outcome, settings: Settings) {
        let flavour = settings.options.flavour.rawValue
        let failure = outcome.verdict.failures[0]
        let found = "\(settings.outDirectory)/explore-\(flavour)-\(outcome.seed).scenario"
        try? outcome.scenario.write(toFile: found, atomically: true, encoding: .utf8)
        print("FAIL seed \(outcome.seed): \(failure)".escapingControlCharacters)
        var saved = found
        var statements = ScenarioShrinker.statementCount(outcome.scenario)
        if settings.shrink, let shrunk = Explorer.shrink(outcome, check: failure.check) {
            saved = "\(settings.outDirectory)/explore-\(flavour)-\(outcome.seed)-shrunk.scenario"
            try? shrunk.scenario.write(toFile: saved, atomically: true, encoding: .utf8)
            statements = shrunk.statements
            print("  shrunk to \(shrunk.statements) statements in \(shrunk.runs) runs:")
            for line in ScenarioShrinker.statements(shrunk.scenario) { print("    " + line.escapingControlCharacters) }
        }
        print("  replay: swift run pushsim run \(saved)")
        print("  regenerate: swift run pushsim explore --flavour \(flavour) --seeds \(outcome.seed)..\(outcome.seed)")
        if let path = settings.failuresPath {
            let record = JSONValue.object([
                ("seed", .number(JSONNumber(text: String(outcome.seed)))), ("flavour", .string(flavour)),
                ("check", .string(failure.check)), ("detail", .string(failure.detail)),
                ("defects", .array(outcome.verdict.defects.map { .string($0) })),
                ("statements", .number(JSONNumber(Int64(statements)))), ("scenario", .string(saved)),
            ]).serializedSortedKeys() + "\n"
            append(record, to: path)
        }
    }

    private static func append(_ line: String, to path: String) {
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot write \(path)") }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
        try? handle.close()
    }

    /// `pushsim explore summary FILE...`: failures by check, with their seeds, from shard files.
    private static func summary(_ paths: [String]) -> Never {
        guard !paths.isEmpty else { fail("summary needs at least one failures file") }
        var seedsByCheck: [String: [UInt64]] = [:]   // printed sorted by check
        var total = 0
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
            for line in text.split(separator: "\n") {
                guard let json = try? JSONParser.parse(Array(line.utf8)), let check = json["check"]?.stringValue,
                      let seed = json["seed"].flatMap({ UInt64($0.description) }) else { continue }
                seedsByCheck[check, default: []].append(seed)
                total += 1
            }
        }
        print("\(total) failing seed(s) in \(paths.count) file(s)")
        for check in seedsByCheck.keys.sorted() {
            let seeds = Array(Set(seedsByCheck[check]!)).sorted()
            print("  \(check): \(seeds.count) seed(s): \(seeds.prefix(20).map(String.init).joined(separator: ", "))\(seeds.count > 20 ? ", …" : "")")
        }
        exit(total == 0 ? 0 : 1)
    }

    private static func parse(_ raw: [String]) -> Settings {
        if raw.contains("-h") || raw.contains("--help") { print(usage); exit(0) }
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
                guard let s = Double(v.hasSuffix("s") ? String(v.dropLast()) : v), s > 0 else { fail("--time-budget takes seconds, such as 60 or 60s") }
                settings.timeBudget = s
            case "--out": settings.outDirectory = arguments.value(arg)
            case "--failures": settings.failuresPath = arguments.value(arg)
            case "--devices": settings.options.maxDevices = arguments.number(arg, in: 1...50)
            case "--no-faults": settings.options.faults = false
            case "--no-shrink": settings.shrink = false
            default: fail("unknown option '\(arg)'")
            }
        }
        return settings
    }
}
