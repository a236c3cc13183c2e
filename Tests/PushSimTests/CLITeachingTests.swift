import Foundation
import Testing

/// The command line's teaching options: `--html`, `--only-failures`, `--filter`, `--wide`, the
/// 120-column default and each command's own `--help`.
@Suite struct CLITeachingTests {
    @Test func htmlWritesOnePageThatIsTheSameOnEveryRun() throws {
        let file = Repo.scenarios + "/defects/a-retry-reuses-dead-id.scenario"
        let (one, two) = (temporaryPath("a-1.html"), temporaryPath("a-2.html"))
        #expect(try runPushsim(["run", file, "--html", one]).status == 0)
        #expect(try runPushsim(["explain", file, "--html", two]).status == 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: one)), second = try Data(contentsOf: URL(fileURLWithPath: two))
        #expect(first == second)
        let page = String(decoding: first, as: UTF8.self)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("hardened twin"))
    }

    @Test func htmlForSeveralScenariosFillsAFolder() throws {
        let folder = temporaryPath("pages-tutorial")
        try? FileManager.default.removeItem(atPath: folder)
        let r = try runPushsim(["run", Repo.scenarios + "/tutorial", "--html", folder, "--only-failures"])
        #expect(r.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["tutorial-alice-notifies-bob.html", "tutorial-random-latency.html", "tutorial-stale-registration.html", "tutorial-walkthrough.html"])
    }

    @Test func onlyFailuresPrintsFailingScenariosAndTheSummary() throws {
        let r = try runPushsim(["run", Repo.scenarios + "/tutorial", Repo.fixtures + "/false-expectation.scenario", "--only-failures"])
        #expect(r.status == 1)
        #expect(!r.out.contains("alice-notifies-bob"))
        #expect(r.out.contains("FAIL  7:1"))
        #expect(r.out.contains("5 scenario(s): 1 failed"))
        #expect(try runPushsim(["run", Repo.scenarios + "/tutorial", "--quiet"]).out.hasPrefix("4 scenario(s): 0 failed"))
    }

    @Test func filterKeepsScenariosByPathOrName() throws {
        let byPath = try runPushsim(["run", Repo.scenarios, "--filter", "DEFECTS/G-"])
        #expect(byPath.status == 0)
        #expect(byPath.out.contains("1 scenario(s): 0 failed"))
        let byName = try runPushsim(["check", Repo.scenarios, "--filter", "alice notifies bob"])
        #expect(byName.out.contains("1 file(s) checked"))
        let none = try runPushsim(["run", Repo.scenarios, "--filter", "no-such-thing"])
        #expect(none.status == 2)
        #expect(none.err.contains("no-such-thing"))
    }

    @Test func linesFit120ColumnsUnlessWide() throws {
        let file = Repo.scenarios + "/tutorial/walkthrough.scenario"
        let narrow = try runPushsim(["run", file, "--timeline"])
        let lines = narrow.out.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 120 })
        #expect(lines.contains { $0.count == 120 && $0.hasSuffix("…") })
        let wide = try runPushsim(["run", file, "--timeline", "--wide"])
        #expect(wide.out.split(separator: "\n").contains { $0.count > 120 })
        let explain = try runPushsim(["explain", file])
        #expect(explain.out.split(separator: "\n").allSatisfy { $0.count <= 120 })
    }

    @Test func eachCommandHasItsOwnHelp() throws {
        let run = try runPushsim(["run", "--help"])
        #expect(run.status == 0 && run.out.hasPrefix("OVERVIEW: run scenarios") && run.out.contains("--only-failures"))
        let check = try runPushsim(["check", "--help"])
        #expect(check.status == 0 && check.out.hasPrefix("OVERVIEW: read and check") && !check.out.contains("--timeline"))
        let explain = try runPushsim(["help", "explain"])
        #expect(explain.status == 0 && explain.out.contains("causal chain") && explain.out.contains("--html"))
        #expect(try runPushsim(["--help"]).out.contains("EXIT CODES"))
    }

    /// Every command answers `pushsim help <command>` and `<command> --help` with its own help, and
    /// the overview and the unknown-command message name every command (serve, explore and replay
    /// used to fall back to the overview, and replay to a usage error).
    @Test func everyCommandIsAHelpTopicAndListed() throws {
        for (command, words) in [("serve", "--port"), ("explore", "--flavour"), ("replay", "record-file")] {
            let help = try runPushsim(["help", command])
            #expect(help.status == 0 && help.out.contains(words) && !help.out.contains("COMMANDS:"), "help \(command)")
        }
        let replay = try runPushsim(["replay", "--help"])
        #expect(replay.status == 0 && replay.out.contains("Usage: pushsim replay"))
        #expect(try runPushsim(["--help"]).out.contains("  replay "))
        let unknown = try runPushsim(["frobnicate"])
        #expect(unknown.status == 2 && unknown.err.contains("run, check, explain, explore, serve, replay"))
    }
}
