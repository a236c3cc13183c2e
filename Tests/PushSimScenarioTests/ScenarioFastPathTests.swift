import Testing
import PushSimKernel
@testable import PushSimScenario

/// Every fast path of the scenario front end answers as the general reading it stands in for:
/// lexing a line's bytes against lexing its scalars, splitting lines by bytes against splitting
/// by scalars, quoting by bytes against quoting by scalars, cutting words by bytes against cutting
/// them by characters, and writing statements into bytes against `String` interpolation.
@Suite("Scenario front end: fast paths agree with the general readings")
struct ScenarioFastPathTests {
    /// Pieces of lines: words, keywords, quotes and escapes (good and bad), comments, whitespace
    /// of every kind, C0 and C1 controls and DEL, combining marks, and non-ASCII letters.
    static let asciiPieces = ["at", "5s", "+2s", "bob-iphone", "install", "send", "to", "via", "apns,fcm", ",", "..", "5ms..80ms",
                              " ", "  ", "\t", "#", "# a comment \"x", "\"", "\"Hi Bob\"", "\"a\\\"b\"", "\"a\\\\b\"", "\"a\\nb\\tc\"",
                              "\"bad \\x\"", "\\", "\"unterminated", "\"\"", "\u{00}", "\u{07}", "\u{1B}", "\u{1F}", "\u{7F}", "x", "\"\\"]
    static let otherPieces = ["é", "e\u{301}", "\u{301}", "\"\u{301}", "\\\u{301}", "\u{3000}", "\u{A0}", "\u{2007}", "\u{80}", "\u{9B}",
                              "\u{9F}", "\u{A0}x", "😀", "日本", "\"naïve\"", "\"\\\u{9B}\"", "\u{FEFF}", "\u{200B}"]
    static let breaks = ["\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\n\n", "\r\r\n"]

    static func randomLine(_ r: inout SeededRandom, pieces: [String]) -> String {
        var line = ""
        for _ in 0..<r.int(below: 9) {
            line += pieces[r.int(below: pieces.count)]
            if r.chance(Ratio(1, 2)) { line += " " }
        }
        return line
    }

    /// The lines of `text` as the lexer split them before it read bytes: by scalars.
    static func linesByScalars(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var i = start
        while i < scalars.endIndex {
            let c = scalars[i]
            guard ScenarioLexer.isLineBreak(c) else { i = scalars.index(after: i); continue }
            lines.append(Substring(scalars[start..<i]))
            i = scalars.index(after: i)
            if c == "\r", i < scalars.endIndex, scalars[i] == "\n" { i = scalars.index(after: i) }
            start = i
        }
        if start < scalars.endIndex || lines.isEmpty { lines.append(Substring(scalars[start...])) }
        return lines
    }

    /// `value` quoted as ``ScenarioLexer/quote(_:)`` did it before it read bytes: by scalars.
    static func quoteByScalars(_ value: String) -> String {
        var out = "\""
        for c in value.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if c.isTerminalControl { out += c.escaped } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    @Test func lexingAnASCIILinesBytesAgreesWithLexingItsScalars() {
        var r = SeededRandom(seed: 11)
        var lines = ["", " ", "#", "at 5s bob send \"Hi\" to bob via apns", "\"a\\", "x\u{1B}y", "  \"s\"  # c  ", "\t\u{7F}"]
        for _ in 0..<20_000 { lines.append(Self.randomLine(&r, pieces: Self.asciiPieces)) }
        for line in lines {
            var bytes = line
            let fast = bytes.withUTF8 { ScenarioLexer.lexASCII($0, line: 7, path: "t.scenario") }
            let general = ScenarioLexer.lex(line[...], line: 7, path: "t.scenario")
            #expect(fast?.0 == general.0, "\(line.debugDescription)")
            #expect(fast?.1 == general.1, "\(line.debugDescription)")
        }
    }

    @Test func aLineWithANonASCIIByteIsLeftToTheScalarLexer() {
        var bytes = "device café"
        #expect(bytes.withUTF8 { ScenarioLexer.lexASCII($0, line: 1, path: "t") } == nil)
        for text in ["abcdefgh\u{80}", "\u{85}", "abcdefghijklmnopé", "😀abcdefghijklmnop"] {
            var t = text
            #expect(t.withUTF8 { ASCIILine.isASCII($0) } == false, "\(text.debugDescription)")
            #expect(t.withUTF8 { ScenarioLexer.lexASCII($0, line: 1, path: "t") } == nil)
        }
        for text in ["", "a", "abcdefgh", "abcdefghijklmnopq\u{7F}"] {
            var t = text
            #expect(t.withUTF8 { ASCIILine.isASCII($0) })
        }
    }

    @Test func splittingAndLexingByBytesAgreesWithScalars() {
        var r = SeededRandom(seed: 12)
        var texts = ["", "\n", "a", "a\n", "a\r\nb\rc\nd\u{2028}e\n", "\r", "\r\n\r\n", "x\u{85}y\u{2029}", "\u{C2}\u{85}", "â\u{80}¨"]
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<r.int(below: 6) {
                text += Self.randomLine(&r, pieces: r.chance(Ratio(1, 2)) ? Self.asciiPieces : Self.asciiPieces + Self.otherPieces)
                text += Self.breaks[r.int(below: Self.breaks.count)]
            }
            if r.chance(Ratio(1, 2)) { text += Self.randomLine(&r, pieces: Self.asciiPieces + Self.otherPieces) }
            texts.append(text)
        }
        for text in texts {
            let lines = Self.linesByScalars(text)
            #expect(ScenarioLexer.lines(text) == lines, "\(text.debugDescription)")
            let lexed = ScenarioLexer.lexLines(text, path: "t.scenario")
            let expected = lines.enumerated().map { ScenarioLexer.lex($0.element, line: $0.offset + 1, path: "t.scenario") }
            #expect(lexed.map(\.0) == expected.map(\.0), "\(text.debugDescription)")
            #expect(lexed.map(\.1) == expected.map(\.1), "\(text.debugDescription)")
        }
    }

    @Test func quotingByBytesAgreesWithQuotingByScalars() {
        var r = SeededRandom(seed: 13)
        let pieces = Self.asciiPieces + Self.otherPieces + ["\n", "\r", "\t", "\u{85}", "\u{C2}", "\u{A0}", "\u{7F}\u{80}", "{\"aps\":{\"alert\":\"hi\"}}"]
        var values = ["", "\"", "\\", "\u{9F}", "\u{C2}\u{9F}", "final to bob"]
        for _ in 0..<5_000 {
            var value = ""
            for _ in 0..<r.int(below: 8) { value += pieces[r.int(below: pieces.count)] }
            values.append(value)
        }
        for value in values {
            #expect(ScenarioLexer.quote(value) == Self.quoteByScalars(value), "\(value.debugDescription)")
        }
    }

    @Test func cuttingWordsByBytesAgreesWithCharacters() {
        var r = SeededRandom(seed: 14)
        let pieces = ["apns", "fcm", "wns", ",", ",,", ".", "..", "...", "5ms", "80ms", "é", "e\u{301}", ",\u{301}", ".\u{301}", "\r", "\r\n", "😀", " "]
        var texts = ["", ",", "..", "apns,wns", "5ms..80ms", "5ms..", "..80ms", "5ms...80ms"]
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<r.int(below: 6) { text += pieces[r.int(below: pieces.count)] }
            texts.append(text)
        }
        for text in texts {
            let column = 1 + r.int(below: 40)
            let fast = ScenarioParser.commaPieces(text, column: column), general = ScenarioParser.commaPiecesByCharacters(text, column: column)
            #expect(fast.map(\.text) == general.map(\.text) && fast.map(\.column) == general.map(\.column), "\(text.debugDescription)")
            let a = ScenarioParser.firstRange(of: "..", in: text), b = ScenarioParser.firstRangeByCharacters(of: "..", in: text)
            #expect(a?.range == b?.range && a?.charactersToEnd == b?.charactersToEnd, "\(text.debugDescription)")
        }
    }

    @Test func statementTextWritesWhatStringInterpolationWrites() {
        let ints: [Int] = [0, 1, 9, 10, 42, 99_999, -1, -10, Int.max, Int.min]
        for n in ints {
            #expect(StatementText("at \(n)s x").utf8 == Array("at \(n)s x".utf8))
            #expect(StatementText("\(Int64(n))").utf8 == Array("\(Int64(n))".utf8))
        }
        for n: UInt64 in [0, 7, UInt64.max] { #expect(StatementText("seed \(n)").utf8 == Array("seed \(n)".utf8)) }
        let name = "café-\u{301}phone", d = VirtualDuration.seconds(60)
        #expect(StatementText("at \(3)s \(name) shows \(ScenarioLexer.quote("Hi \"Bob\"")) by +\(d)").utf8
                == Array("at \(3)s \(name) shows \(ScenarioLexer.quote("Hi \"Bob\"")) by +\(d)".utf8))
        #expect(StatementText("plain").utf8 == Array("plain".utf8))
        #expect(StatementText(name).utf8 == Array(name.utf8))
    }
}
