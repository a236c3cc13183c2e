import Testing
@testable import PushSimScenario

/// `expect <caller> <operation> status first|last|every|never <status>`: which answers a status
/// expectation asks about when the call was made several times.
@Suite struct StatusQuantifierTests {
    /// The operator's sends answer 201, 400 (an APNs body that is not JSON), then 201.
    private let story = """
        scenario "quantifiers"
        device bob-iphone ios user bob
        at 1s operator send apple "{}"
        at 2s operator send apple "not json"
        at 3s operator send apple "{}"

        """

    /// Whether each expectation in `lines` held, in order.
    private func verdicts(_ lines: [String]) throws -> [Bool] {
        let scenario = try ScenarioParser.parse(story + lines.joined(separator: "\n"), path: "q.scenario").get()
        return try ScenarioRunner.run(scenario).get().results.map(\.passed)
    }

    @Test func eachQuantifierHoldsAndFails() throws {
        let cases: [(String, Bool)] = [
            ("expect operator send status 400", true),             // some answer
            ("expect operator send status first 201", true),
            ("expect operator send status first 400", false),
            ("expect operator send status last 201", true),
            ("expect operator send status last 400", false),
            ("expect operator send status every 2xx or 400", true),
            ("expect operator send status every 201", false),
            ("expect operator send status never 5xx", true),
            ("expect operator send status never 400", false),
            ("expect operator send status first 400 by 2500ms", false),
            ("expect operator send status last 400 by 2500ms", true), // only the first two count by then
        ]
        #expect(try verdicts(cases.map(\.0)) == cases.map(\.1))
    }

    /// No call at all: `every` and `first`/`last` have no answer to hold for; `never` holds.
    @Test func withoutCallsOnlyNeverHolds() throws {
        #expect(try verdicts(["expect operator list status every 200", "expect operator list status first 200",
                              "expect operator list status last 200", "expect operator list status never 200"])
                == [false, false, false, true])
    }

    /// Answers in the order the calls were made; nil is a call that got no answer.
    @Test func quantifiersReadAnswersInTheOrderMade() {
        let ok = StatusPattern([.code(200)])
        #expect(StatusQuantifier.first.holds(ok, answers: [200, nil]))
        #expect(!StatusQuantifier.last.holds(ok, answers: [200, nil]))
        #expect(!StatusQuantifier.every.holds(ok, answers: [200, nil]))
        #expect(StatusQuantifier.never.holds(ok, answers: [nil, 410]))
        #expect(StatusQuantifier.any.holds(ok, answers: [410, 200]))
    }

    @Test func theQuantifierIsParsedIntoTheExpectation() throws {
        let s = try BobScenario.parse("expect bob-iphone register status every 200\nexpect operator send status never 410 or 5xx").get()
        #expect(s.expectations.map(\.kind) == [
            .status(device: "bob-iphone", operation: .register, code: StatusPattern([.code(200)]), quantifier: .every),
            .status(device: "operator", operation: .send, code: StatusPattern([.code(410), .statusClass(5)]), quantifier: .never),
        ])
    }

    @Test func misusedQuantifiersAreLocated() throws {
        let unknown = try #require(BobScenario.firstError("expect bob-iphone register status all 200"))
        #expect(unknown.location == SourceLocation(file: "t.scenario", line: 3, column: 35))
        #expect(unknown.message == "expected an HTTP status such as 410 or 4xx, found \"all\"")
        #expect(unknown.hint?.contains("first|last|every|never") == true)
        let twice = try #require(BobScenario.firstError("expect bob-iphone register status first last 200"))
        #expect(twice.location.column == 41)
        #expect(twice.message.contains("one quantifier"))
        let noStatus = try #require(BobScenario.firstError("expect bob-iphone register status every"))
        #expect(noStatus.location.line == 3)
        #expect(noStatus.message.contains("HTTP status"))
        let after = try #require(BobScenario.firstError("expect bob-iphone register status 200 every"))
        #expect(after.location.column == 39)
    }
}
