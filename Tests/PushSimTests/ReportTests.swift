import Foundation
import Testing
import PushSim

/// JUnit, JSON and determinism reports, and `pushsim check`.
@Suite struct ReportTests {
    @Test func junitHasOneCasePerExpectationAndParses() throws {
        let path = temporaryPath("out.xml")
        let r = try runPushsim(["run", Repo.scenarios, "--junit", path])
        #expect(r.status == 0)
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        let doc = try XMLDocumentParser.parse(xml)
        #expect(doc.root.name == "testsuites")
        let cases = doc.root.elements.flatMap { $0.elements.filter { $0.name == "testcase" } }
        let expected = PushSim.scenarioFiles(in: [Repo.scenarios]).files
            .map { try! PushSim.loadScenario(path: $0).get().expectations.count }.reduce(0, +)
        #expect(cases.count == expected)
        #expect(doc.root.attribute("failures") == "0")
    }

    @Test func junitCarriesFailureAndReplay() throws {
        let report = try PushSim.run(path: Repo.fixtures + "/false-expectation.scenario").get()
        let doc = try XMLDocumentParser.parse(Reports.junit([report]))
        let failure = doc.root.elements.first?.elements.first { $0.name == "testcase" }?.first("failure")
        #expect(failure?.attribute("message") == "seen: bob-iphone showed nothing")
        #expect(failure?.text.contains("replay: swift run pushsim run") == true)
        #expect(doc.root.attribute("failures") == "1")
    }

    @Test func jsonSummaryIsValidAndCounts() throws {
        let r = try runPushsim(["run", Repo.fixtures + "/false-expectation.scenario", "--format", "json"])
        #expect(r.status == 1)
        let json = try JSONParser.parse(r.out.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(json["expectations_failed"]?.int64Value == 1)
        #expect(json["scenarios"]?.arrayValue?.first?["seed"]?.int64Value == 1)
        #expect(json["scenarios"]?.arrayValue?.first?["passed"]?.boolValue == false)
    }

    @Test func checkDeterminismReportsNoDifferenceForTheLibrary() throws {
        let r = try runPushsim(["run", Repo.scenarios, "--check-determinism"])
        #expect(r.status == 0)
        #expect(!r.out.contains("NOT DETERMINISTIC"))
        #expect(r.out.contains("deterministic: two runs gave the same"))
    }

    @Test func firstDifferenceNamesTheLine() {
        let a = [TraceEvent(sequence: 0, time: .zero, layer: "x", host: "h", kind: TraceKind("k"), correlation: "", fields: [])]
        var b = a
        b[0].kind = TraceKind("other")
        #expect(Reports.firstDifference(a, a) == nil)
        #expect(Reports.firstDifference(a, b)?.line == 1)
        #expect(Reports.firstDifference(a, a + a)?.line == 2)
    }

    @Test func checkReportsEveryMistakeAndExitsTwo() throws {
        let r = try runPushsim(["check", Repo.fixtures])
        #expect(r.status == 2)
        #expect(r.err.components(separatedBy: ": error: ").count - 1 == 3)
        #expect(r.out.contains("ok    "))
        #expect(try runPushsim(["check", Repo.scenarios]).status == 0)
    }
}
