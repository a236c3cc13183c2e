import Foundation
import Testing

/// `pushsim explore` and `pushsim run --seeds` from the command line.
@Suite struct CLIExploreTests {
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
        #expect(r.out.contains("FAIL seed 8: convergence:"))
        let replay = try #require(r.out.split(separator: "\n").first { $0.contains("replay: swift run pushsim run ") })
        let file = String(replay.split(separator: " ").last!)
        #expect(file == out + "/explore-tutorial-8-shrunk.scenario")
        let again = try runPushsim(["run", file])
        #expect(again.status == 1)
        #expect(again.out.contains("FAIL"))
        let record = try String(contentsOfFile: failures, encoding: .utf8)
        #expect(record.contains("\"check\":\"convergence\"") && record.contains("\"seed\":8"))
        let summary = try runPushsim(["explore", "summary", failures, failures])
        #expect(summary.out.contains("2 failing seed(s) in 2 file(s)"))
        #expect(summary.out.contains("convergence: 1 seed(s): 8"))
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
