import Testing
import PushSim

/// `pushsim run` keeps a run's trace only when something reads it (`--trace`, `--html`,
/// `--timeline`, `--diagram`, `--check-determinism`). Every scenario in the library reports the
/// same without it: expectations, invariants, events, leftovers and defect marks are judged as
/// events are recorded, not read back from the trace.
@Suite struct TraceKeepingTests {
    @Test func everyScenarioReportsTheSameWithoutItsTrace() throws {
        let (files, _) = PushSim.scenarioFiles(in: [Repo.scenarios])
        #expect(files.count > 40)
        for file in files {
            let kept = try PushSim.run(path: file).get()
            let unkept = try PushSim.run(path: file, keepingTrace: false).get()
            #expect(!kept.trace.isEmpty && unkept.trace.isEmpty, "\(file)")
            #expect(unkept.text() == kept.text(), "\(file)")
            #expect(unkept.defects == kept.defects, "\(file)")
            #expect(unkept.passed == kept.passed && unkept.events == kept.events, "\(file)")
        }
    }
}
