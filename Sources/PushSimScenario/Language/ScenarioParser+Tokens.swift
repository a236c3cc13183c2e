import PushSimKernel
import PushSimBackend
import PushSimDevices

extension ScenarioParser {
    /// Reads one statement's tokens from left to right.
    ///
    /// Every reading method either returns what it read or throws a diagnostic that says what was
    /// expected and what was found, located at the offending token, or just after the statement
    /// when a word is missing. What was expected and the hint are taken as autoclosures: they are
    /// written out only for a diagnostic, not on every statement read.
    struct Tokens {
        let line: ScenarioLine
        let path: String
        private(set) var index = 0

        init(line: ScenarioLine, path: String) {
            self.line = line
            self.path = path
        }

        /// The next token, not consumed; nil at the end of the statement.
        var peek: ScenarioToken? { index < line.tokens.count ? line.tokens[index] : nil }

        /// The token after the next one, not consumed.
        var peekSecond: ScenarioToken? { index + 1 < line.tokens.count ? line.tokens[index + 1] : nil }

        /// Consumes and returns the next token.
        mutating func next() -> ScenarioToken? {
            guard let token = peek else { return nil }
            index += 1
            return token
        }

        /// Consumes the next token if it is the bare word `word`.
        mutating func skip(_ word: String) -> Bool {
            guard peek?.isWord(word) == true else { return false }
            index += 1
            return true
        }

        func location(_ token: ScenarioToken) -> SourceLocation { location(column: token.column) }

        func location(column: Int) -> SourceLocation {
            SourceLocation(file: path, line: line.number, column: column)
        }

        /// Where the next token is, or just after the statement if there is none.
        var here: SourceLocation { location(column: peek?.column ?? line.endColumn) }

        /// The next token as messages show it, or `end of line`.
        var found: String { peek?.quoted ?? "end of line" }

        /// `expected <what>, found <next token>`, located at the next token.
        func expected(_ what: String, hint: String? = nil) -> ScenarioDiagnostic {
            ScenarioDiagnostic(location: here, message: "expected \(what), found \(found)", hint: hint)
        }

        /// Consumes a bare word (a name or a keyword-like value).
        mutating func word(_ what: @autoclosure () -> String, hint: @autoclosure () -> String? = nil) throws(ScenarioDiagnostic) -> ScenarioToken {
            guard let token = peek, token.isWord else { throw expected(what(), hint: hint()) }
            index += 1
            return token
        }

        /// Consumes a double-quoted string.
        mutating func string(_ what: @autoclosure () -> String, hint: @autoclosure () -> String? = nil) throws(ScenarioDiagnostic) -> ScenarioToken {
            guard let token = peek, token.kind == .string else { throw expected(what(), hint: hint()) }
            index += 1
            return token
        }

        /// Consumes a word or a string (for values that may contain spaces, such as passwords).
        mutating func text(_ what: @autoclosure () -> String, hint: @autoclosure () -> String? = nil) throws(ScenarioDiagnostic) -> ScenarioToken {
            guard let token = next() else { throw expected(what(), hint: hint()) }
            return token
        }

        /// Consumes a list of tags: one word or string, split at its commas, each piece kept as
        /// written (an empty one too: the hub or backend that refuses it answers for it). The same
        /// reading for every statement that takes tags (`register with tags`, `operator put
        /// installation … with tags`).
        mutating func tagList(hint: @autoclosure () -> String? = nil) throws(ScenarioDiagnostic) -> [String] {
            try text("a tag after tags", hint: hint()).text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }

        /// Consumes the bare word `keyword`.
        mutating func keyword(_ keyword: String, hint: @autoclosure () -> String? = nil) throws(ScenarioDiagnostic) {
            guard skip(keyword) else { throw expected("\"\(keyword)\"", hint: hint()) }
        }

        /// Consumes the next token when it is one of the words `options` and returns it; nil when
        /// the next token is none of them. Each option may come once per statement: `seen` keeps
        /// those read, and a second one is refused (`user is given twice in one <statement>`).
        mutating func option(among options: [String], seen: inout [String], in statement: String) throws(ScenarioDiagnostic) -> ScenarioToken? {
            guard let option = peek, options.contains(where: { option.isWord($0) }) else { return nil }
            index += 1
            guard !seen.contains(option.text) else {
                throw ScenarioDiagnostic(location: location(option), message: "\(option.text) is given twice in one \(statement)", hint: "keep one of them")
            }
            seen.append(option.text)
            return option
        }

        /// Throws if any token is left: `unexpected "foo" after the end of the statement`.
        func finish(hint: @autoclosure () -> String? = nil) throws(ScenarioDiagnostic) {
            guard let extra = peek else { return }
            throw ScenarioDiagnostic(
                location: location(extra),
                message: "unexpected \(extra.quoted) after the end of the statement",
                hint: hint() ?? "one statement per line; a comment starts with #")
        }
    }
}
