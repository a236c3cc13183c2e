import Foundation
import Testing

/// The command line's contract: output, replay command, exit codes 0 / 1 / 2.
@Suite struct CLITests {
    @Test func passingScenarioExitsZeroAndPrintsTheSeedAndEpochFirst() throws {
        let r = try runPushsim(["run", Repo.scenarios + "/tutorial/alice-notifies-bob.scenario"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("scenario Scenarios/") || r.out.hasPrefix("scenario /"))
        #expect(r.out.split(separator: "\n").first?.hasSuffix("seed 7") == true)
        #expect(r.out.split(separator: "\n").dropFirst().first?.hasPrefix("  settings: epoch 2026-01-01T00:00:00Z; backend tutorial;") == true)
        #expect(r.out.contains("expectations: 2 passed, 0 failed"))
    }

    @Test func falseExpectationExitsOneWithTheReplayCommand() throws {
        let file = Repo.fixtures + "/false-expectation.scenario"
        let r = try runPushsim(["run", file])
        #expect(r.status == 1)
        #expect(r.out.contains("FAIL  7:1  expect bob-iphone shows \"something that never comes\""))
        #expect(r.out.contains("seen: bob-iphone showed nothing"))
        // The binary that ran, by its absolute path, and the scenario's path as given.
        #expect(r.out.contains("replay: \(URL(fileURLWithPath: Repo.pushsim).standardizedFileURL.path) run \(file) --seed 1"))
    }

    /// The replay line works from any folder: pasted in another one, it runs the same scenario
    /// with the same seed and fails the same way. (Before: `swift run pushsim …`, which works only
    /// from the project's root.)
    @Test func theReplayLineWorksFromAnotherFolder() throws {
        let file = Repo.fixtures + "/false-expectation.scenario"
        let first = try runPushsim(["run", file])
        let line = try #require(first.out.split(separator: "\n").first { $0.contains("replay: ") })
        let words = line.split(separator: " ").drop { $0 != "replay:" }.dropFirst().map(String.init)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(words.first))
        process.arguments = Array(words.dropFirst())
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(text.contains("FAIL  7:1  expect bob-iphone shows \"something that never comes\""))
    }

    @Test func seedOptionOverridesTheFilesSeedInTheReplayCommand() throws {
        let file = Repo.fixtures + "/false-expectation.scenario"
        let r = try runPushsim(["run", file, "--seed", "42"])
        #expect(r.status == 1)
        #expect(r.out.contains("seed 42"))
        #expect(r.out.contains("--seed 42"))
    }

    @Test func malformedScenarioExitsTwoWithEveryMistakeLocated() throws {
        let file = Repo.fixtures + "/three-mistakes.scenario"
        let r = try runPushsim(["run", file])
        #expect(r.status == 2)
        #expect(r.err.contains("\(file):5:4: error:"))
        #expect(r.err.contains("\(file):6:21: error:"))
        #expect(r.err.contains("\(file):7:8: error: device \"ghost\" is used but never declared"))
        #expect(r.err.contains("hint:"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try runPushsim(["frobnicate"]).status == 2)
        #expect(try runPushsim(["run"]).status == 2)
        #expect(try runPushsim(["run", "no-such-file.scenario"]).status == 2)
        #expect(try runPushsim(["run", Repo.scenarios, "--seed", "minus-one"]).status == 2)
        #expect(try runPushsim(["run", Repo.scenarios, "--bogus"]).status == 2)
    }

    @Test func helpDocumentsTheExitCodes() throws {
        let r = try runPushsim(["--help"])
        #expect(r.status == 0)
        #expect(r.out.contains("EXIT CODES"))
        #expect(r.out.contains("0  every expectation held"))
    }
}
