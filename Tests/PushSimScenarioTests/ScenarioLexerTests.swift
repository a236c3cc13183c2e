import PushSimKernel
import Testing
@testable import PushSimScenario

/// The lexer reads Unicode scalars, refuses raw control characters, and files that are not UTF-8
/// are positioned at their first bad byte.
@Suite("Scenario lexer: scalars, control characters, encodings")
struct ScenarioLexerTests {
    private func diagnostics(_ text: String) -> [ScenarioDiagnostic] {
        if case .failure(let failure) = ScenarioParser.parse(text, path: "t.scenario") { return failure.diagnostics }
        return []
    }

    /// As grapheme clusters, `"` + U+0301 is one character that is not a quote: the string ran
    /// on to the end of the line and the line was called unterminated at the opening quote.
    /// The ASCII fast paths answer as Unicode does: whitespace by the White_Space property, words
    /// and strings with and without non-ASCII characters read alike.
    @Test func fastPathsAgreeWithUnicode() {
        for v in UInt32(0)...0x3100 {
            guard let c = Unicode.Scalar(v) else { continue }
            #expect(ScenarioLexer.isWhitespace(c) == c.properties.isWhitespace, "U+\(String(v, radix: 16))")
        }
        let (line, problem) = ScenarioLexer.lex("device café-phone  \"naïve\"\u{3000}x", line: 1, path: "t")
        #expect(problem == nil)
        #expect(line.tokens.map(\.text) == ["device", "café-phone", "naïve", "x"])
        #expect(line.source == "device café-phone  \"naïve\"\u{3000}x")
    }

    @Test func aQuoteFollowedByACombiningMarkStillClosesTheString() {
        let d = diagnostics("scenario \"x\"\u{301}\n")
        #expect(d.count == 1)
        #expect(d.first?.message == "unexpected \"\u{301}\" after the end of the statement")
        #expect(d.first?.location.column == 13)
    }

    @Test func aBackslashFollowedByACombiningMarkIsAnUnknownEscape() {
        let d = diagnostics("scenario \"a\\\u{301}b\"\n")
        #expect(d.first?.message == "unknown escape \"\\\u{301}\" in a string")
        #expect(d.first?.location.column == 12)
    }

    @Test func columnsCountScalars() {
        // "é" written as e + U+0301 is two scalars: the unknown word starts at column 4 either way.
        let d = diagnostics("scenario \"ok\"\nseed 7\ne\u{301} x\n")
        #expect(d.first?.location == SourceLocation(file: "t.scenario", line: 3, column: 1))
        let lexed = ScenarioLexer.lex("e\u{301} zz"[...], line: 1, path: "t")
        #expect(lexed.0.tokens.map(\.column) == [1, 4])
    }

    @Test func rawControlCharactersAreRefusedWithTheirPosition() {
        let d = diagnostics("scenario \"x\"\nseed 7 \u{1B}]0;pwned\u{07}\n")
        #expect(d.first?.message == "control character U+001B in the file")
        #expect(d.first?.location.line == 2 && d.first?.location.column == 8)
        let inString = diagnostics("scenario \"a\u{9B}b\"\n")
        #expect(inString.first?.message == "control character U+009B in a string")
        #expect(!(inString.first?.description.unicodeScalars.contains { $0.value == 0x9B } ?? true))
        #expect(diagnostics("scenario \"tab\there\"\n").isEmpty)
    }

    @Test func everyDiagnosticEscapesControlCharacters() {
        let d = ScenarioDiagnostic(location: SourceLocation(file: "evil\u{1B}[2J.scenario", line: 1, column: 1),
                                   message: "bad \u{07}", hint: "x\u{7F}")
        #expect(d.description == "evil\\u{1B}[2J.scenario:1:1: error: bad \\u{7}\n  hint: x\\u{7F}")
    }

    @Test func linesSplitAtEveryLineBreak() {
        #expect(ScenarioLexer.lines("a\r\nb\rc\nd\u{2028}e\n") == ["a", "b", "c", "d", "e"])
        #expect(ScenarioLexer.lines("") == [""])
        #expect(ScenarioLexer.lines("a\n\n") == ["a", ""])
    }

    @Test func aFileThatIsNotUTF8IsPositionedAtItsFirstBadByte() {
        let bytes = Array("scenario \"x\"\r\nseed 7 # caf".utf8) + [0xE9] + Array("\n".utf8)
        guard case .failure(let d) = ScenarioSource.decode(bytes, path: "t.scenario") else {
            Issue.record("decoded a file that is not UTF-8"); return
        }
        #expect(d.location == SourceLocation(file: "t.scenario", line: 2, column: 13))
        #expect(d.message == "the file is not UTF-8 text: byte 0xE9 cannot start or continue a character")
    }

    @Test func aByteOrderMarkIsSkipped() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("scenario \"x\"\n".utf8)
        #expect((try? ScenarioSource.decode(bytes, path: "t").get()) == "scenario \"x\"\n")
    }

    @Test func renderingCapsTheNumberOfMistakes() {
        let text = "scenario \"m\"\n" + (1...1_000).map { "bogus \($0)\n" }.joined()
        guard case .failure(let failure) = ScenarioParser.parse(text, path: "t.scenario") else { Issue.record("parsed"); return }
        #expect(failure.diagnostics.count == 1_000)
        let lines = failure.rendered(limit: 20).split(separator: "\n")
        #expect(lines.count == 41)   // 20 diagnostics of two lines each, then the count
        #expect(lines.last == "… and 980 more mistakes in t.scenario")
        #expect(failure.rendered(limit: 1_000) == failure.description)
    }
}
