import Foundation
import Testing

/// The command line's contract: output, replay command, exit codes 0 / 1 / 2.
@Suite struct CLITests {
    @Test func passingScenarioExitsZeroAndPrintsTheSeedFirst() throws {
        let r = try runPushsim(["run", Repo.scenarios + "/tutorial/alice-notifies-bob.scenario"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("scenario Scenarios/") || r.out.hasPrefix("scenario /"))
        #expect(r.out.split(separator: "\n").first?.hasSuffix("seed 7") == true)
        #expect(r.out.contains("expectations: 2 passed, 0 failed"))
    }

    @Test func falseExpectationExitsOneWithTheReplayCommand() throws {
        let file = Repo.fixtures + "/false-expectation.scenario"
        let r = try runPushsim(["run", file])
        #expect(r.status == 1)
        #expect(r.out.contains("FAIL  7:1  expect bob-iphone shows \"something that never comes\""))
        #expect(r.out.contains("seen: bob-iphone showed nothing"))
        #expect(r.out.contains("replay: swift run pushsim run \(file) --seed 1"))
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
