/// One token of a scenario line: a bare word or a double-quoted string.
///
/// Keywords are ordinary words; the parser gives them meaning by position.
struct ScenarioToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A run of characters other than whitespace, `"` and `#` (`bob-iphone`, `5ms..80ms`, `1/100`).
        case word
        /// A double-quoted string; ``ScenarioToken/text`` holds its value with escapes resolved.
        case string
    }

    var kind: Kind
    /// The word as written, or the string's value.
    var text: String
    /// 1-based column of the token's first character (for a string, its opening quote).
    var column: Int
    /// Column just after the token's last character.
    var endColumn: Int

    var isWord: Bool { kind == .word }
    /// True if this is the bare word `word` (a string never counts as a keyword).
    func isWord(_ word: String) -> Bool { kind == .word && text == word }

    /// The token as messages show it: `"foo"` for a word, `the string "Hi Bob"` for a string.
    var quoted: String {
        switch kind {
        case .word: return "\"\(text)\""
        case .string: return "the string \(ScenarioLexer.quote(text))"
        }
    }
}

/// The tokens of one line of a scenario file.
struct ScenarioLine: Sendable {
    /// 1-based line number.
    var number: Int
    var tokens: [ScenarioToken]
    /// The statement as written: without the comment, leading and trailing whitespace trimmed.
    var source: String
    /// Column just after the statement's last character, where a missing word is reported.
    var endColumn: Int
}

/// Splits scenario text into lines and each line into tokens.
///
/// Rules: `#` starts a comment that runs to the end of the line (not inside a string). A string is
/// double-quoted with the escapes `\"`, `\\`, `\n`, `\t`, and ends on the line it starts. Any other
/// run of characters that are not whitespace, `"` or `#` is one word. Columns count characters.
enum ScenarioLexer {
    /// The lines of `text`, split at `\n`, `\r\n` and `\r`. A final newline does not add a line.
    static func lines(_ text: String) -> [Substring] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Tokenizes one line. On a malformed string, returns the tokens before it and the diagnostic.
    static func lex(_ text: Substring, line: Int, path: String) -> (ScenarioLine, ScenarioDiagnostic?) {
        var tokens: [ScenarioToken] = []
        var problem: ScenarioDiagnostic?
        let chars = Array(text)
        var i = 0
        var codeEnd = 0 // index just after the last character of the statement
        scan: while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c == "#" { break scan }
            if c == "\"" {
                switch readString(chars, from: i) {
                case .success(let (value, end)):
                    tokens.append(ScenarioToken(kind: .string, text: value, column: i + 1, endColumn: end + 1))
                    i = end
                    codeEnd = end
                case .failure(let failure):
                    let location = SourceLocation(file: path, line: line, column: failure.index + 1)
                    problem = ScenarioDiagnostic(location: location, message: failure.message, hint: failure.hint)
                    codeEnd = chars.count
                    break scan
                }
                continue
            }
            let start = i
            while i < chars.count, !chars[i].isWhitespace, chars[i] != "\"", chars[i] != "#" { i += 1 }
            tokens.append(ScenarioToken(kind: .word, text: String(chars[start..<i]), column: start + 1, endColumn: i + 1))
            codeEnd = i
        }
        let source = trimmed(chars[0..<codeEnd])
        let scanned = ScenarioLine(number: line, tokens: tokens, source: source, endColumn: codeEnd + 1)
        return (scanned, problem)
    }

    /// Why a string could not be read: the index of the offending character, message and hint.
    private struct StringFailure: Error {
        var index: Int
        var message: String
        var hint: String
    }

    /// Reads the string whose opening quote is at `chars[open]`; returns its value and the index
    /// just after the closing quote.
    private static func readString(_ chars: [Character], from open: Int) -> Result<(String, Int), StringFailure> {
        var value = ""
        var i = open + 1
        while i < chars.count {
            let c = chars[i]
            if c == "\"" { return .success((value, i + 1)) }
            if c == "\\" {
                guard i + 1 < chars.count else { break }
                switch chars[i + 1] {
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                case "n": value.append("\n")
                case "t": value.append("\t")
                default:
                    return .failure(StringFailure(
                        index: i, message: "unknown escape \"\\\(chars[i + 1])\" in a string",
                        hint: "the escapes are \\\" \\\\ \\n \\t; write \\\\ for a backslash"))
                }
                i += 2
                continue
            }
            value.append(c)
            i += 1
        }
        return .failure(StringFailure(
            index: open, message: "unterminated string",
            hint: "close it with \" on the same line; write \\\" for a quote inside a string"))
    }

    /// `value` in double quotes with the language's escapes, as it would be written in a file.
    static func quote(_ value: String) -> String {
        var out = "\""
        for c in value {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(c)
            }
        }
        return out + "\""
    }

    /// `chars` as a string without leading and trailing whitespace.
    private static func trimmed(_ chars: ArraySlice<Character>) -> String {
        guard let first = chars.firstIndex(where: { !$0.isWhitespace }),
              let last = chars.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(chars[first...last])
    }
}
