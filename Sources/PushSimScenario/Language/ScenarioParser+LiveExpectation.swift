import PushSimKernel

extension ScenarioParser {
    /// Reads one expectation, as a scenario's `expect` statement says it, against a running world
    /// (`pushsim serve`'s `POST /_pushsim/expect`): `devices` are the world's device names, and
    /// `by +5s` is relative to `now`. The leading `expect` may be left out; a problem's column
    /// counts in `text` as given. One line only.
    public static func parseExpectation(_ text: String, devices: [String], now: VirtualTime) -> Result<Expectation, ScenarioParseFailure> {
        let path = "expect"
        guard !text.contains(where: { $0 == "\n" || $0 == "\r" }) else {
            return .failure(ScenarioParseFailure(diagnostics: [ScenarioDiagnostic(
                location: SourceLocation(file: path, line: 1, column: 1), message: "one expectation, on one line",
                hint: "send each expectation in a request of its own")]))
        }
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        let added = trimmed.hasPrefix("expect ") ? 0 : "expect ".count
        let line = String(repeating: " ", count: text.count - trimmed.count) + (added > 0 ? "expect " : "") + trimmed
        var session = Session(path: path)
        session.name = path
        session.scenarioLine = 1
        session.declaredNames = Set(devices)
        session.cursor = now
        for (scenarioLine, problem) in ScenarioLexer.lexLines(line, path: path) { session.read(scenarioLine, lexProblem: problem) }
        switch session.finish() {
        case .failure(let failure):
            return .failure(ScenarioParseFailure(diagnostics: failure.diagnostics.map { d in
                var moved = d
                moved.location.column = max(1, d.location.column - added)
                return moved
            }))
        case .success(let parsed):
            guard parsed.expectations.count == 1, parsed.actions.isEmpty, parsed.settings.isEmpty, parsed.devices.isEmpty,
                  let expectation = parsed.expectations.first else {
                return .failure(ScenarioParseFailure(diagnostics: [ScenarioDiagnostic(
                    location: SourceLocation(file: path, line: 1, column: 1), message: "not an expectation",
                    hint: ScenarioParser.expectUsage)]))
            }
            return .success(expectation)
        }
    }
}
