import Foundation
@testable import PushSimNetwork
import PushSimKernel
import Testing

/// Tests of the JSON and XML codecs: tables of valid and invalid documents, round trips,
/// the tutorial's injection examples, depth limits and seeded fuzzing.
@Suite struct CodecTests {
    // MARK: - JSON

    /// Valid documents and their compact serialization.
    @Test(arguments: [
        (#""abc""#, #""abc""#), (" \t\n\"x\"\r\n ", #""x""#), ("0", "0"), ("-0", "-0"), ("1.0", "1.0"),
        ("1E+2", "1E+2"), ("-12.5e-3", "-12.5e-3"), ("true", "true"), ("null", "null"), ("[]", "[]"),
        ("{}", "{}"), (#" {"a" : 1 , "b":[ true,null ]} "#, #"{"a":1,"b":[true,null]}"#),
        (#"[1,[2,[3,{}]],"é"]"#, #"[1,[2,[3,{}]],"é"]"#), (#""\u00e9\ud83d\ude00""#, #""é😀""#),
        (#""\"\\\/\b\f\n\r\t""#, #""\"\\/\b\f\n\r\t""#), (#""\u0000\u001F""#, #""\u0000\u001f""#),
    ])
    func jsonValidDocuments(input: String, expected: String) throws {
        let value = try JSONParser.parse(input)
        #expect(value.serialized() == expected)
        #expect(try JSONParser.parse(value.serialized()) == value)
    }

    /// Strings long enough for the eight-byte runs the writer and the parser pass whole, with
    /// bytes that need an escape, or a look, anywhere in and between the runs: written as a
    /// plain escaper writes them and read back unchanged.
    @Test func longStringsWithEscapesAnywhereRoundTrip() throws {
        var random = SeededRandom(seed: 20261126)
        let pieces = ["a", "b", "7", " ", "\"", "\\", "\n", "\u{01}", "é", "😀", "/"]
        for _ in 0..<2_000 {
            let text = (0..<random.int(below: 40)).map { _ in pieces[random.int(below: pieces.count)] }.joined()
            let written = JSONValue.string(text).serialized()
            var expected = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": expected += "\\\""
                case "\\": expected += "\\\\"
                case "\n": expected += "\\n"
                case "\u{01}": expected += "\\u0001"
                default: expected.unicodeScalars.append(scalar)
                }
            }
            expected += "\""
            #expect(written == expected)
            #expect(try JSONParser.parse(written) == .string(text))
        }
    }

    /// Invalid documents: position and message of the error.
    @Test(arguments: [
        ("", 1, 1, "unexpected end of input, expected a JSON value"),
        (#"{"a":1 "b":2}"#, 1, 8, #"expected ',' or '}' after object member, found '"'"#),
        ("[1,]", 1, 4, "trailing comma is not allowed in an array"),
        (#"{"a":1,}"#, 1, 8, "trailing comma is not allowed in an object"),
        ("[1 2]", 1, 4, "expected ',' or ']' after array element, found '2'"),
        ("01", 1, 2, "leading zeros are not allowed in numbers"), ("-", 1, 2, "expected a digit after '-', found end of input"),
        ("1.", 1, 3, "expected a digit after the decimal point, found end of input"),
        ("1e+", 1, 4, "expected a digit in the exponent, found end of input"), ("+1", 1, 1, "expected a JSON value, found '+'"),
        ("NaN", 1, 1, "expected a JSON value, found 'N'"), ("tru", 1, 1, "invalid literal, expected 'true'"),
        ("1 2", 1, 3, "unexpected '2' after the JSON value"), ("// c\n1", 1, 1, "expected a JSON value, found '/'"),
        ("{1:2}", 1, 2, "expected string key or '}' after '{', found '1'"), (#"{"a" 1}"#, 1, 6, "expected ':' after object key, found '1'"),
        ("[1,\n  2,\r\n  x]", 3, 3, "expected a JSON value, found 'x'"), ("\n  \"abc", 2, 7, "unterminated string starting at 2:3"),
        ("\"a\u{1}\"", 1, 3, "control character byte 0x01 must be escaped in a string"),
        (#""\x""#, 1, 2, "invalid escape sequence '\\' followed by 'x'"), (#""\u12G4""#, 1, 6, "expected 4 hex digits in \\u escape, found 'G'"),
        ("\"\\u00\u{10}0\"", 1, 6, "expected 4 hex digits in \\u escape, found byte 0x10"),
        (#""\ud800""#, 1, 2, "high surrogate in \\u escape is not followed by a low surrogate escape"),
        (#""\ud800\u0041""#, 1, 2, "high surrogate in \\u escape is not followed by a low surrogate escape"),
        (#""\udc00""#, 1, 2, "lone low surrogate in \\u escape"), ("\u{FEFF}1", 1, 1, "byte order mark is not allowed"),
    ])
    func jsonInvalidDocuments(input: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(input) }
        do {
            _ = try JSONParser.parse(input)
        } catch {
            #expect(error.message == message)
            #expect((error.line, error.column) == (line, column), "\(error)")
        }
    }

    @Test func jsonInvalidUTF8IsRejectedAtTheBadSequence() throws {
        for bad: [UInt8] in [[0xC3, 0x28], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]] {
            #expect(throws: JSONParseError(offset: 2, line: 1, column: 3, message: "invalid UTF-8 byte 0x\(String(bad[0], radix: 16, uppercase: true)) in string")) {
                try JSONParser.parse([0x22, 0x61] + bad + [0x22])
            }
        }
        #expect(try JSONParser.parse([0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22]) == .string("😀"))
    }

    @Test func jsonNestingDepthIsLimited() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONParser.parse(ok).serialized() == ok)
        #expect(throws: JSONParseError(offset: 512, line: 1, column: 513, message: "nesting depth exceeds 512")) {
            try JSONParser.parse(String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
        }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: #"{"a":"#, count: 100_000)) }
    }

    @Test func jsonDuplicateKeysArePreservedAndSubscriptTakesTheFirst() throws {
        let value = try JSONParser.parse(#"{"a":1,"b":true,"a":"two"}"#)
        #expect(value.objectMembers?.map(\.0) == ["a", "b", "a"])
        #expect(value["a"] == .number(JSONNumber(1)))
        #expect(value["b"]?.boolValue == true)
        #expect(value["c"] == nil && JSONValue.array([])["a"] == nil)
        #expect(value.serialized() == #"{"a":1,"b":true,"a":"two"}"#)
        #expect(value != (try JSONParser.parse(#"{"a":"two","b":true,"a":1}"#)))
    }

    @Test func jsonSortedKeysOutputIsStableAndRecursive() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":{"d":2,"c":[{"z":0,"y":1}]},"é":3,"B":4,"a":0}"#)
        #expect(value.serializedSortedKeys() == #"{"B":4,"a":{"c":[{"y":1,"z":0}],"d":2},"a":0,"b":1,"é":3}"#)
        #expect(value.serialized() == #"{"b":1,"a":{"d":2,"c":[{"z":0,"y":1}]},"é":3,"B":4,"a":0}"#)
    }

    @Test func jsonNumbersAreKeptAsText() throws {
        let value = try JSONParser.parse("[1, 1.0, 1e2, -9223372036854775808, 9223372036854775808, 2.5]")
        let numbers = (value.arrayValue ?? []).compactMap(\.numberValue)
        try #require(numbers.count == 6)
        #expect(numbers.map(\.text) == ["1", "1.0", "1e2", "-9223372036854775808", "9223372036854775808", "2.5"])
        #expect(numbers.map(\.int64) == [1, nil, nil, Int64.min, nil, nil])
        #expect(numbers.map(\.double) == [1, 1, 100, -9223372036854775808, 9223372036854775808, 2.5])
        #expect(numbers[0] != numbers[1] && JSONValue.number(numbers[0]) != .number(numbers[1]))
        #expect(JSONNumber(-42).text == "-42" && JSONValue.number(JSONNumber(7)).int64Value == 7)
    }

    @Test func jsonBareStringDocumentAndAccessors() throws {
        #expect(try JSONParser.parse(" \"hello\" ") == .string("hello"))
        #expect(try JSONParser.parse(utf8: "\"hi\"".utf8).stringValue == "hi")
        #expect(try JSONParser.parse("3").stringValue == nil && JSONValue.null.int64Value == nil)
        let built: JSONValue = .object(["s": "x\u{1}\"", "n": 3, "l": [true, .null], "o": ["k": false]])
        #expect(built.serialized() == #"{"s":"x\u0001\"","n":3,"l":[true,null],"o":{"k":false}}"#)
        #expect(try JSONParser.parse(built.serialized()) == built)
        #expect(JSONValue.string("é") != .string("e\u{301}"))
    }

    /// The writer copies runs that need no escape whole: escapes at the start, between runs, side
    /// by side and at the end, and multi-byte text around them, come out as byte-by-byte writing gave.
    @Test func jsonStringRunsAroundEscapes() throws {
        let cases: [(String, String)] = [
            ("", #""""#), ("plain text, no escape", #""plain text, no escape""#),
            ("\"quoted\"", #""\"quoted\"""#), ("a\\b\n\tc", #""a\\b\n\tc""#),
            ("\u{1}\u{1F}é😀\u{7F}end\r", #""\u0001\u001fé😀\#u{7F}end\r""#),
        ]
        for (text, expected) in cases {
            #expect(JSONValue.string(text).serialized() == expected)
            #expect(try JSONParser.parse(expected) == .string(text))
        }
        // Keys go through the same writer.
        #expect(JSONValue.object([("k\"", "v")]).serialized() == #"{"k\"":"v"}"#)
    }

    @Test func jsonTutorialConcatenationInjection() throws {
        let injected = try JSONParser.parse(#"{"aps":{"alert":"From a: x","badge":9,"y":"z"}}"#)
        #expect(injected["aps"]?.objectMembers?.map(\.0) == ["alert", "badge", "y"])
        #expect(injected["aps"]?["badge"]?.int64Value == 9)
        #expect(throws: JSONParseError(offset: 30, line: 1, column: 31,
                                       message: "expected ',' or '}' after object member, found 'h'")) {
            try JSONParser.parse(#"{"aps":{"alert":"From a: say "hi""}}"#)
        }
    }

    @Test func jsonErrorDescription() {
        let error = JSONParseError(offset: 4, line: 2, column: 1, message: "boom")
        #expect(error.description == "line 2, column 1 (offset 4): boom")
    }

    // MARK: - XML

    private static let toast = #"<toast><visual><binding template="ToastText01"><text id="1">From a: hi</text></binding></visual></toast>"#

    @Test func xmlToastParsesAndRoundTrips() throws {
        let root = try XMLDocumentParser.parse(Self.toast).root
        let binding = try #require(root.first("visual")?.first("binding"))
        #expect(binding.attribute("template") == "ToastText01")
        #expect(binding.first("text")?.attribute("id") == "1" && binding.first("text")?.text == "From a: hi")
        #expect(root.serialized() == Self.toast)
    }

    /// Which ASCII bytes may start and continue an element name (XML 1.0 NameStartChar and
    /// NameChar, restricted to ASCII): letters, `_` and `:`; then also digits, `-` and `.`.
    @Test func xmlNameBytesAreTheNameCharacters() {
        func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
        for b in UInt8(0x21)..<0x7F {
            let start = isLetter(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":")
            let char = start || (0x30...0x39).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            #expect(((try? XMLDocumentParser.parse([UInt8(ascii: "<"), b, UInt8(ascii: "/"), UInt8(ascii: ">")])) != nil) == start, "start \(b)")
            #expect(((try? XMLDocumentParser.parse([UInt8(ascii: "<"), UInt8(ascii: "a"), b, UInt8(ascii: "/"), UInt8(ascii: ">")])) != nil) == char,
                    "char \(b)")
        }
    }

    @Test func xmlMarkupInjectedIntoTextFails() {
        let injected = #"<toast><visual><binding template="ToastText01"><text id="1">From a: <b></text></binding></visual></toast>"#
        #expect(throws: XMLParseError(line: 1, column: 72, message: "end tag </text> does not match start tag <b> opened at 1:69")) {
            try XMLDocumentParser.parse(injected)
        }
    }

    @Test func xmlRawAmpersandFailsButEscapedTextPasses() throws {
        #expect(throws: XMLParseError(line: 1, column: 11, message: "unescaped '&' (write '&amp;')")) {
            try XMLDocumentParser.parse("<text>Tom & Jerry</text>")
        }
        #expect(xmlEscape(#"Tom & "J" <'x'>"#) == "Tom &amp; &quot;J&quot; &lt;&apos;x&apos;&gt;")
        let parsed = try XMLDocumentParser.parse("<text>\(xmlEscape("Tom & Jerry <3"))</text>")
        #expect(parsed.root.text == "Tom & Jerry <3" && parsed.root.serialized() == "<text>Tom &amp; Jerry &lt;3</text>")
    }

    /// The escaper copies the runs between escapes whole: the same bytes as escaping one byte at
    /// a time, with escapes first, last, side by side, and none at all, in text and in attributes.
    @Test func xmlEscapingCopiesRunsAsAByteByByteEscaperWrites() {
        func reference(_ text: String, attribute: Bool) -> [UInt8] {
            var out: [UInt8] = []
            for b in text.utf8 {
                switch b {
                case UInt8(ascii: "&"): out += Array("&amp;".utf8)
                case UInt8(ascii: "<"): out += Array("&lt;".utf8)
                case UInt8(ascii: ">"): out += Array("&gt;".utf8)
                case 0x0D: out += Array("&#13;".utf8)
                case UInt8(ascii: "\"") where attribute: out += Array("&quot;".utf8)
                case 0x09 where attribute: out += Array("&#9;".utf8)
                case 0x0A where attribute: out += Array("&#10;".utf8)
                default: out.append(b)
                }
            }
            return out
        }
        let texts = ["", "plain", "&", "&&", "a&b", "&start", "end&", "<>\"\t\n\r", "x<y>z\"w", "café & crème",
                     "https://h/hub/registrations/reg-1?api-version=2017-04&$filter=ChannelUri+eq+%27x%27&$top=100"]
        for text in texts {
            for attribute in [false, true] {
                var out: [UInt8] = []
                Array(text.utf8).withUnsafeBufferPointer { XMLEscaping.append($0, to: &out, attribute: attribute) }
                #expect(out == reference(text, attribute: attribute), "\(text)")
            }
        }
    }

    @Test func xmlAtomEntryWithNamespaces() throws {
        let atom = """
        \u{FEFF}<?xml version="1.0" encoding="utf-8"?>
        <!-- registration -->
        <entry xmlns="http://www.w3.org/2005/Atom" xmlns:a='urn:a'>
          <a:title>t</a:title>
          <content type="application/xml">
            <WindowsRegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance">
              <Tags>a, b</Tags><ChannelUri><![CDATA[https://x/?a=1&b=<2>]]></ChannelUri>
              <ExpirationTime i:nil="true"/>
            </WindowsRegistrationDescription>
          </content>
        </entry>

        """
        let root = try XMLDocumentParser.parse(atom).root
        #expect(root.name == "entry" && root.attribute("xmlns:a") == "urn:a" && root.first("title")?.text == "t")
        #expect(root.first("a:title") != nil && root.first("b:title") == nil)
        let description = try #require(root.first("content")?.first("WindowsRegistrationDescription"))
        #expect(description.elements.map(\.name) == ["Tags", "ChannelUri", "ExpirationTime"])
        #expect(description.first("ChannelUri")?.text == "https://x/?a=1&b=<2>")
        #expect(description.first("ExpirationTime") == XMLElement(name: "ExpirationTime", attributes: [("i:nil", "true")]))
        #expect(root.children.first == .text("\n  "), "whitespace-only text is kept")
    }

    @Test func xmlEntitiesCommentsAndNormalization() throws {
        let doc = "<a x=\"1&#10;2\t3\r\n4&quot;\" y='&apos;'>l&lt;&gt;&amp;&#65;&#x1F600;<!-- c -->m\r\nn<?pi data?><![CDATA[]]></a>"
        let root = try XMLDocumentParser.parse(doc).root
        #expect(root.attributes.map(\.value) == ["1\n2 3 4\"", "'"])
        #expect(root.children == [.text("l<>&A😀m\nn")])
        #expect(root.serialized() == "<a x=\"1&#10;2 3 4&quot;\" y=\"'\">l&lt;&gt;&amp;A😀m\nn</a>")
        #expect(try XMLDocumentParser.parse(root.serialized()).root == root)
        #expect(XMLElement(name: "e", children: [.text("\r")]).serialized() == "<e>&#13;</e>")
        // Attribute values read whole when nothing needs decoding or normalising, and by the byte
        // rules otherwise; both give what XML says.
        let attrs = try XMLDocumentParser.parse("<a p=\"1>2\" q='say \"hi\"' r=\"é\" s=\"a&amp;b\" t=\"x\ty\" u=\"\"/>").root.attributes
        #expect(attrs.map(\.name) == ["p", "q", "r", "s", "t", "u"])
        #expect(attrs.map(\.value) == ["1>2", "say \"hi\"", "é", "a&b", "x y", ""])
        #expect(throws: XMLParseError(line: 1, column: 10, message: "unterminated value of attribute 'p'")) {
            try XMLDocumentParser.parse("<a p=\"abc")
        }
        #expect(throws: XMLParseError(line: 1, column: 9, message: "'<' is not allowed in the value of attribute 'p'")) {
            try XMLDocumentParser.parse("<a p=\"ab<\"/>")
        }
        // Each escaped byte, in text and in an attribute value (which also escapes quote, tab and line feed).
        let special = "a&b<c>d\"e\tf\ng\rh"
        #expect(XMLElement(name: "e", attributes: [("v", special)], children: [.text(special)]).serialized()
                == "<e v=\"a&amp;b&lt;c&gt;d&quot;e&#9;f&#10;g&#13;h\">a&amp;b&lt;c&gt;d\"e\tf\ng&#13;h</e>")
    }

    /// Invalid documents: position and message of the error.
    @Test(arguments: [
        ("", 1, 1, "document has no root element"), ("<!DOCTYPE a><a/>", 1, 1, "DOCTYPE is not supported"),
        ("<a></b>", 1, 4, "end tag </b> does not match start tag <a> opened at 1:1"),
        ("<a>\n  <b>\n</a>", 3, 1, "end tag </a> does not match start tag <b> opened at 2:3"),
        ("<a b=\"1\" b='2'/>", 1, 10, "duplicate attribute 'b' in start tag <a>"),
        ("<a b=1/>", 1, 6, "value of attribute 'b' must be quoted, found '1'"),
        ("<a>\n<b>", 2, 4, "unclosed element <b> opened at 2:1"), ("<a/><b/>", 1, 5, "document has more than one root element"),
        ("<a/>x", 1, 5, "text is not allowed after the root element, found 'x'"), ("x<a/>", 1, 1, "text is not allowed before the root element, found 'x'"),
        ("<a>&nbsp;</a>", 1, 4, "unknown entity '&nbsp;'"), ("<a>&#0;</a>", 1, 4, "character reference to U+0000 is not a legal XML character"),
        ("<a>1 < 2</a>", 1, 7, "expected an element name after '<', found ' '"), ("<a b='<'/>", 1, 7, "'<' is not allowed in the value of attribute 'b'"),
        ("<a>]]></a>", 1, 4, "']]>' is not allowed in text"), ("<a><!-- x -- y --></a>", 1, 11, "'--' is not allowed inside a comment"),
        ("<a><![CDATA[x</a>", 1, 18, "unterminated CDATA section opened at 1:4"), ("<a b='1'c='2'/>", 1, 9, "expected whitespace, '>' or '/>' in start tag <a>, found 'c'"),
        (" <?xml version='1.0'?><a/>", 1, 2, "XML declaration is only allowed at the start of the document"),
        ("<?xml version='1.0' encoding='UTF-16'?><a/>", 1, 21, "unsupported encoding 'UTF-16' (only UTF-8 is supported)"),
        ("<a>\u{1}</a>", 1, 4, "character U+0001 is not allowed in XML"), ("<a>\u{FFFE}</a>", 1, 4, "character U+FFFE is not allowed in XML"), ("<a", 1, 3, "unexpected end of input in start tag <a>"),
    ])
    func xmlInvalidDocuments(input: String, line: Int, column: Int, message: String) {
        #expect(throws: XMLParseError(line: line, column: column, message: message)) { try XMLDocumentParser.parse(input) }
    }

    @Test func xmlInvalidUTF8AndDepthLimit() throws {
        #expect(throws: XMLParseError(line: 1, column: 4, message: "invalid UTF-8 byte 0xC0")) { try XMLDocumentParser.parse([0x3C, 0x61, 0x3E, 0xC0, 0x80]) }
        let ok = String(repeating: "<a>", count: 256) + String(repeating: "</a>", count: 256)
        let compact = String(repeating: "<a>", count: 255) + "<a/>" + String(repeating: "</a>", count: 255)
        #expect(try XMLDocumentParser.parse(ok).root.serialized() == compact)
        #expect(throws: XMLParseError(line: 1, column: 769, message: "element nesting depth exceeds 256")) {
            try XMLDocumentParser.parse(String(repeating: "<a>", count: 257) + String(repeating: "</a>", count: 257))
        }
        #expect(throws: XMLParseError.self) { try XMLDocumentParser.parse(String(repeating: "<a>", count: 100_000)) }
    }

    // MARK: - Fuzzing

    /// A tiny deterministic xorshift64 generator.
    private struct XorShift {
        var state: UInt64
        mutating func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Random byte strings over `alphabet`, and 1–4 random edits of the `seeds`.
    private static func fuzzInputs(seeds: [String], alphabet: String, count: Int, seed: UInt64) -> [[UInt8]] {
        var rng = XorShift(state: seed)
        let letters = Array(alphabet.utf8) + [0xC3, 0xA9, 0xFF, 0xED, 0xA0, 0x00]
        var inputs: [[UInt8]] = []
        for n in 0..<count {
            var bytes: [UInt8]
            if n % 2 == 0 {
                bytes = (0..<rng.below(24)).map { _ in letters[rng.below(letters.count)] }
            } else {
                bytes = Array(seeds[rng.below(seeds.count)].utf8)
                for _ in 0...rng.below(4) where !bytes.isEmpty {
                    let at = rng.below(bytes.count)
                    switch rng.below(4) {
                    case 0: bytes[at] = letters[rng.below(letters.count)]
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(letters[rng.below(letters.count)], at: at)
                    default: bytes.removeSubrange(at...)
                    }
                }
            }
            inputs.append(bytes)
        }
        return inputs
    }

    @Test func jsonFuzzNeverCrashesAndRoundTrips() throws {
        let seeds = [#"{"aps":{"alert":"From a: x","badge":9,"y":"z"}}"#, #"[1,-2.5e3,true,false,null,"\u00e9\n",{}]"#, #""abc""#]
        var outcomes = (valid: 0, invalid: 0)
        for input in Self.fuzzInputs(seeds: seeds, alphabet: "{}[],:\"\\ 0123456789-+.eEtrufalsnu\n", count: 4000, seed: 0x9E37_79B9_7F4A_7C15) {
            do {
                let value = try JSONParser.parse(input)
                outcomes.valid += 1
                #expect(try JSONParser.parse(value.serialized()) == value)
                #expect(try JSONParser.parse(value.serializedSortedKeys()).serializedSortedKeys() == value.serializedSortedKeys())
            } catch {
                outcomes.invalid += 1
                #expect((0...input.count).contains(error.offset) && error.line >= 1 && error.column >= 1 && !error.message.isEmpty)
            }
        }
        #expect(outcomes.valid > 100 && outcomes.invalid > 1000, "\(outcomes)")
    }

    @Test func xmlFuzzNeverCrashesAndRoundTrips() throws {
        let seeds = [Self.toast, "<?xml version='1.0'?><e a='1' b=\"&amp;\"><!--c--><x/>t&#65;<![CDATA[<]]></e>", "<a:b xmlns:a='u'>\n <c/>\n</a:b>"]
        var outcomes = (valid: 0, invalid: 0)
        for input in Self.fuzzInputs(seeds: seeds, alphabet: "<>/=\"'&;!-?[]ab:x# \n", count: 4000, seed: 0xD1B5_4A32_D192_ED03) {
            do {
                let root = try XMLDocumentParser.parse(input).root
                outcomes.valid += 1
                #expect(try XMLDocumentParser.parse(root.serialized()).root == root)
            } catch {
                outcomes.invalid += 1
                #expect(error.line >= 1 && error.column >= 1 && error.column <= input.count + 1 && !error.message.isEmpty)
            }
        }
        #expect(outcomes.valid > 100 && outcomes.invalid > 1000, "\(outcomes)")
    }

    // MARK: Base64 (RFC 4648 §10 test vectors; strict decoding)

    @Test func base64MatchesTheRFCVectors() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
            #expect(Base64URL.encode(plain) == encoded.replacingOccurrences(of: "=", with: ""))
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        let all = (0...255).map { UInt8($0) }
        #expect(Base64.decode(Base64.encode(all)) == all)
        #expect(Base64URL.decode(Base64URL.encode(all)) == all)
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test func base64DecodingIsStrict() {
        #expect(Base64.decode("Zm9v YmFy\r\n") == Array("foobar".utf8))   // white space skipped, as .NET does
        #expect(Base64.decode("Zm9v\u{A0}YmFy") == Array("foobar".utf8))   // Unicode white space too
        #expect(Base64.decode("Zm9vYg=") == nil)        // not a multiple of 4
        #expect(Base64.decode("Zm9vY===") == nil)       // three padding characters
        #expect(Base64.decode("Zm=vYg==") == nil)       // padding inside
        #expect(Base64.decode("-_8=") == nil)           // the URL alphabet
        #expect(Base64.decode("Zm9é") == nil)           // outside the alphabet
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("Z") == nil)           // a lone digit spells no byte
        #expect(Base64URL.decode("Zg") == [UInt8(ascii: "f")])
    }
}
