import Testing
@testable import PushSimScenario

/// Checks that `found` is exactly one diagnostic, at `row`:`column`, whose message contains
/// `says` and which has a hint: what every "misuse is an error where it is written" test asks.
func expectOnePositionedDiagnostic(_ found: [ScenarioDiagnostic], row: Int, column: Int, says: String,
                                   sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(found.count == 1, "\(found.map(\.message))", sourceLocation: sourceLocation)
    #expect(found.first?.location.line == row && found.first?.location.column == column,
            "\(found.first.map { "\($0.location)" } ?? "none")", sourceLocation: sourceLocation)
    #expect(found.first?.message.contains(says) == true, "\(found.first?.message ?? "")", sourceLocation: sourceLocation)
    #expect(found.first?.hint?.isEmpty == false, sourceLocation: sourceLocation)
}
