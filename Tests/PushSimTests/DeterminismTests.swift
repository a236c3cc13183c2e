import Foundation
import Testing
import PushSim

/// Same scenario + same seed → byte-identical trace, in one process and across two processes;
/// another seed → another trace when the scenario draws random latency.
@Suite struct DeterminismTests {
    static let scenario = Repo.scenarios + "/tutorial/random-latency.scenario"

    @Test func sameSeedGivesIdenticalTraceAcrossTwoProcesses() throws {
        let a = temporaryPath("a.jsonl"), b = temporaryPath("b.jsonl")
        let first = try runPushsim(["run", Self.scenario, "--trace", a])
        let second = try runPushsim(["run", Self.scenario, "--trace", b])
        #expect(first.status == 0, "\(first.out)\(first.err)")
        #expect(second.status == 0, "\(second.out)\(second.err)")
        let bytesA = try Data(contentsOf: URL(fileURLWithPath: a)), bytesB = try Data(contentsOf: URL(fileURLWithPath: b))
        #expect(bytesA.count > 10_000)
        #expect(bytesA == bytesB)
    }

    /// The trace file's header line names the run: scenario, seed and epoch (time zero's instant).
    @Test func theTraceHeaderNamesSeedAndEpoch() throws {
        let a = temporaryPath("header.jsonl")
        _ = try runPushsim(["run", Self.scenario, "--seed", "3", "--trace", a])
        let text = try String(contentsOf: URL(fileURLWithPath: a), encoding: .utf8)
        let header = try #require(text.split(separator: "\n").first)
        #expect(header.hasSuffix(#","seed":3,"epoch":"2026-01-01T00:00:00Z"}"#))
    }

    @Test func anotherSeedGivesAnotherTrace() throws {
        let a = temporaryPath("seed1.jsonl"), b = temporaryPath("seed2.jsonl")
        _ = try runPushsim(["run", Self.scenario, "--seed", "1", "--trace", a])
        _ = try runPushsim(["run", Self.scenario, "--seed", "2", "--trace", b])
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) != Data(contentsOf: URL(fileURLWithPath: b)))
    }

    @Test func sameSeedTwiceInOneProcessGivesTheSameTrace() throws {
        let first = try PushSim.run(path: Self.scenario).get()
        let second = try PushSim.run(path: Self.scenario).get()
        #expect(TraceFormat.jsonLines(first.trace) == TraceFormat.jsonLines(second.trace))
        #expect(!first.trace.isEmpty)
    }

    @Test func everyScenarioTraceIsIdenticalAcrossTwoProcesses() throws {
        let a = temporaryPath("all-a.jsonl"), b = temporaryPath("all-b.jsonl")
        _ = try runPushsim(["run", Repo.scenarios, "--trace", a])
        _ = try runPushsim(["run", Repo.scenarios, "--trace", b])
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
    }
}
