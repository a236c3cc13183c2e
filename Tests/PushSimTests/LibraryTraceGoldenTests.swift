import Foundation
import Testing
import PushSim

/// The scenario library's traces, pinned: a digest of each scenario's JSON Lines trace is kept in
/// `Fixtures/library-traces.txt`. A refactoring must leave every one unchanged (the traces are
/// byte-identical before and after); a change of behaviour shows up here, scenario by scenario,
/// and is accepted by regenerating the file on purpose:
///
///     PUSHSIM_UPDATE_GOLDEN=1 swift test --filter LibraryTraceGoldenTests
@Suite struct LibraryTraceGoldenTests {
    private static let golden = Repo.fixtures + "/library-traces.txt"

    /// `<path relative to Scenarios/> <FNV-1a 64 of the trace, hex> <events>` per scenario, sorted.
    private func digests() throws -> String {
        let (files, _) = PushSim.scenarioFiles(in: [Repo.scenarios])
        return try files.map { file in
            let report = try PushSim.run(path: file).get()
            let trace = TraceFormat.jsonLines(report.trace)
            let name = String(file.dropFirst(Repo.scenarios.count + 1))
            return "\(name) \(String(fnv1a64(trace.utf8), radix: 16)) \(report.trace.count)"
        }.joined(separator: "\n") + "\n"
    }

    @Test func everyScenarioTraceIsUnchanged() throws {
        let now = try digests()
        if ProcessInfo.processInfo.environment["PUSHSIM_UPDATE_GOLDEN"] == "1" {
            try now.write(toFile: Self.golden, atomically: true, encoding: .utf8)
        }
        let pinned = try String(contentsOfFile: Self.golden, encoding: .utf8)
        let changed = zip(pinned.split(separator: "\n"), now.split(separator: "\n")).filter { $0 != $1 }.map { "\($0.0) -> \($0.1)" }
        #expect(pinned == now, "traces changed:\n\(changed.joined(separator: "\n"))")
    }
}
