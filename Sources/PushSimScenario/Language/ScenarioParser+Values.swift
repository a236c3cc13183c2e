import PushSimKernel
import PushSimBackend
import PushSimDevices

extension ScenarioParser {
    /// A time as written after `at` or `by`: absolute (`5s`, since the start) or relative (`+2s`).
    enum TimeSpec: Equatable {
        case absolute(VirtualTime)
        case relative(VirtualDuration)

        /// The absolute time this spec names when the cursor is at `cursor`; nil on overflow.
        func resolved(from cursor: VirtualTime) -> VirtualTime? {
            switch self {
            case .absolute(let t): return t
            case .relative(let d): return ScenarioParser.adding(d, to: cursor)
            }
        }
    }

    static let durationHint = "units are us, ms, s, m, h, d; combine them largest first, e.g. 2h59s"

    /// The hint for a time (`at`, `by`, `from`): ``durationHint`` and what `+` means.
    static let timeHint = "\(durationHint); +<duration> is relative to the previous step"

    /// The latest time a scenario may name (``VirtualDuration/longestWritten`` after the start).
    static let latestWritten = VirtualTime.zero + .longestWritten

    /// The hint for a duration or time past ``VirtualDuration/longestWritten``.
    static let tooLongHint = "durations and times in a scenario are at most \(VirtualDuration.longestWritten) (100 years); "
        + "a run stops at its limit time (limit time, default 3650d)"

    /// `t + d`, or nil if it lies past ``latestWritten``.
    static func adding(_ d: VirtualDuration, to t: VirtualTime) -> VirtualTime? {
        let sum = t + d
        return sum > latestWritten ? nil : sum
    }

    /// Parses a duration (`250ms`, `2h59s`) of at most ``VirtualDuration/longestWritten``; `location` is where `text` starts.
    /// (Longer ones are refused here, so that nothing a file says can push virtual time near the
    /// end of the 64-bit range.)
    static func duration(_ text: Substring, at location: SourceLocation) throws(ScenarioDiagnostic) -> VirtualDuration {
        if let d = VirtualDuration.parse(text), d <= .longestWritten { return d }
        if isTooLarge(text) {
            throw ScenarioDiagnostic(location: location, message: "duration \"\(text)\" is longer than \(VirtualDuration.longestWritten)",
                                     hint: tooLongHint)
        }
        throw ScenarioDiagnostic(location: location,
                                 message: "expected a duration such as 5s or 250ms, found \"\(text)\"",
                                 hint: durationHint)
    }

    /// True if `text` is a well-formed duration (see ``VirtualDuration/parse(_:)``) but longer
    /// than ``VirtualDuration/longestWritten``.
    static func isTooLarge(_ text: Substring) -> Bool {
        switch VirtualDuration.scan(text) {
        case .overflow: return true
        case .value(let d): return d > .longestWritten
        case .malformed: return false
        }
    }

    /// True for a non-empty run of ASCII digits (no sign, no spaces).
    static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

/// Cutting a word into pieces, as grapheme clusters (characters) do it, by bytes when the text
/// allows: for ASCII text without CR each character is one byte (CR LF is the only pair of ASCII
/// scalars that is one character), so a search or a cut by bytes lands where one by characters
/// does, and counts the same columns. Each has its reading by characters beside it, which any
/// other text takes, and which the tests compare it with.
extension ScenarioParser {
    /// Whether every character of `text` is one byte: all ASCII, no CR.
    static func isByteText(_ text: String) -> Bool { text.allBytes { $0 < 0x80 && $0 != 0x0D } }

    /// Where `separator` first occurs in `text`, and how many characters come before its end (to
    /// place what follows it): `firstRange(of:)`, by bytes when both are byte text.
    static func firstRange(of separator: String, in text: String) -> (range: Range<String.Index>, charactersToEnd: Int)? {
        guard isByteText(text), isByteText(separator) else { return firstRangeByCharacters(of: separator, in: text) }
        guard let offset = text.byteOffset(of: separator) else { return nil }
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        let upper = utf8.index(lower, offsetBy: separator.utf8.count)
        return (lower..<upper, offset + separator.utf8.count)
    }

    /// ``firstRange(of:in:)`` by characters, for any text.
    static func firstRangeByCharacters(of separator: String, in text: String) -> (range: Range<String.Index>, charactersToEnd: Int)? {
        guard let range = text.firstRange(of: separator) else { return nil }
        return (range, text.distance(from: text.startIndex, to: range.upperBound))
    }

    /// `apns,wns` as `apns`, `,`, `wns`, each with its column when `text` starts at `column`:
    /// each comma is a piece, and so is each run of other characters. By bytes for byte text.
    static func commaPieces(_ text: String, column: Int) -> [(text: String, column: Int)] {
        guard isByteText(text) else { return commaPiecesByCharacters(text, column: column) }
        var text = text
        return text.withUTF8 { bytes in
            var result: [(text: String, column: Int)] = []
            var start = 0   // of the run of non-commas being read
            for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: ",") {
                if i > start { result.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self), column + start)) }
                if i < bytes.count { result.append((",", column + i)) }
                start = i + 1
            }
            return result
        }
    }

    /// ``commaPieces(_:column:)`` by characters, for any text.
    static func commaPiecesByCharacters(_ text: String, column: Int) -> [(text: String, column: Int)] {
        var result: [(text: String, column: Int)] = []
        var column = column
        for c in text {
            if c == "," || result.last == nil || result.last?.text == "," {
                result.append((String(c), column))
            } else {
                result[result.count - 1].text.append(c)
            }
            column += 1
        }
        return result
    }
}

extension ScenarioParser.Tokens {
    /// Consumes a duration such as `250ms`.
    mutating func duration() throws(ScenarioDiagnostic) -> VirtualDuration {
        let token = try word("a duration such as 5s or 250ms", hint: ScenarioParser.durationHint)
        return try ScenarioParser.duration(token.text[...], at: location(token))
    }

    /// Consumes a time: `5s` (absolute) or `+2s` (relative to the cursor), returning its token too.
    mutating func time() throws(ScenarioDiagnostic) -> (ScenarioParser.TimeSpec, ScenarioToken) {
        let hint = ScenarioParser.timeHint
        let token = try word("a time such as 5s or +2s", hint: hint)
        let relative = token.text.hasPrefix("+")
        let text = relative ? token.text.dropFirst() : token.text[...]
        guard let d = VirtualDuration.parse(text), d <= .longestWritten else {
            if ScenarioParser.isTooLarge(text) {
                throw ScenarioDiagnostic(location: location(token), message: "time \(token.quoted) is later than \(VirtualDuration.longestWritten)",
                                         hint: ScenarioParser.tooLongHint)
            }
            throw ScenarioDiagnostic(location: location(token),
                                     message: "expected a time such as 5s or +2s, found \(token.quoted)", hint: hint)
        }
        return (relative ? .relative(d) : .absolute(.zero + d), token)
    }

    /// Consumes an OS major version, 1 to 99 (`os 17`).
    mutating func osVersion() throws(ScenarioDiagnostic) -> Int {
        let (version, token) = try number("an OS major version such as 17", as: Int.self)
        guard (1...99).contains(version) else {
            throw ScenarioDiagnostic(location: location(token), message: "OS version \(version) is out of range",
                                     hint: "give the major version, e.g. os 12 or os 17")
        }
        return version
    }

    /// Consumes a probability written as an integer ratio, `1/100`: 0 <= numerator <= denominator, denominator > 0.
    mutating func ratio() throws(ScenarioDiagnostic) -> Ratio {
        let hint = "write <numerator>/<denominator> with whole numbers, e.g. 1/100 for one in a hundred"
        let token = try word("a ratio such as 1/100", hint: hint)
        let parts = token.text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy(ScenarioParser.isDigits),
              let numerator = Int64(parts[0]), let denominator = Int64(parts[1]) else {
            throw ScenarioDiagnostic(location: location(token),
                                     message: "expected a ratio such as 1/100, found \(token.quoted)", hint: hint)
        }
        guard denominator > 0 else {
            throw ScenarioDiagnostic(location: location(token), message: "ratio \(token.quoted) has a zero denominator",
                                     hint: "the denominator must be greater than 0, e.g. 1/100")
        }
        guard numerator <= denominator else {
            throw ScenarioDiagnostic(location: location(token), message: "ratio \(token.quoted) is more than 1",
                                     hint: "a probability is at most 1: the numerator must not exceed the denominator")
        }
        return Ratio(numerator, denominator)
    }

    /// Consumes a whole number written with digits only; `what` names it in messages (`a seed such as 7`).
    mutating func number<T: FixedWidthInteger>(_ what: String, as type: T.Type = T.self) throws(ScenarioDiagnostic) -> (T, ScenarioToken) {
        let hint = "write a whole number with digits only"
        let token = try word(what, hint: hint)
        guard ScenarioParser.isDigits(token.text[...]) else {
            throw ScenarioDiagnostic(location: location(token), message: "expected \(what), found \(token.quoted)", hint: hint)
        }
        guard let value = T(token.text) else {
            throw ScenarioDiagnostic(location: location(token), message: "number \(token.quoted) is too large",
                                     hint: "the largest allowed here is \(T.max)")
        }
        return (value, token)
    }

    /// Consumes an HTTP status pattern: `410`, a class `4xx`, or alternatives joined by `or`
    /// (`401 or 403`, `4xx or 503`). Codes are 100 to 599, classes 1xx to 5xx.
    mutating func statusPattern() throws(ScenarioDiagnostic) -> StatusPattern {
        let hint = "write a status such as 410, a class such as 4xx, or alternatives such as 401 or 403"
        var alternatives: [StatusPattern.Alternative] = []
        repeat {
            let token = try word("an HTTP status such as 410 or 4xx", hint: hint)
            let text = token.text
            if text.count == 3, text.hasSuffix("xx"), let first = text.first?.wholeNumberValue, text.first?.isASCII == true {
                guard (1...5).contains(first) else {
                    throw ScenarioDiagnostic(location: location(token), message: "status class \(token.quoted) does not exist",
                                             hint: "classes are 1xx, 2xx, 3xx, 4xx and 5xx")
                }
                alternatives.append(.statusClass(first))
            } else {
                guard ScenarioParser.isDigits(text[...]), let code = Int(text) else {
                    throw ScenarioDiagnostic(location: location(token), message: "expected an HTTP status such as 410 or 4xx, found \(token.quoted)",
                                             hint: hint)
                }
                guard (100...599).contains(code) else {
                    throw ScenarioDiagnostic(location: location(token), message: "HTTP status \(code) is out of range",
                                             hint: "statuses are 100 to 599")
                }
                alternatives.append(.code(code))
            }
        } while skip("or")
        return StatusPattern(alternatives)
    }

    /// Consumes one of `E`'s raw values; `what` and `plural` name the choice in messages
    /// (`unknown platform "iphone"`, hint `platforms are ios, android, windows`).
    mutating func choice<E: RawRepresentable & CaseIterable>(
        _ type: E.Type, what: String, plural: String
    ) throws(ScenarioDiagnostic) -> E where E.RawValue == String {
        func names() -> String { E.allCases.map(\.rawValue).joined(separator: ", ") }
        let token = try word("\(what) (\(names()))", hint: "\(plural) are \(names())")
        guard let value = E(rawValue: token.text) else {
            throw ScenarioDiagnostic(location: location(token), message: "unknown \(what) \(token.quoted)", hint: "\(plural) are \(names())")
        }
        return value
    }
}
