import PushSimKernel

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
/// run of characters that are not whitespace, `"` or `#` is one word.
///
/// The lexer reads Unicode scalars, not grapheme clusters: a quote or a backslash followed by a
/// combining mark is still a quote or a backslash (as a grapheme cluster it would be a different
/// character, and a string would silently swallow the rest of the line). Columns count scalars.
/// Control characters other than tab are refused outside comments: written raw, they could retitle
/// or clear the terminal of whoever reads a diagnostic; inside a string, write `\n` or `\t`.
enum ScenarioLexer {
    /// The lines of `text`, split at `\n`, `\r\n`, `\r` and the other Unicode line separators
    /// (U+000B, U+000C, U+0085, U+2028, U+2029). A final newline does not add a line.
    static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var i = start
        while i < scalars.endIndex {
            let c = scalars[i]
            guard isLineBreak(c) else { i = scalars.index(after: i); continue }
            lines.append(Substring(scalars[start..<i]))
            i = scalars.index(after: i)
            if c == "\r", i < scalars.endIndex, scalars[i] == "\n" { i = scalars.index(after: i) }
            start = i
        }
        if start < scalars.endIndex || lines.isEmpty { lines.append(Substring(scalars[start...])) }
        return lines
    }

    static func isLineBreak(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Unicode's White_Space property; ASCII (nearly every character of a scenario) is answered
    /// without the property tables: space and tab through carriage return.
    static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? c.value == 0x20 || (0x09...0x0D).contains(c.value) : c.properties.isWhitespace
    }

    /// C0 and C1 control characters and DEL, except tab (which is whitespace); a line never holds
    /// a line feed.
    static func isForbiddenControl(_ c: Unicode.Scalar) -> Bool { c.isTerminalControl }

    /// Tokenizes one line. On a malformed string or a control character, returns the tokens
    /// before it and the diagnostic.
    static func lex(_ text: Substring, line: Int, path: String) -> (ScenarioLine, ScenarioDiagnostic?) {
        var tokens: [ScenarioToken] = []
        var problem: ScenarioDiagnostic?
        let chars = Array(text.unicodeScalars)
        var i = 0
        var codeEnd = 0 // index just after the last character of the statement
        func fail(at index: Int, _ message: String, hint: String) {
            problem = ScenarioDiagnostic(location: SourceLocation(file: path, line: line, column: index + 1), message: message, hint: hint)
            codeEnd = chars.count
        }
        scan: while i < chars.count {
            let c = chars[i]
            if isForbiddenControl(c) { fail(at: i, "control character \(codePoint(c)) in the file", hint: controlHint); break scan }
            if isWhitespace(c) { i += 1; continue }
            if c == "#" { break scan }
            if c == "\"" {
                switch readString(chars, from: i) {
                case .success(let (value, end)):
                    tokens.append(ScenarioToken(kind: .string, text: value, column: i + 1, endColumn: end + 1))
                    i = end
                    codeEnd = end
                case .failure(let failure):
                    fail(at: failure.index, failure.message, hint: failure.hint)
                    break scan
                }
                continue
            }
            let start = i
            while i < chars.count, !isWhitespace(chars[i]), chars[i] != "\"", chars[i] != "#", !isForbiddenControl(chars[i]) { i += 1 }
            tokens.append(ScenarioToken(kind: .word, text: string(chars[start..<i]), column: start + 1, endColumn: i + 1))
            codeEnd = i
        }
        let source = trimmed(chars[0..<codeEnd])
        let scanned = ScenarioLine(number: line, tokens: tokens, source: source, endColumn: codeEnd + 1)
        return (scanned, problem)
    }

    static let controlHint = "control characters cannot be written in a scenario; inside a string, write \\n or \\t"

    /// `U+001B`.
    static func codePoint(_ c: Unicode.Scalar) -> String { unicodeCodePoint(c.value) }

    /// Why a string could not be read: the index of the offending character, message and hint.
    private struct StringFailure: Error {
        var index: Int
        var message: String
        var hint: String
    }

    /// Reads the string whose opening quote is at `chars[open]`; returns its value and the index
    /// just after the closing quote.
    private static func readString(_ chars: [Unicode.Scalar], from open: Int) -> Result<(String, Int), StringFailure> {
        var value = String.UnicodeScalarView()
        var i = open + 1
        while i < chars.count {
            let c = chars[i]
            if c == "\"" { return .success((String(value), i + 1)) }
            if isForbiddenControl(c) {
                return .failure(StringFailure(index: i, message: "control character \(codePoint(c)) in a string", hint: controlHint))
            }
            if c == "\\" {
                guard i + 1 < chars.count else { break }
                switch chars[i + 1] {
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                case "n": value.append("\n")
                case "t": value.append("\t")
                default:
                    let shown = isForbiddenControl(chars[i + 1]) ? codePoint(chars[i + 1]) : String(chars[i + 1])
                    return .failure(StringFailure(
                        index: i, message: "unknown escape \"\\\(shown)\" in a string",
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
    /// Other control characters, which a file cannot hold, are shown as `\u{1B}`.
    static func quote(_ value: String) -> String {
        var out = "\""
        for c in value.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if isForbiddenControl(c) { out += c.escaped } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        if scalars.allSatisfy(\.isASCII) {   // one allocation, a byte per scalar
            return String(unsafeUninitializedCapacity: scalars.count) { out in
                for (k, c) in zip(out.indices, scalars) { out[k] = UInt8(truncatingIfNeeded: c.value) }
                return scalars.count
            }
        }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }

    /// `chars` as a string without leading and trailing whitespace.
    private static func trimmed(_ chars: ArraySlice<Unicode.Scalar>) -> String {
        guard let first = chars.firstIndex(where: { !isWhitespace($0) }),
              let last = chars.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return string(chars[first...last])
    }
}
