import Testing
import PushSimKernel
@testable import PushSimScenario

/// The diagnostics of `text` (a whole scenario), none when it parses.
func scenarioDiagnostics(_ text: String) -> [ScenarioDiagnostic] {
    guard case .failure(let failure) = ScenarioParser.parse(text, path: "t.scenario") else { return [] }
    return failure.diagnostics
}

/// Exactly one diagnostic, at `row`:`column`, whose message contains `says`, with a hint.
func expectOneDiagnostic(_ found: [ScenarioDiagnostic], row: Int, column: Int, says: String,
                         sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(found.count == 1, "\(found.map(\.message))", sourceLocation: sourceLocation)
    #expect(found.first?.location.line == row && found.first?.location.column == column,
            "\(found.first.map { "\($0.location)" } ?? "none")", sourceLocation: sourceLocation)
    #expect(found.first?.message.contains(says) == true, "\(found.first?.message ?? "")", sourceLocation: sourceLocation)
    #expect(found.first?.hint?.isEmpty == false, sourceLocation: sourceLocation)
}
