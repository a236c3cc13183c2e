import Foundation
import Testing
import PushSim

/// Every scenario in Scenarios/ parses, runs to the end without hitting a limit, and passes.
@Suite struct ScenarioLibraryTests {
    static let files = PushSim.scenarioFiles(in: [Repo.scenarios]).files

    @Test func theLibraryHasTheRequiredScenarios() {
        let names = Self.files.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names.contains("walkthrough.scenario"))
        #expect(names.contains("stale-registration.scenario"))
        #expect(Self.files.count >= 5)
    }

    @Test(arguments: files)
    func scenarioPasses(_ path: String) throws {
        let report = try PushSim.run(path: path).get()
        for r in report.results where !r.passed {
            Issue.record("\(path):\(r.expectation.location.line): \(r.expectation.source) — seen: \(r.seen)")
        }
        #expect(!report.end.isLimit)
        #expect(report.passed)
        #expect(!report.results.isEmpty, "a scenario without expectations asserts nothing")
    }

    @Test func everyScenarioStartsWithACommentSayingWhatItTeaches() throws {
        for path in Self.files {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.hasPrefix("#"), "\(path) should open with a comment")
        }
    }
}
