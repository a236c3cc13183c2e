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
struct ScenarioLine: Equatable, Sendable {
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
///
/// The rules are written once, in ``tokenize(_:line:path:)``, over a line's characters as
/// ``LexerInput``: its Unicode scalars (``ScalarLine``, any line) or, for a line that is all ASCII
/// (nearly every line written), its bytes read in place (``ASCIILine``), where a byte is a scalar
/// and a column. ``lexLines(_:path:)`` takes the bytes when it can; tests lex lines both ways.
enum ScenarioLexer {
    /// The lines of `text`, split at `\n`, `\r\n`, `\r` and the other Unicode line separators
    /// (U+000B, U+000C, U+0085, U+2028, U+2029). A final newline does not add a line.
    static func lines(_ text: String) -> [Substring] {
        var copy = text
        let ranges = copy.withUTF8 { lineRanges($0) }
        let utf8 = text.utf8
        return ranges.map { r in
            Substring(utf8[utf8.index(utf8.startIndex, offsetBy: r.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: r.upperBound)])
        }
    }

    /// The byte ranges of the lines of UTF-8 text (see ``lines(_:)``), line breaks excluded. The
    /// breaks are found by their bytes: U+0085 is C2 85, U+2028 and U+2029 are E2 80 A8 and
    /// E2 80 A9, and no other character's bytes contain those sequences.
    static func lineRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        let n = bytes.count
        var start = 0
        var i = 0
        while i < n {
            let byte = bytes[i]
            // Most bytes start no line break: past CR, and not the lead byte of U+0085, U+2028 or U+2029.
            if byte > 0x0D && byte != 0xC2 && byte != 0xE2 { i += 1; continue }
            let width: Int   // of the line break at i, 0 if there is none
            switch byte {
            case 0x0A, 0x0B, 0x0C: width = 1
            case 0x0D: width = i + 1 < n && bytes[i + 1] == 0x0A ? 2 : 1
            case 0xC2: width = i + 1 < n && bytes[i + 1] == 0x85 ? 2 : 0
            case 0xE2: width = i + 2 < n && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) ? 3 : 0
            default: width = 0
            }
            guard width > 0 else { i += 1; continue }
            ranges.append(start..<i)
            i += width
            start = i
        }
        if start < n || ranges.isEmpty { ranges.append(start..<n) }
        return ranges
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

    /// Every line of `text` tokenized, in order: ``lines(_:)`` and ``lex(_:line:path:)`` on each,
    /// with the lines found and, when all ASCII, lexed on the text's bytes in place.
    static func lexLines(_ text: String, path: String) -> [(ScenarioLine, ScenarioDiagnostic?)] {
        var text = text
        return text.withUTF8 { bytes in
            let ranges = lineRanges(bytes)
            var lexed: [(ScenarioLine, ScenarioDiagnostic?)] = []
            lexed.reserveCapacity(ranges.count)
            for (offset, range) in ranges.enumerated() {
                let line = UnsafeBufferPointer(rebasing: bytes[range])
                lexed.append(lexASCII(line, line: offset + 1, path: path)
                    ?? lex(Substring(String(decoding: line, as: UTF8.self)), line: offset + 1, path: path))
            }
            return lexed
        }
    }

    /// Tokenizes one line. On a malformed string or a control character, returns the tokens
    /// before it and the diagnostic.
    static func lex(_ text: Substring, line: Int, path: String) -> (ScenarioLine, ScenarioDiagnostic?) {
        tokenize(ScalarLine(scalars: Array(text.unicodeScalars)), line: line, path: path)
    }

    /// ``lex(_:line:path:)`` on the bytes of a line, when they are all ASCII; nil otherwise.
    static func lexASCII(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, path: String) -> (ScenarioLine, ScenarioDiagnostic?)? {
        guard ASCIILine.isASCII(bytes) else { return nil }
        return tokenize(ASCIILine(bytes: bytes), line: line, path: path)
    }

    /// The lexer itself (``lex(_:line:path:)``), on a line's characters however they are held.
    private static func tokenize<Line: LexerInput>(_ chars: Line, line: Int, path: String) -> (ScenarioLine, ScenarioDiagnostic?) {
        var tokens: [ScenarioToken] = []
        tokens.reserveCapacity(8)
        var problem: ScenarioDiagnostic?
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
            tokens.append(ScenarioToken(kind: .word, text: chars.string(start..<i), column: start + 1, endColumn: i + 1))
            codeEnd = i
        }
        let source = trimmed(chars, 0..<codeEnd)
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
    /// just after the closing quote. The value is built from runs without escapes, each taken whole.
    private static func readString<Line: LexerInput>(_ chars: Line, from open: Int) -> Result<(String, Int), StringFailure> {
        var value = ""
        var run = open + 1 // start of the characters not yet added to value
        var i = open + 1
        while i < chars.count {
            let c = chars[i]
            if c == "\"" {
                if run < i { value += chars.string(run..<i) }
                return .success((value, i + 1))
            }
            if isForbiddenControl(c) {
                return .failure(StringFailure(index: i, message: "control character \(codePoint(c)) in a string", hint: controlHint))
            }
            if c == "\\" {
                guard i + 1 < chars.count else { break }
                let escaped: String
                switch chars[i + 1] {
                case "\"": escaped = "\""
                case "\\": escaped = "\\"
                case "n": escaped = "\n"
                case "t": escaped = "\t"
                default:
                    let shown = isForbiddenControl(chars[i + 1]) ? codePoint(chars[i + 1]) : String(chars[i + 1])
                    return .failure(StringFailure(
                        index: i, message: "unknown escape \"\\\(shown)\" in a string",
                        hint: "the escapes are \\\" \\\\ \\n \\t; write \\\\ for a backslash"))
                }
                if run < i { value += chars.string(run..<i) }
                value += escaped
                i += 2
                run = i
                continue
            }
            i += 1
        }
        return .failure(StringFailure(
            index: open, message: "unterminated string",
            hint: "close it with \" on the same line; write \\\" for a quote inside a string"))
    }

    /// `value` in double quotes with the language's escapes, as it would be written in a file.
    /// Other control characters, which a file cannot hold, are shown as `\u{1B}`.
    ///
    /// Written on the UTF-8 bytes, measured first and then filled in one allocation (appending
    /// scalar by scalar cost some 400 instructions a character, and explore quotes a payload of
    /// a hundred characters per send it writes). Every escaped scalar is found by its bytes: the
    /// ASCII ones are single bytes, and C1 controls (U+0080 to U+009F) are C2 80 to C2 9F.
    static func quote(_ value: String) -> String {
        var value = value
        return value.withUTF8 { bytes in
            var length = 2
            var i = 0
            while i < bytes.count {
                let (escape, width) = quoteEscape(bytes, at: i)
                length += escape?.utf8.count ?? 1
                i += width
            }
            return String(unsafeUninitializedCapacity: length) { out in
                out[0] = UInt8(ascii: "\"")
                var o = 1
                var i = 0
                while i < bytes.count {
                    let (escape, width) = quoteEscape(bytes, at: i)
                    if let escape {
                        for b in escape.utf8 { out[o] = b; o += 1 }
                    } else {
                        out[o] = bytes[i]
                        o += 1
                    }
                    i += width
                }
                out[o] = UInt8(ascii: "\"")
                return o + 1
            }
        }
    }

    /// How ``quote(_:)`` writes the character whose UTF-8 starts at `bytes[i]`: its escape (nil
    /// to write the byte as it is), and how many bytes it takes.
    private static func quoteEscape(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (escape: String?, width: Int) {
        let b = bytes[i]
        switch b {
        case UInt8(ascii: "\""): return ("\\\"", 1)
        case UInt8(ascii: "\\"): return ("\\\\", 1)
        case UInt8(ascii: "\n"): return ("\\n", 1)
        case UInt8(ascii: "\t"): return ("\\t", 1)
        case 0x00..<0x20, 0x7F: return (Unicode.Scalar(b).escaped, 1)
        case 0xC2 where i + 1 < bytes.count && (0x80...0x9F).contains(bytes[i + 1]): return (Unicode.Scalar(bytes[i + 1]).escaped, 2)
        default: return (nil, 1)
        }
    }

    /// The characters in `range` of `chars` as a string, without leading and trailing whitespace.
    private static func trimmed<Line: LexerInput>(_ chars: Line, _ range: Range<Int>) -> String {
        var first = range.lowerBound, end = range.upperBound
        while first < end, isWhitespace(chars[first]) { first += 1 }
        while end > first, isWhitespace(chars[end - 1]) { end -= 1 }
        return first < end ? chars.string(first..<end) : ""
    }
}

/// One line's characters as ``ScenarioLexer`` reads them: Unicode scalars by index (the index is
/// the column less one), and any run of them as a string.
protocol LexerInput {
    /// How many characters the line has.
    var count: Int { get }
    /// The character at index `i`, `0 <= i < count`.
    subscript(i: Int) -> Unicode.Scalar { get }
    /// The characters in `range` as a string.
    func string(_ range: Range<Int>) -> String
}

/// Any line, as its Unicode scalars (the general reading).
struct ScalarLine: LexerInput {
    /// The line's scalars.
    let scalars: [Unicode.Scalar]

    /// How many scalars the line has.
    var count: Int { scalars.count }
    /// The scalar at index `i`.
    subscript(i: Int) -> Unicode.Scalar { scalars[i] }

    /// The scalars in `range` as a string; an ASCII run is written a byte per scalar in one allocation.
    func string(_ range: Range<Int>) -> String {
        let slice = scalars[range]
        if slice.allSatisfy(\.isASCII) {
            return String(unsafeUninitializedCapacity: slice.count) { out in
                for (k, c) in zip(out.indices, slice) { out[k] = UInt8(truncatingIfNeeded: c.value) }
                return slice.count
            }
        }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: slice)
        return String(s)
    }
}

/// A line whose bytes are all ASCII, read in place: each byte is one scalar and one column, and a
/// run of bytes is a string as it stands (the fast reading; see ``isASCII(_:)``).
struct ASCIILine: LexerInput {
    /// The line's bytes, every one below 0x80; valid while the text they are read from is.
    let bytes: UnsafeBufferPointer<UInt8>

    /// How many bytes (and so characters) the line has.
    var count: Int { bytes.count }
    /// The byte at index `i`, as the scalar it encodes.
    subscript(i: Int) -> Unicode.Scalar { Unicode.Scalar(bytes[i]) }
    /// The bytes in `range` as a string.
    func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }

    /// Whether every byte is below 0x80, read eight at a time by the kernel's byte toolkit
    /// (`ByteWord.allASCII`, tested there against a byte-by-byte reading).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { ByteWord.allASCII(UnsafeRawBufferPointer(bytes)) }
}
