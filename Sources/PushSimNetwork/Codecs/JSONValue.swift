import PushSimKernel

/// A JSON value, as parsed by `JSONParser` or built by hand, and its compact writer.
///
/// Objects keep their members in document order, duplicates included, so an injected
/// duplicate key is seen exactly as a real receiver would see it. Equality is structural and
/// exact: strings and keys are equal only when their Unicode scalars are identical (no
/// normalization), numbers only when their literal text is identical (`1` differs from `1.0`).
public enum JSONValue: Equatable, Sendable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text so `1` and `1.0` round-trip unchanged.
    case number(JSONNumber)
    /// A string, its Unicode scalars kept exactly (no normalisation).
    case string(String)
    /// An array, elements in order.
    case array([JSONValue])
    /// Members in stored order, duplicate keys included.
    case object([(String, JSONValue)])

    /// Structural equality; objects are compared member by member, in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a.sameBytes(as: b)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where !x.0.sameBytes(as: y.0) || x.1 != y.1 { return false }
            return true
        default: return false
        }
    }

    /// The compact serialization (same as `serialized()`).
    public var description: String { serialized() }
}

/// A JSON number kept as its literal text, with lossless conversions on demand.
public struct JSONNumber: Equatable, Sendable, CustomStringConvertible {
    /// The literal text, e.g. `-12`, `1.0` or `6.02e23`. It is written out verbatim, so text
    /// set by hand must follow the JSON number grammar.
    public var text: String

    /// The value when `text` is an integer literal (no fraction or exponent) that fits.
    public var int64: Int64? {
        if text.containsByte(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            return nil
        }
        return Int64(text, radix: 10)
    }

    /// The nearest `Double` (infinite when the exponent is out of range), nil if not a number.
    public var double: Double? { Double(text) }

    /// The number with the decimal text of `i`.
    public init(_ i: Int64) { text = String(i) }

    /// The number with literal `text`, taken verbatim (not validated).
    public init(text: String) { self.text = text }

    /// The literal text.
    public var description: String { text }
}

extension JSONValue {
    /// The value of the FIRST member named `key` (exact scalar match); nil if there is none
    /// or this is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0.sameBytes(as: key) })?.1
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s } else { return nil }
    }

    /// The number, if this is a number.
    public var numberValue: JSONNumber? {
        if case .number(let n) = self { return n } else { return nil }
    }

    /// The number as `Int64`, if this is an integer literal that fits (see `JSONNumber.int64`).
    public var int64Value: Int64? { numberValue?.int64 }

    /// The number as `Double`, if this is a number.
    public var doubleValue: Double? { numberValue?.double }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b } else { return nil }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a } else { return nil }
    }

    /// The members in stored order (duplicates included), if this is an object.
    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let m) = self { return m } else { return nil }
    }

    /// An object with `pairs` in literal order: `.object(["a": 1, "b": .null])`.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { ($0.key, $0.value) })
    }

    /// Compact serialization, members in stored order, no spaces: `{"a":1,"b":[true,null]}`.
    public func serialized() -> String {
        var writer = JSONWriter(sortKeys: false)
        writer.write(self)
        return String(decoding: writer.out, as: UTF8.self)
    }

    /// ``serialized()`` as UTF-8 bytes, without going through a `String`.
    public func serializedBytes() -> [UInt8] {
        var writer = JSONWriter(sortKeys: false)
        writer.write(self)
        return writer.out
    }

    /// Compact serialization with the keys of every object sorted by their UTF-8 bytes
    /// (that is, by code point); members with equal keys keep their stored order.
    public func serializedSortedKeys() -> String {
        var writer = JSONWriter(sortKeys: true)
        writer.write(self)
        return String(decoding: writer.out, as: UTF8.self)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer number value.
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    /// A Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array value.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object value; members keep literal order, duplicates included.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}


/// Writes compact JSON into a byte buffer.
private struct JSONWriter {
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    let sortKeys: Bool
    var out: [UInt8] = []

    /// Room for 64 bytes is made at once: most documents written per message are small, and
    /// growing from empty reallocated them several times.
    init(sortKeys: Bool) {
        self.sortKeys = sortKeys
        out.reserveCapacity(64)
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.appendUTF8(n.text)
        case .string(let s): writeString(s)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                write(item)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let ordered = sortKeys ? Self.sorted(members) : members
            for (k, member) in ordered.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.0)
                out.append(UInt8(ascii: ":"))
                write(member.1)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Members sorted by key bytes, ties kept in stored order.
    static func sorted(_ members: [(String, JSONValue)]) -> [(String, JSONValue)] {
        members.enumerated().sorted { a, b in
            let (ka, kb) = (a.element.0.utf8, b.element.0.utf8)
            if ka.elementsEqual(kb) { return a.offset < b.offset }
            return ka.lexicographicallyPrecedes(kb)
        }.map(\.element)
    }

    /// A quoted string: `"` and `\` escaped, control characters as short or `\u00XX` escapes.
    /// Runs that need no escape (nearly all text) are copied whole.
    mutating func writeString(_ s: String) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            // Runs of eight bytes that need no escape are passed whole; the word where a run
            // stops is read byte by byte, up to `wordEnd`.
            var run = 0, k = 0, wordEnd = 0
            while k < bytes.count {
                if k >= wordEnd {
                    k = ByteWord.skipPlainText(in: UnsafeRawBufferPointer(bytes), from: k)
                    wordEnd = k + 8
                    guard k < bytes.count else { break }
                }
                let b = bytes[k]
                guard b.isJSONEscaped else { k += 1; continue }
                if k > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<k])) }
                k += 1
                run = k
                out.append(0x5C)
                switch b {
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0..<0x20:
                    out.append(contentsOf: "u00".utf8)
                    out.append(Self.hexDigits[Int(b >> 4)])
                    out.append(Self.hexDigits[Int(b & 0xF)])
                default: out.append(b)
                }
            }
            if bytes.count > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
