import PushSimKernel

/// One problem found in a scenario file: where it is, what was expected and found, and how to fix it.
///
/// Diagnostics are plain values (design rule 10) with one renderer, ``description``:
///
///     alice.scenario:4:22: error: expected a duration such as 5s or 250ms, found "5x"
///       hint: units are us, ms, s, m, h, d
public struct ScenarioDiagnostic: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending token (or, for a missing word, the column just after the statement).
    public var location: SourceLocation
    /// What was expected and what was found, e.g. `expected a duration such as 5s or 250ms, found "5x"`.
    public var message: String
    /// How to fix it, e.g. `units are us, ms, s, m, h, d`; nil when the message says it all.
    public var hint: String?

    /// A diagnostic at `location`; `hint` is optional.
    public init(location: SourceLocation, message: String, hint: String? = nil) {
        self.location = location
        self.message = message
        self.hint = hint
    }

    /// `file:line:col: error: message` and, if there is a hint, a second line `  hint: ...`.
    /// Control characters from the file (in its path or echoed in the message) are escaped, so
    /// that printing a diagnostic cannot drive the reader's terminal.
    public var description: String {
        let first = "\(location): error: \(message)"
        guard let hint else { return first.escapingControlCharacters }
        return (first + "\n  hint: " + hint).escapingControlCharacters
    }
}

/// Every diagnostic found in one scenario file, in file order (by line, then column).
public struct ScenarioParseFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Never empty when produced by ``ScenarioParser/parse(_:path:)``.
    public var diagnostics: [ScenarioDiagnostic]

    /// Wraps `diagnostics`, which should already be in file order.
    public init(diagnostics: [ScenarioDiagnostic]) { self.diagnostics = diagnostics }

    /// Each diagnostic's ``ScenarioDiagnostic/description``, joined by newlines.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The first `limit` diagnostics, then `… and N more mistakes in <file>` if there are more:
    /// a file with 100,000 bad lines must not print 100,000 errors.
    public func rendered(limit: Int) -> String {
        guard diagnostics.count > limit else { return description }
        let shown = diagnostics.prefix(max(0, limit)).map(\.description)
        let rest = diagnostics.count - shown.count
        let file = diagnostics.first.map { $0.location.file.escapingControlCharacters } ?? "the file"
        return (shown + ["… and \(rest) more mistake\(rest == 1 ? "" : "s") in \(file)"]).joined(separator: "\n")
    }
}
