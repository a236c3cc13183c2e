import Testing
@testable import PushSimScenario
import PushSimHub

/// `hub send status`, `hub if-match absent`, `hub delete without if-match`, `hub apns payload`:
/// the hub's answers where Microsoft's sources disagree, chosen in a scenario.
@Suite struct HubRuleSettingTests {
    private func parse(_ body: String) -> Result<Scenario, ScenarioParseFailure> {
        ScenarioParser.parse("scenario \"t\"\n" + body, path: "t.scenario")
    }

    @Test func eachRuleParsesAndSaysItselfBack() throws {
        let lines = ["hub registration status 201", "hub send status 200", "hub if-match absent 412", "hub delete without if-match 412", "hub apns payload passed",
                     "hub send status 201", "hub if-match absent 404", "hub delete without if-match deletes", "hub apns payload refused"]
        let s = try parse(lines.joined(separator: "\n")).get()
        #expect(s.settings == [.hubRule(.registrationStatus(201)), .hubRule(.sendStatus(200)), .hubRule(.ifMatchAbsent(412)), .hubRule(.deleteWithoutIfMatch(refused: true)),
                               .hubRule(.invalidAPNsPayload(refused: false)), .hubRule(.sendStatus(201)), .hubRule(.ifMatchAbsent(404)),
                               .hubRule(.deleteWithoutIfMatch(refused: false)), .hubRule(.invalidAPNsPayload(refused: true))])
        #expect(s.settings.map { if case .hubRule(let r) = $0 { r.description } else { "" } } == lines)
    }

    @Test func theRulesReachTheHub() throws {
        let scenario = try parse("hub registration status 201\nhub send status 200\nhub if-match absent 412\nhub delete without if-match 412\nhub apns payload passed").get()
        let simulation = Simulation(seed: 1, options: ScenarioRunner.simulationOptions(for: scenario))
        #expect(simulation.hub.configuration.sendAcceptedStatus == .ok)
        #expect(simulation.hub.configuration.registrationWriteStatus == .created)
        #expect(simulation.hub.configuration.ifMatchWithoutRegistration == .preconditionFailed)
        #expect(simulation.hub.configuration.deleteWithoutIfMatch == .preconditionFailed)
        #expect(simulation.hub.configuration.invalidAPNsPayload == .passedToAPNs)
        let defaults = Simulation(seed: 1)
        #expect(defaults.hub.configuration.sendAcceptedStatus == .created && defaults.hub.configuration.invalidAPNsPayload == .refused)
    }

    /// `hub apns token renewal`: how long the hub keeps one APNs provider token.
    @Test func providerTokenRenewalReachesTheHub() throws {
        let scenario = try parse("hub apns token renewal 2h").get()
        #expect(scenario.settings == [.hubRule(.apnsTokenRenewal(.hours(2)))])
        #expect(HubRuleSetting.apnsTokenRenewal(.hours(2)).description == "hub apns token renewal 2h")
        let simulation = Simulation(seed: 1, options: ScenarioRunner.simulationOptions(for: scenario))
        #expect(simulation.hub.configuration.apnsProviderTokenRenewal == .hours(2))
        #expect(Simulation(seed: 1).hub.configuration.apnsProviderTokenRenewal == .minutes(50))
    }

    /// `hub answers current|classic`: which generation of the live service the registration
    /// answers imitate (issue 41 item 11); current by default.
    @Test func answerShapeReachesTheHub() throws {
        let scenario = try parse("hub answers classic").get()
        #expect(scenario.settings == [.hubRule(.answerShape(.classic))])
        #expect(HubRuleSetting.answerShape(.classic).description == "hub answers classic")
        #expect(HubRuleSetting.answerShape(.current).description == "hub answers current")
        #expect(try parse("hub answers current").get().settings == [.hubRule(.answerShape(.current))])
        let simulation = Simulation(seed: 1, options: ScenarioRunner.simulationOptions(for: scenario))
        #expect(simulation.hub.configuration.answerShape == .classic)
        #expect(Simulation(seed: 1).hub.configuration.answerShape == .current)
    }

    @Test func misusedRulesArePositioned() throws {
        let cases: [(String, Int, String)] = [
            ("hub send status 204", 17, "expected 200 or 201, found \"204\""),
            ("hub registration status 204", 25, "expected 200 or 201, found \"204\""),
            ("hub if-match stale 412", 14, "expected \"absent\", found \"stale\""),
            ("hub delete without if-match maybe", 29, "expected deletes or 412, found \"maybe\""),
            ("hub apns payload", 17, "expected refused or passed, found end of line"),
            ("hub apns token every 2h", 16, "expected \"renewal\", found \"every\""),
            ("hub apns token renewal 0s", 24, "a token renewal interval must be longer than zero"),
            ("hub apns token renewal soon", 24, "expected a duration such as 5s or 250ms, found \"soon\""),
            ("hub answers 2022", 13, "expected current or classic, found \"2022\""),
            ("hub answers", 12, "expected current or classic, found end of line"),
        ]
        for (line, column, message) in cases {
            guard case .failure(let f) = parse(line), let d = f.diagnostics.first else { Issue.record("\(line) parsed"); continue }
            #expect(d.location.line == 2 && d.location.column == column, "\(line): \(d.location)")
            #expect(d.message == message, "\(line)")
        }
    }
}
