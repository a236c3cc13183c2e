import PushSimKernel

/// Why and where a JSON document was rejected.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset into the UTF-8 input, 0-based (the input's length at end of input).
    public var offset: Int
    /// Line, 1-based; LF, CR LF and a lone CR each end a line.
    public var line: Int
    /// Column, 1-based, in bytes.
    public var column: Int
    /// What was wrong, e.g. `expected ',' or '}' after object member, found '"'`.
    public var message: String

    /// An error at the given position.
    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C (offset O): message`.
    public var description: String { "line \(line), column \(column) (offset \(offset)): \(message)" }
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// One top-level value of any type with optional surrounding whitespace; no comments,
/// trailing commas, leading zeros, NaN or byte order mark; strings must be valid UTF-8 with
/// no raw control characters and no lone surrogate escapes. Nesting deeper than `maxDepth`
/// is an error. The parser is iterative, so no input can exhaust the stack.
public enum JSONParser {
    /// Deepest allowed nesting of arrays and objects (the top-level container is depth 1).
    public static let maxDepth = 512

    /// Parses one JSON document from UTF-8 `bytes`.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        // Read in place: the scanner indexes a buffer pointer, without the array's retains and
        // bounds checks on every byte.
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var scanner = JSONScanner(bytes: buffer)
            return try scanner.parseDocument()
        }
    }

    /// Parses one JSON document from `text` (error offsets count its UTF-8 bytes).
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON document from any collection of UTF-8 bytes.
    public static func parse<C: Collection>(utf8 bytes: C) throws(JSONParseError) -> JSONValue
    where C.Element == UInt8 {
        try parse(Array(bytes))
    }
}

/// The parser's state: the input, a read index, and the open containers.
private struct JSONScanner {
    /// One open array or object.
    struct Frame {
        var isObject: Bool
        var items: [JSONValue] = []
        var members: [(String, JSONValue)] = []
        var key = ""

        /// A container known to hold at least one value: room for four is made at once (most
        /// hold one to four), where growing one value at a time reallocated about twice.
        init(isObject: Bool) {
            self.isObject = isObject
            if isObject { members.reserveCapacity(4) } else { items.reserveCapacity(4) }
        }
    }

    /// The input, valid for the scanner's life (``JSONParser/parse(_:)-([UInt8])`` lends it).
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    /// A string's bytes once it has an escape (strings without one are made from the input).
    var scratch: [UInt8] = []

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw fail("byte order mark is not allowed") }
        var stack: [Frame] = []
        var value: JSONValue
        nextValue: while true {
            skipWhitespace()
            guard i < bytes.count else { throw fail("unexpected end of input, expected a JSON value") }
            switch bytes[i] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard stack.count < JSONParser.maxDepth else {
                    throw fail("nesting depth exceeds \(JSONParser.maxDepth)")
                }
                let isObject = bytes[i] == UInt8(ascii: "{")
                i += 1
                skipWhitespace()
                if peek(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { i += 1; value = isObject ? .object([]) : .array([]); break }
                // Room for four levels at the first container (push payloads nest two or three
                // deep), so that the stack is not regrown at each new depth.
                if stack.isEmpty { stack.reserveCapacity(4) }
                stack.append(Frame(isObject: isObject))
                if isObject { stack[stack.count - 1].key = try parseKey(after: "'{'", or: "'}'") }
                continue nextValue
            case UInt8(ascii: "\""): value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
            case UInt8(ascii: "t"): try expectLiteral("true"); value = .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); value = .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); value = .null
            default: throw fail("expected a JSON value, found \(found())")
            }
            // A value is complete: hand it to the innermost container, closing containers.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    guard i == bytes.count else { throw fail("unexpected \(found()) after the JSON value") }
                    return value
                }
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject { stack[top].members.append((stack[top].key, value)) } else { stack[top].items.append(value) }
                let (closer, kind, part) = isObject ? (UInt8(ascii: "}"), "an object", "object member") : (UInt8(ascii: "]"), "an array", "array element")
                skipWhitespace()
                if peek(UInt8(ascii: ",")) {
                    i += 1
                    skipWhitespace()
                    if peek(closer) { throw fail("trailing comma is not allowed in \(kind)") }
                    if isObject { stack[top].key = try parseKey(after: "','", or: nil) }
                    continue nextValue
                }
                guard peek(closer) else {
                    throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))' after \(part), found \(found())")
                }
                i += 1
                let frame = stack.removeLast()
                value = isObject ? .object(frame.members) : .array(frame.items)
            }
        }
    }

    /// A member key and its `:`, after `{` or `,` (and whitespace) was consumed.
    mutating func parseKey(after what: String, or closer: String?) throws(JSONParseError) -> String {
        guard peek(UInt8(ascii: "\"")) else {
            let alternatives = closer.map { "string key or \($0)" } ?? "string key"
            throw fail("expected \(alternatives) after \(what), found \(found())")
        }
        let key = try parseString()
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { throw fail("expected ':' after object key, found \(found())") }
        i += 1
        return key
    }

    /// A string starting at the opening quote; builds a copy only when it has escapes.
    mutating func parseString() throws(JSONParseError) -> String {
        let open = i
        i += 1
        var start = i
        var escaped = false
        // Runs of eight plain bytes are passed at once (tokens in push payloads run to 200
        // bytes); the word where a run stops is read byte by byte, up to `wordEnd`.
        var wordEnd = i
        while i < bytes.count {
            if i >= wordEnd {
                i = ByteWord.skipPlainText(in: UnsafeRawBufferPointer(bytes), from: i)
                wordEnd = i + 8
                guard i < bytes.count else { break }
            }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                let end = i
                i += 1
                if !escaped { return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                if !escaped { scratch.removeAll(keepingCapacity: true) }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                escaped = true
                try parseEscape()
                start = i
            case 0..<0x20:
                throw fail("control character \(hexByte(b)) must be escaped in a string")
            case 0x20..<0x80:
                i += 1
            default:
                guard let length = utf8SequenceLength(at: i) else { throw fail("invalid UTF-8 \(hexByte(b)) in string") }
                i += length
            }
        }
        let opened = fail("", at: open)
        throw fail("unterminated string starting at \(opened.line):\(opened.column)")
    }

    /// One escape sequence at the backslash; appends its UTF-8 to `scratch`.
    mutating func parseEscape() throws(JSONParseError) {
        guard i + 1 < bytes.count else { i += 1; throw fail("unterminated escape sequence") }
        let simple: UInt8?
        switch bytes[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = bytes[i + 1]
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw fail("invalid escape sequence '\\' followed by \(found(at: i + 1))")
        }
        if let simple { scratch.append(simple); i += 2; return }
        let first = try hex4(at: i)
        var scalar = first
        if (0xDC00...0xDFFF).contains(first) { throw fail("lone low surrogate in \\u escape") }
        if (0xD800...0xDBFF).contains(first) {
            var second: UInt32 = 0
            if bytes[i + 6..<min(i + 8, bytes.count)].elementsEqual("\\u".utf8) { second = try hex4(at: i + 6) }
            guard (0xDC00...0xDFFF).contains(second) else {
                throw fail("high surrogate in \\u escape is not followed by a low surrogate escape")
            }
            scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            i += 6
        }
        if let scalar = Unicode.Scalar(scalar) { scratch.append(contentsOf: scalar.utf8) }  // always valid here
        i += 6
    }

    /// The four hex digits of the `\u` escape whose backslash is at `at`.
    func hex4(at start: Int) throws(JSONParseError) -> UInt32 {
        var v: UInt32 = 0
        for k in start + 2..<start + 6 {
            let b = k < bytes.count ? bytes[k] : 0
            let digit = (0x30...0x39).contains(b) ? b - 0x30 : (0x61...0x66).contains(b | 0x20) ? (b | 0x20) - 0x61 + 10 : nil
            guard let digit else { throw fail("expected 4 hex digits in \\u escape, found \(found(at: k))", at: k) }
            v = v << 4 | UInt32(digit)
        }
        return v
    }

    /// A number literal: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = i
        if peek(UInt8(ascii: "-")) { i += 1 }
        if peek(UInt8(ascii: "0")) {
            i += 1
            if peekDigit() { throw fail("leading zeros are not allowed in numbers") }
        } else {
            guard peekDigit() else { throw fail("expected a digit after '-', found \(found())") }
            while peekDigit() { i += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            i += 1
            guard peekDigit() else { throw fail("expected a digit after the decimal point, found \(found())") }
            while peekDigit() { i += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            i += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { i += 1 }
            guard peekDigit() else { throw fail("expected a digit in the exponent, found \(found())") }
            while peekDigit() { i += 1 }
        }
        return JSONNumber(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
    }

    /// `true`, `false` or `null`, exactly.
    mutating func expectLiteral(_ word: String) throws(JSONParseError) {
        let count = word.utf8.count
        guard bytes[i..<min(i + count, bytes.count)].elementsEqual(word.utf8) else {
            throw fail("invalid literal, expected '\(word)'")
        }
        i += count
    }

    mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    func peek(_ byte: UInt8) -> Bool { i < bytes.count && bytes[i] == byte }

    func peekDigit() -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }

    /// The byte at `at` for a message: `'x'`, `byte 0xNN` or `end of input`.
    func found(at k: Int? = nil) -> String {
        let k = k ?? i
        guard k < bytes.count else { return "end of input" }
        let b = bytes[k]
        return (0x20..<0x7F).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : hexByte(b)
    }

    func hexByte(_ b: UInt8) -> String { "byte 0x" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true) }

    /// An error at `at` (default: the read index).
    func fail(_ message: String, at k: Int? = nil) -> JSONParseError {
        let offset = min(k ?? i, bytes.count)
        var (line, lineStart) = (1, 0)
        for j in 0..<offset where bytes[j] == 0x0A || (bytes[j] == 0x0D && (j + 1 == bytes.count || bytes[j + 1] != 0x0A)) {
            (line, lineStart) = (line + 1, j + 1)
        }
        return JSONParseError(offset: offset, line: line, column: offset - lineStart + 1, message: message)
    }

    /// Length of the well-formed UTF-8 sequence at `k` (RFC 3629: no overlongs, surrogates
    /// or values above U+10FFFF), or nil.
    func utf8SequenceLength(at k: Int) -> Int? {
        let b0 = bytes[k]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b0 {
        case 0x00..<0x80: return 1
        case 0xC2..<0xE0: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1..<0xF0: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1..<0xF4: length = 4
        default: return nil
        }
        guard k + length <= bytes.count, (low...high).contains(bytes[k + 1]) else { return nil }
        for j in k + 2..<k + length where bytes[j] & 0xC0 != 0x80 { return nil }
        return length
    }
}
