import Foundation
import Testing

/// `pushsim explore` and `pushsim run --seeds` from the command line.
@Suite struct CLIExploreTests {
    /// The binary under test by its absolute path, as the printed commands name it.
    let program = URL(fileURLWithPath: Repo.pushsim).standardizedFileURL.path

    /// Numbers no sweep can take are usage errors (status 2), not traps: an infinite or huge time
    /// budget overflowed the deadline, a seed range wider than `Int.max` its count.
    @Test func outOfRangeBudgetsAndSeedRangesAreUsageErrors() throws {
        for budget in ["inf", "1e20", "nan", "0"] {
            let r = try runPushsim(["explore", "--flavour", "hardened", "--seeds", "1..1", "--time-budget", budget])
            #expect(r.status == 2 && r.err.contains("--time-budget takes seconds"), "\(budget): \(r.status) \(r.err)")
        }
        for command in [["explore", "--flavour", "hardened"], ["run", "Scenarios/tutorial"]] {
            let r = try runPushsim(command + ["--seeds", "0..18446744073709551615"])
            #expect(r.status == 2 && r.err.contains("at most 10000000 seeds"), "\(command): \(r.status) \(r.err)")
        }
    }

    @Test func theHardenedSystemPassesASmallSweep() throws {
        let r = try runPushsim(["explore", "--flavour", "hardened", "--seeds", "1..30", "--jobs", "2"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.hasPrefix("explore: flavour hardened, seeds 1..30, shard 0/1"))
        #expect(r.out.contains("30 seeds in"))
    }

    /// A failure is shrunk, saved, and replays with `pushsim run` (which fails the same way).
    @Test func aFailureIsShrunkSavedAndReplays() throws {
        let out = temporaryPath("explore-out"), failures = temporaryPath("failures.jsonl")
        let r = try runPushsim(["explore", "--flavour", "tutorial", "--seeds", "8..8", "--out", out, "--failures", failures])
        #expect(r.status == 1)
        #expect(r.out.contains("FAIL cause 1 of 1: convergence, 1 seed(s): 8 [cause "))
        #expect(r.out.contains("  seed 8: convergence:"))
        let replay = try #require(r.out.split(separator: "\n").first { $0.contains("replay: \(program) run ") })
        let file = String(replay.split(separator: " ").last!)
        #expect(file == out + "/explore-tutorial-8-shrunk.scenario")
        let again = try runPushsim(["run", file])
        #expect(again.status == 1)
        #expect(again.out.contains("FAIL"))
        let record = try String(contentsOfFile: failures, encoding: .utf8)
        #expect(record.contains("\"check\":\"convergence\"") && record.contains("\"seed\":8"))
        let summary = try runPushsim(["explore", "summary", failures, failures])
        #expect(summary.out.contains("2 failing seed(s) in 2 file(s), 1 cause(s)"))
        #expect(summary.out.contains("convergence: 1 seed(s): 8 [cause "))
    }

    /// Failing seeds are reported by cause, largest first: one shrunk scenario and one saved file
    /// per cause, its seeds listed, the JSON lines and the summary grouped the same way.
    @Test func failuresAreGroupedByCause() throws {
        let out = temporaryPath("explore-causes"), failures = temporaryPath("causes.jsonl")
        let r = try runPushsim(["explore", "--flavour", "tutorial", "--seeds", "1..40", "--jobs", "2", "--out", out, "--failures", failures])
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n").map(String.init)
        let headers = lines.filter { $0.hasPrefix("FAIL cause ") }
        let last = try #require(lines.last)
        let failed = try #require(last.firstMatch(of: /, (\d+) failed in (\d+) cause\(s\)/))
        let (seeds, causes) = (Int(failed.1)!, Int(failed.2)!)
        #expect(causes == headers.count && causes < seeds, "\(r.out)")
        #expect(!r.out.contains("FAIL seed"))
        let counts = headers.map { Int($0.firstMatch(of: /, (\d+) seed\(s\)/)!.1)! }
        #expect(counts.reduce(0, +) == seeds && counts == counts.sorted(by: >))
        #expect(lines.filter { $0.hasPrefix("  shrunk to ") }.count == causes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == causes)
        let records = try String(contentsOfFile: failures, encoding: .utf8).split(separator: "\n")
        #expect(records.count == seeds && records.allSatisfy { $0.contains("\"cause\":\"") && $0.contains("\"shape\":[") })
        let summary = try runPushsim(["explore", "summary", failures])
        #expect(summary.out.hasPrefix("\(seeds) failing seed(s) in 1 file(s), \(causes) cause(s)"))
        #expect(summary.out.components(separatedBy: "    replay: \(program) run ").count - 1 == causes)
    }

    /// The commands explore prints name the binary that ran, as `pushsim run`'s replay lines do,
    /// and the replay line works pasted in another folder. (Before: `swift run pushsim …`, which
    /// works only from the project's root.)
    @Test func theExploreCommandsNameTheBinaryThatRan() throws {
        let out = temporaryPath("explore-program")
        let r = try runPushsim(["explore", "--flavour", "tutorial", "--seeds", "8..8", "--no-shrink", "--jobs", "1", "--out", out])
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("explore: flavour tutorial, seeds 8..8, shard 0/1 (1 seeds, 1 at once); "
                                + "one seed again: \(program) explore --flavour tutorial --seeds <s>..<s>\n"), "\(r.out)")
        #expect(r.out.contains("\n  replay: \(program) run \(out)/explore-tutorial-8.scenario\n"), "\(r.out)")
        #expect(r.out.contains("\n  regenerate: \(program) explore --flavour tutorial --seeds 8..8\n"), "\(r.out)")
        #expect(!r.out.contains("swift run"))
        let line = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("  replay: ") })
        let words = line.split(separator: " ").dropFirst().map(String.init)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(words.first))
        process.arguments = Array(words.dropFirst())
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
    }

    @Test func runSweepsAHandWrittenScenarioOverSeeds() throws {
        let r = try runPushsim(["run", Repo.scenarios + "/tutorial/random-latency.scenario", "--seeds", "1..40"])
        #expect(r.status == 0, "\(r.out)")
        #expect(r.out.contains("40 seeds in") && r.out.contains("0 failed"))
    }

    @Test func badSweepArgumentsAreUsageErrors() throws {
        #expect(try runPushsim(["explore", "--shard", "3/3"]).status == 2)
        #expect(try runPushsim(["explore", "--seeds", "9..1"]).status == 2)
        #expect(try runPushsim(["explore", "--flavour", "fancy"]).status == 2)
        #expect(try runPushsim(["run", Repo.scenarios, "--seeds", "x"]).status == 2)
    }
}
