import PushSimKernel

/// Why and where an XML document was rejected.
package struct XMLParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Line, 1-based; LF, CR LF and a lone CR each end a line.
    public var line: Int
    /// Column, 1-based, in bytes.
    public var column: Int
    /// What was wrong, e.g. `end tag </b> does not match start tag <a> opened at 1:1`.
    public var message: String

    /// An error at the given position.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A minimal non-validating XML 1.0 parser for small UTF-8 documents.
///
/// Accepts an optional UTF-8 byte order mark and `<?xml …?>` declaration (encoding UTF-8 or
/// US-ASCII), comments and processing instructions (skipped) and CDATA sections (become
/// text). Rejects DOCTYPE, unknown entities, raw `<` or `&` in text, mismatched, unclosed or
/// duplicate parts, and anything but whitespace, comments and processing instructions around
/// the single root element. Whitespace-only text inside the root is kept; adjacent text and
/// CDATA (even across a comment) form one text node. Line ends are normalized to LF, and
/// attribute values get XML's whitespace normalization. Iterative: no input exhausts the stack.
package enum XMLDocumentParser {
    /// Deepest allowed element nesting (the root is depth 1).
    public static let maxDepth = 256

    /// Parses a document from UTF-8 `bytes`.
    public static func parse(_ bytes: [UInt8]) throws(XMLParseError) -> XMLDocument {
        // Read in place: the scanner indexes a buffer pointer, without the array's retains and
        // bounds checks on every byte.
        try bytes.withUnsafeBufferPointer { buffer throws(XMLParseError) in
            var scanner = XMLScanner(bytes: buffer)
            return try scanner.parseDocument()
        }
    }

    /// Parses a document from `text` (columns count its UTF-8 bytes).
    public static func parse(_ text: String) throws(XMLParseError) -> XMLDocument {
        try parse(Array(text.utf8))
    }
}

/// The parser's state: input, read index, open elements and the pending text run.
private struct XMLScanner {
    /// The input, valid for the scanner's life (``XMLDocumentParser/parse(_:)-([UInt8])`` lends it).
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    /// Open elements (children so far) with the offset of their start tag.
    var stack: [(element: XMLElement, offset: Int)] = []
    var text: [UInt8] = []

    mutating func parseDocument() throws(XMLParseError) -> XMLDocument {
        try checkCharacters()
        // Room for the nesting of the documents PushSim reads (a toast is four deep), so that the
        // stack is allocated once instead of regrown at each new depth.
        stack.reserveCapacity(8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        if has("<?xml"), [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?")].contains(byte(at: i + 5)) { try parseDeclaration() }
        try skipMisc(beforeRoot: true)
        while true {
            guard i < bytes.count else {
                guard let open = stack.last else { throw fail("document has no root element") }
                throw fail("unclosed element <\(open.element.name)> opened at \(place(open.offset))")
            }
            guard bytes[i] == UInt8(ascii: "<") else { try scanText(); continue }
            var finished: XMLElement?
            let start = i
            // The byte after `<` tells the markup apart (0 past the end: a start tag, which then fails).
            switch byte(at: i + 1) {
            case UInt8(ascii: "/"): flushText(); finished = try parseEndTag()
            case UInt8(ascii: "!"):
                if has("<!--") { try skipComment() }
                else if has("<![CDATA[") {
                    i += 9
                    appendNormalized(start + 9..<(try skip(past: "]]>", what: "CDATA section", openedAt: start)), to: &text)
                } else {
                    throw fail(has("<!DOCTYPE") ? "DOCTYPE is not supported" : "expected '<!--' or '<![CDATA[' after '<!'")
                }
            case UInt8(ascii: "?"): try skipProcessingInstruction()
            default: flushText(); finished = try parseStartTag()
            }
            if let root = finished { try skipMisc(beforeRoot: false); return XMLDocument(root: root) }
        }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`: pseudo-attributes in this
    /// order, version required, encoding (if given) UTF-8 or US-ASCII.
    mutating func parseDeclaration() throws(XMLParseError) {
        let start = i
        i += 5
        var names: [String] = []
        while skipSpaces() && !has("?>") {
            let at = i
            let (name, value) = try parseAttribute()
            names.append(name)
            guard names == ["version", "encoding", "standalone"].filter(names.contains) else {
                throw fail("unexpected '\(name)' in XML declaration", at: at)
            }
            if name == "encoding" && !["utf-8", "us-ascii"].contains(value.lowercased()) {
                throw fail("unsupported encoding '\(value)' (only UTF-8 is supported)", at: at)
            }
        }
        guard has("?>") else {
            throw fail(i < bytes.count ? "expected whitespace or '?>' in XML declaration, found \(found())"
                       : "unterminated XML declaration opened at \(place(start))")
        }
        guard names.first == "version" else { throw fail("XML declaration must start with version", at: start) }
        i += 2
    }

    /// Whitespace, comments and processing instructions before or after the root.
    mutating func skipMisc(beforeRoot: Bool) throws(XMLParseError) {
        while i < bytes.count {
            if skipSpaces() { continue }
            if has("<!--") { try skipComment(); continue }
            if has("<?") { try skipProcessingInstruction(); continue }
            if has("<!DOCTYPE") { throw fail("DOCTYPE is not supported") }
            if bytes[i] == UInt8(ascii: "<") {
                let element = isNameStart(byte(at: i + 1))
                if beforeRoot && element { return }
                throw fail(beforeRoot ? "expected the root element's start tag, found \(found(at: i + 1)) after '<'"
                           : element ? "document has more than one root element" : "markup is not allowed after the root element")
            }
            throw fail("text is not allowed \(beforeRoot ? "before" : "after") the root element, found \(found())")
        }
    }

    /// A start tag at `<`; returns the element if it was self-closing and completes the root.
    mutating func parseStartTag() throws(XMLParseError) -> XMLElement? {
        let start = i
        i += 1
        var element = XMLElement(name: try parseName("an element name after '<'"))
        guard stack.count < XMLDocumentParser.maxDepth else {
            throw fail("element nesting depth exceeds \(XMLDocumentParser.maxDepth)", at: start)
        }
        while true {
            let spaced = skipSpaces()
            if byte(at: i) == UInt8(ascii: ">") { i += 1; stack.append((element, start)); return nil }
            if byte(at: i) == UInt8(ascii: "/") && byte(at: i + 1) == UInt8(ascii: ">") { i += 2; return attach(element) }
            guard i < bytes.count else { throw fail("unexpected end of input in start tag <\(element.name)>") }
            guard spaced, byte(at: i) != UInt8(ascii: "/") else {
                throw fail("expected whitespace, '>' or '/>' in start tag <\(element.name)>, found \(found())")
            }
            let at = i
            let attribute = try parseAttribute()
            guard element.attribute(attribute.name) == nil else {
                throw fail("duplicate attribute '\(attribute.name)' in start tag <\(element.name)>", at: at)
            }
            element.attributes.append(attribute)
        }
    }

    /// An end tag at `</`; returns the root if this closed it.
    mutating func parseEndTag() throws(XMLParseError) -> XMLElement? {
        let start = i
        i += 2
        // The name is compared in place with the start tag's: a string is made only for an error.
        let name = try scanName("an element name after '</'")
        skipSpaces()
        guard byte(at: i) == UInt8(ascii: ">") else { throw fail("expected '>' to close end tag </\(string(name))>, found \(found())") }
        i += 1
        let open = stack.removeLast()
        guard open.element.name.utf8.count == name.count, sameBytes(open.element.name, name) else {
            throw fail("end tag </\(string(name))> does not match start tag <\(open.element.name)> opened at \(place(open.offset))", at: start)
        }
        return attach(open.element)
    }

    /// Adds a finished element to its parent, or returns it when it is the root.
    mutating func attach(_ element: XMLElement) -> XMLElement? {
        guard !stack.isEmpty else { return element }
        stack[stack.count - 1].element.children.append(.element(element))
        return nil
    }

    /// `name = "value"` or `name = 'value'`, with references decoded and whitespace normalized.
    mutating func parseAttribute() throws(XMLParseError) -> (name: String, value: String) {
        let name = try parseName("an attribute name")
        skipSpaces()
        guard has("=") else { throw fail("expected '=' after attribute name '\(name)', found \(found())") }
        i += 1
        skipSpaces()
        let quote = byte(at: i)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw fail("value of attribute '\(name)' must be quoted, found \(found())")
        }
        i += 1
        // Most values hold no reference, `<` or white space to normalise: one string from the bytes.
        var end = i
        while end < bytes.count, bytes[end] != quote, bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "<"),
              bytes[end] >= 0x20 {
            end += 1
        }
        if end < bytes.count, bytes[end] == quote {
            let value = string(i..<end)
            i = end + 1
            return (name, value)
        }
        var value: [UInt8] = []
        while byte(at: i) != quote {
            switch byte(at: i) {
            case 0 where i >= bytes.count: throw fail("unterminated value of attribute '\(name)'")
            case UInt8(ascii: "<"): throw fail("'<' is not allowed in the value of attribute '\(name)'")
            case UInt8(ascii: "&"): value.append(contentsOf: try decodeReference().utf8)
            case 0x09, 0x0A: value.append(0x20); i += 1
            case 0x0D: value.append(0x20); i += byte(at: i + 1) == 0x0A ? 2 : 1
            case let b: value.append(b); i += 1
            }
        }
        i += 1
        return (name, String(decoding: value, as: UTF8.self))
    }

    /// Character data up to the next `<`, into the pending text run.
    mutating func scanText() throws(XMLParseError) {
        while i < bytes.count, bytes[i] != UInt8(ascii: "<") {
            let start = i
            while i < bytes.count, bytes[i] != 0x3C && bytes[i] != 0x26 && bytes[i] != 0x5D { i += 1 }  // < & ]
            appendNormalized(start..<i, to: &text)
            if has("&") { text.append(contentsOf: try decodeReference().utf8) }
            if has("]]>") { throw fail("']]>' is not allowed in text") }
            if has("]") { text.append(UInt8(ascii: "]")); i += 1 }
        }
    }

    /// Appends `range` of the input with CR LF and lone CR turned into LF.
    func appendNormalized(_ range: Range<Int>, to buffer: inout [UInt8]) {
        let run = UnsafeBufferPointer(rebasing: bytes[range])
        if !run.contains(0x0D) { return buffer.append(contentsOf: run) }
        for k in range where bytes[k] != 0x0D || k + 1 == range.upperBound || bytes[k + 1] != 0x0A {
            buffer.append(bytes[k] == 0x0D ? 0x0A : bytes[k])
        }
    }

    /// Ends the pending text run as a text node of the innermost open element.
    mutating func flushText() {
        guard !text.isEmpty, !stack.isEmpty else { return }
        stack[stack.count - 1].element.children.append(.text(String(decoding: text, as: UTF8.self)))
        text.removeAll(keepingCapacity: true)
    }

    /// The character of `&name;`, `&#NNN;` or `&#xHH;` at `&`.
    mutating func decodeReference() throws(XMLParseError) -> Unicode.Scalar {
        let start = i
        i += 1
        if has("#") {
            let radix: UInt32 = byte(at: i + 1) == UInt8(ascii: "x") ? 16 : 10
            i += radix == 16 ? 2 : 1
            var value: UInt32 = 0
            let digitsStart = i
            while let d = digitValue(byte(at: i), radix: radix) { value = min(value * radix + d, 0x110000); i += 1 }
            guard i > digitsStart, has(";") else { throw fail("malformed character reference", at: start) }
            i += 1
            guard isXMLChar(value), let scalar = Unicode.Scalar(value) else {
                throw fail("character reference to \(codePoint(value)) is not a legal XML character", at: start)
            }
            return scalar
        }
        let nameStart = i
        while i < bytes.count, isNameChar(bytes[i]) { i += 1 }
        guard i > nameStart, has(";") else { throw fail("unescaped '&' (write '&amp;')", at: start) }
        i += 1
        let name = String(decoding: bytes[nameStart..<i - 1], as: UTF8.self)
        guard let scalar = XMLScanner.predefinedEntities[name] else { throw fail("unknown entity '&\(name);'", at: start) }
        return scalar
    }

    /// XML's five predefined entities; there are no others without a DTD.
    static let predefinedEntities: [String: Unicode.Scalar] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]

    /// A comment at `<!--`; `--` may only appear in its closing `-->`.
    mutating func skipComment() throws(XMLParseError) {
        let start = i
        i += 4
        let end = try skip(past: "--", what: "comment", openedAt: start)
        guard has(">") else { throw fail("'--' is not allowed inside a comment", at: end) }
        i += 1
    }

    /// A processing instruction at `<?`, skipped; its target may not be `xml`.
    mutating func skipProcessingInstruction() throws(XMLParseError) {
        let start = i
        i += 2
        let target = try parseName("a processing instruction target after '<?'")
        if target.lowercased() == "xml" { throw fail("XML declaration is only allowed at the start of the document", at: start) }
        guard has("?>") || skipSpaces() else { throw fail("expected whitespace or '?>' after processing instruction target, found \(found())") }
        _ = try skip(past: "?>", what: "processing instruction", openedAt: start)
    }

    /// Moves past the next `terminator`; returns the offset where it began.
    mutating func skip(past terminator: String, what: String, openedAt start: Int) throws(XMLParseError) -> Int {
        while !has(terminator) {
            guard i < bytes.count else { throw fail("unterminated \(what) opened at \(place(start))") }
            i += 1
        }
        i += terminator.utf8.count
        return i - terminator.utf8.count
    }

    /// A name: ASCII letters, `_`, `:` or any non-ASCII character, then also digits, `-`, `.`.
    mutating func parseName(_ what: String) throws(XMLParseError) -> String { string(try scanName(what)) }

    /// Passes over a name and returns where it lies (``parseName(_:)`` without making the string).
    mutating func scanName(_ what: String) throws(XMLParseError) -> Range<Int> {
        let start = i
        guard isNameStart(byte(at: i)) else { throw fail("expected \(what), found \(found())") }
        while i < bytes.count, isNameChar(bytes[i]) { i += 1 }
        return start..<i
    }

    /// Whether `text`'s UTF-8 bytes are the input's bytes in `range` (of the same length).
    func sameBytes(_ text: String, _ range: Range<Int>) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { t in
            range.isEmpty || bytesEqual(bytes.baseAddress! + range.lowerBound, t.baseAddress!, count: range.count)
        } ?? text.utf8.elementsEqual(bytes[range])
    }

    /// The input bytes in `range` as a string (valid UTF-8: ``checkCharacters()`` passed).
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Rejects invalid UTF-8 and characters outside XML's `Char` production anywhere.
    func checkCharacters() throws(XMLParseError) {
        // Fast path: registration bodies are ASCII; a byte of 0x20...0x7E, tab, LF or CR is a
        // whole, allowed character. Only a document with another byte is decoded scalar by scalar.
        // Eight bytes at a time first (a toast or an entry written on one line has no tab or line end).
        let plainASCII = ByteWord.allPrintableASCII(UnsafeRawBufferPointer(bytes))
            || bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if plainASCII { return }
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var k = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let v = Unicode.UTF8.decode(encoded).value
                guard isXMLChar(v) else {
                    throw fail("character \(codePoint(v)) is not allowed in XML", at: k)
                }
                k += encoded.count
            case .error: throw fail("invalid UTF-8 \(found(at: k))", at: k)
            case .emptyInput: return
            }
        }
    }

    func isXMLChar(_ v: UInt32) -> Bool {
        v >= 0x20 ? (v <= 0xD7FF || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)) : (v == 0x9 || v == 0xA || v == 0xD)
    }

    /// `U+XXXX`, at least four hex digits.
    func codePoint(_ v: UInt32) -> String { unicodeCodePoint(v) }

    func digitValue(_ b: UInt8, radix: UInt32) -> UInt32? {
        if b >= 0x30 && b <= 0x39 { return UInt32(b - 0x30) }
        if radix == 16 && b | 0x20 >= 0x61 && b | 0x20 <= 0x66 { return UInt32(b | 0x20) - 0x61 + 10 }
        return nil
    }

    /// Letters, `_`, `:` and every byte of a multi-byte sequence: one bit per ASCII byte, in a word
    /// for 0–63 and one for 64–127 (`nameStartLow`, `nameStartHigh` below).
    func isNameStart(_ b: UInt8) -> Bool {
        b >= 0x80 || (b < 64 ? Self.nameStartLow >> UInt64(b) : Self.nameStartHigh >> UInt64(b &- 64)) & 1 != 0
    }
    /// ``isNameStart(_:)``, digits, `-` and `.`: those are all below 64, so only the low word differs.
    func isNameChar(_ b: UInt8) -> Bool {
        b >= 0x80 || (b < 64 ? Self.nameCharLow >> UInt64(b) : Self.nameStartHigh >> UInt64(b &- 64)) & 1 != 0
    }
    /// `:` (0x3A).
    static var nameStartLow: UInt64 { 1 << 0x3A }
    /// `:`, `-` (0x2D), `.` (0x2E), `0`–`9` (0x30–0x39).
    static var nameCharLow: UInt64 { 1 << 0x3A | 1 << 0x2D | 1 << 0x2E | 0x3FF << 0x30 }
    /// `A`–`Z` (0x41–0x5A), `_` (0x5F), `a`–`z` (0x61–0x7A), as bits above 64.
    static var nameStartHigh: UInt64 { 0x3FF_FFFF << (0x41 - 64) | 1 << (0x5F - 64) | 0x3FF_FFFF << (0x61 - 64) }

    /// The byte at `k`, or 0 past the end (0 never occurs in accepted input).
    func byte(at k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }

    /// Whether the input continues with `prefix`'s bytes (compared in place: the generic
    /// `elementsEqual` over a slice and a `utf8` view costs some 40 instructions a byte).
    func has(_ prefix: String) -> Bool {
        let n = prefix.utf8.count
        guard bytes.count - i >= n else { return false }
        if let same = prefix.utf8.withContiguousStorageIfAvailable({ p in n == 0 || bytesEqual(bytes.baseAddress! + i, p.baseAddress!, count: n) }) {
            return same
        }
        return bytes[i..<i + n].elementsEqual(prefix.utf8)
    }

    @discardableResult
    mutating func skipSpaces() -> Bool {
        let start = i
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        return i > start
    }

    /// The byte at `k` for a message: `'x'`, `byte 0xNN` or `end of input`.
    func found(at k: Int? = nil) -> String {
        let k = k ?? i
        guard k < bytes.count else { return "end of input" }
        let b = bytes[k]
        return (0x20..<0x7F).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    /// `line:column` of `offset`.
    func place(_ offset: Int) -> String { let e = fail("", at: offset); return "\(e.line):\(e.column)" }

    /// An error at `at` (default: the read index).
    func fail(_ message: String, at k: Int? = nil) -> XMLParseError {
        let offset = min(k ?? i, bytes.count)
        var (line, lineStart) = (1, 0)
        for j in 0..<offset where bytes[j] == 0x0A || (bytes[j] == 0x0D && byte(at: j + 1) != 0x0A) {
            (line, lineStart) = (line + 1, j + 1)
        }
        return XMLParseError(line: line, column: offset - lineStart + 1, message: message)
    }
}
