@testable import PushSimScenario

/// Scenario text for parser tests: a two-line header (`scenario "t"` and Bob's iPhone) and then
/// `body`, so the body starts on line 3.
enum BobScenario {
    static func parse(_ body: String) -> Result<Scenario, ScenarioParseFailure> {
        ScenarioParser.parse("scenario \"t\"\ndevice bob-iphone ios user bob\n" + body, path: "t.scenario")
    }

    /// The first diagnostic for `body`, or nil when it parses.
    static func firstError(_ body: String) -> ScenarioDiagnostic? {
        if case .failure(let f) = parse(body) { return f.diagnostics.first }
        return nil
    }
}
