import Testing
@testable import PushSimScenario

/// `operator put|patch|delete installation of <device>`, `operator list registrations`,
/// `expect hub has <n> installations` and `expect operator listed <n> registrations`.
@Suite struct InstallationLanguageTests {
    private func parse(_ body: String) -> Result<Scenario, ScenarioParseFailure> {
        ScenarioParser.parse("scenario \"t\"\ndevice bob ios user bob\n" + body, path: "t.scenario")
    }

    @Test func eachStatementParses() throws {
        let s = try parse("""
            at 1s operator put installation of bob with tags news,team:red user bob
            at 1s operator put installation of bob
            at 2s operator patch installation of bob add tag sports
            at 2s operator patch installation of bob remove tag news
            at 2s operator patch installation of bob replace channel
            at 3s operator delete installation of bob
            at 3s operator list registrations for "username:bob"
            at 3s operator list registrations
            expect hub has 2 installations for "news" by 2s
            expect hub has 1 installation
            expect operator listed 0 registrations
            expect operator installation status 204
            expect operator list status 200
            """).get()
        #expect(s.actions.map(\.kind) == [
            .operator(.installation(device: "bob", change: .put(tags: ["news", "team:red"], userID: "bob"))),
            .operator(.installation(device: "bob", change: .put(tags: [], userID: nil))),
            .operator(.installation(device: "bob", change: .addTag("sports"))),
            .operator(.installation(device: "bob", change: .removeTag("news"))),
            .operator(.installation(device: "bob", change: .replaceChannel)),
            .operator(.installation(device: "bob", change: .delete)),
            .operator(.listRegistrations(tag: "username:bob")),
            .operator(.listRegistrations(tag: nil)),
        ])
        #expect(s.expectations.map(\.kind) == [
            .hubInstallations(tag: "news", count: 2), .hubInstallations(tag: nil, count: 1), .listedRegistrations(count: 0),
            .status(device: "operator", operation: .installation, code: 204),
            .status(device: "operator", operation: .list, code: 200),
        ])
        #expect(s.actions[0].kind.label == "put installation of bob with tags news,team:red user bob")
    }

    @Test func misusesArePositioned() {
        let cases: [(String, Int, String)] = [
            ("at 1s operator put installation of carol", 36, "device \"carol\" is used but never declared"),
            ("at 1s operator put installation for bob", 33, "expected \"of\", found \"for\""),
            ("at 1s operator patch installation of bob rename tag x", 42, "expected add tag, remove tag, add template, remove template or replace channel, found \"rename\""),
            ("at 1s operator patch installation of bob add", 45, "expected \"tag\", found end of line"),
            ("at 1s operator list installations", 21, "expected \"registrations\", found \"installations\""),
            ("at 1s operator list registrations for news", 39, "expected a tag in double quotes"),
            ("expect hub has 1 installs", 18, "expected \"registrations\" or \"installations\", found \"installs\""),
            ("expect operator listed 1 entries", 26, "expected \"registrations\", found \"entries\""),
            ("expect bob installation status 200", 12, "only the operator makes installation calls"),
        ]
        for (line, column, message) in cases {
            guard case .failure(let f) = parse(line), let d = f.diagnostics.first else { Issue.record("\(line) parsed"); continue }
            #expect(d.location.line == 3 && d.location.column == column, "\(line): \(d.location)")
            #expect(d.message.hasPrefix(message), "\(line): \(d.message)")
        }
    }

    /// Bug: `by <time>` was parsed after `expect operator listed …` and `… test-send results …`
    /// but not applied, so an answer that came later still passed.
    @Test func listedAndTestSendResultsHonourBy() throws {
        let scenario = try ScenarioParser.parse("""
            scenario "t"
            device bob ios user bob
            at 0s bob install
            at 1s bob login bob password bob
            at 5s operator list registrations for "username:bob"
            at 5s operator test-send apple "{\\"aps\\":{\\"alert\\":\\"t\\"}}" to "username:bob"
            expect operator listed 1 registration by 4s
            expect operator listed 1 registration by 10s
            expect operator listed 1 registration
            expect operator test-send results 1 by 4s
            expect operator test-send results 1 by 10s
            """, path: "t.scenario").get()
        let report = try ScenarioRunner.run(scenario).get()
        #expect(report.results.map(\.passed) == [false, true, true, false, true])
        #expect(report.results[0].seen == "no registration listing answered by 0+00:00:04.000")
    }

    /// Bug: the operator's listing read only the first page (`$top`, 100), so a hub with more
    /// registrations was listed short. It now follows the hub's continuation tokens.
    @Test func theOperatorListsEveryPage() throws {
        let scenario = try ScenarioParser.parse("""
            scenario "t"
            devices fans 120 android user fan-{n}
            at 0s fans install
            at 10s fans login
            at 1m operator list registrations
            at 1m operator list registrations for "username:fan-7"
            expect hub has 120 registrations
            expect operator listed 120 registrations
            expect operator listed 1 registration
            """, path: "t.scenario").get()
        let report = try ScenarioRunner.run(scenario).get()
        #expect(report.results.map(\.passed) == [true, true, true])
    }
}
