import PushSimKernel

/// An XML element: its qualified name, attributes and children, and its writer.
///
/// Names are kept as written (`entry`, `i:nil`); namespaces are not resolved. Equality is
/// exact: names, attribute pairs (in order) and text compare by Unicode scalars, without
/// normalization.
package struct XMLElement: Equatable, Sendable, CustomStringConvertible {
    /// The qualified name as written, e.g. `entry` or `i:nil`.
    public var name: String
    /// Attributes in document order, values with entities decoded.
    public var attributes: [(name: String, value: String)]
    /// Child elements and text, in document order.
    public var children: [XMLNode]

    /// An element with the given parts.
    public init(name: String, attributes: [(name: String, value: String)] = [], children: [XMLNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The value of the attribute with qualified name `name`, or nil.
    public func attribute(_ name: String) -> String? {
        attributes.first(where: { $0.name.sameBytes(as: name) })?.value
    }

    /// The child elements, without text.
    public var elements: [XMLElement] {
        children.compactMap { if case .element(let e) = $0 { e } else { nil } }
    }

    /// The first child element whose qualified name is `name` or, when `name` has no prefix,
    /// whose local name (the part after ':') is `name`.
    public func first(_ name: String) -> XMLElement? {
        let matchLocal = !name.containsByte(where: { $0 == UInt8(ascii: ":") })
        for case .element(let e) in children {
            if e.name.sameBytes(as: name) { return e }
            if matchLocal, let colon = e.name.utf8.lastIndex(of: UInt8(ascii: ":")),
               e.name.utf8[e.name.utf8.index(after: colon)...].elementsEqual(name.utf8) {
                return e
            }
        }
        return nil
    }

    /// The text and CDATA content of the direct children, concatenated.
    public var text: String {
        var result = ""
        for case .text(let t) in children { result += t }
        return result
    }

    /// The element as XML: no declaration and no added whitespace. Text escapes `&`, `<`,
    /// `>` (and CR as `&#13;`); attribute values also escape `"`, tab, LF and CR so that they
    /// survive attribute-value normalization. Elements without children are written `<a/>`.
    public func serialized() -> String { serialized(spaceBeforeEmptyClose: false) }

    /// ``serialized()``, with elements without children written `<a />` when
    /// `spaceBeforeEmptyClose` (as .NET's `XmlWriter` writes them).
    public func serialized(spaceBeforeEmptyClose: Bool) -> String {
        var out: [UInt8] = []
        write(to: &out, spaceBeforeEmptyClose: spaceBeforeEmptyClose)
        return String(decoding: out, as: UTF8.self)
    }

    /// The serialization (same as `serialized()`).
    public var description: String { serialized() }

    /// Structural equality, attributes compared pairwise in order.
    public static func == (lhs: XMLElement, rhs: XMLElement) -> Bool {
        guard lhs.name.sameBytes(as: rhs.name), lhs.attributes.count == rhs.attributes.count,
              lhs.children == rhs.children else { return false }
        for (a, b) in zip(lhs.attributes, rhs.attributes)
        where !a.name.sameBytes(as: b.name) || !a.value.sameBytes(as: b.value) { return false }
        return true
    }

    private func write(to out: inout [UInt8], spaceBeforeEmptyClose: Bool) {
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: name.utf8)
        for attribute in attributes {
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: attribute.name.utf8)
            out.append(contentsOf: "=\"".utf8)
            escape(attribute.value, into: &out, attribute: true)
            out.append(UInt8(ascii: "\""))
        }
        if children.isEmpty {
            out.append(contentsOf: (spaceBeforeEmptyClose ? " />" : "/>").utf8)
            return
        }
        out.append(UInt8(ascii: ">"))
        for child in children {
            switch child {
            case .element(let e): e.write(to: &out, spaceBeforeEmptyClose: spaceBeforeEmptyClose)
            case .text(let t): escape(t, into: &out, attribute: false)
            }
        }
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: ">"))
    }
}

/// A child of an element: an element or a run of text (CDATA sections become text).
package enum XMLNode: Equatable, Sendable {
    case element(XMLElement)
    case text(String)

    /// Structural equality; text compares by Unicode scalars.
    public static func == (lhs: XMLNode, rhs: XMLNode) -> Bool {
        switch (lhs, rhs) {
        case let (.element(a), .element(b)): return a == b
        case let (.text(a), .text(b)): return a.sameBytes(as: b)
        default: return false
        }
    }
}

/// A parsed XML document: its single root element (prolog and epilog are not kept).
package struct XMLDocument: Equatable, Sendable {
    /// The root element.
    public var root: XMLElement

    /// A document with the given root.
    public init(root: XMLElement) { self.root = root }
}

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by `&amp;`, `&lt;`, `&gt;`, `&quot;` and
/// `&apos;`: safe both as element text and inside a quoted attribute value.
package func xmlEscape(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    for b in text.utf8 {
        switch b {
        case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
        case UInt8(ascii: "'"): out.append(contentsOf: "&apos;".utf8)
        default: out.append(b)
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// Appends `text` escaped for element content or (with `attribute`) a `"`-quoted value.
private func escape(_ text: String, into out: inout [UInt8], attribute: Bool) {
    var text = text
    text.withUTF8 { XMLEscaping.append($0, to: &out, attribute: attribute) }
}

/// XML escaping as `XMLElement` writes it: text escapes `&`, `<`, `>` and CR (`&#13;`); attribute
/// values also `"`, tab (`&#9;`) and LF (`&#10;`).
package enum XMLEscaping {
    /// `&`, `<`, `>` and carriage return, as bits of a 64-bit mask indexed by byte value.
    private static let escapedInText: UInt64 = 1 << 0x26 | 1 << 0x3C | 1 << 0x3E | 1 << 0x0D
    /// The text's bytes plus `"`, tab and line feed (attribute values normalise white space).
    private static let escapedInAttribute: UInt64 = escapedInText | 1 << 0x22 | 1 << 0x09 | 1 << 0x0A

    /// Appends the UTF-8 bytes `source`, escaped, to `out`. The runs between bytes that need an
    /// escape are copied whole (text that needs none, most, in one copy): the hub's addresses
    /// echo a query with `&` in every entry it answers.
    public static func append(_ source: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], attribute: Bool) {
        // The bytes that need an escape are all below 64: one bit each in a mask.
        let mask = attribute ? escapedInAttribute : escapedInText
        var run = 0
        var k = 0
        // Long text (an address, a body) is passed eight bytes at a time while a word holds none of
        // its four escapes; for short text (most fields) the call would cost more than it saves.
        let byWords = !attribute && source.count >= 32
        while k < source.count {
            if byWords {
                k = ByteWord.skipWords(in: UnsafeRawBufferPointer(source), from: k, whileNoneOf: UInt8(ascii: "&"), UInt8(ascii: "<"),
                                       UInt8(ascii: ">"), 0x0D)
                if k >= source.count { break }
            }
            let b = source[k]
            k += 1
            guard b < 64, (mask >> UInt64(b)) & 1 != 0 else { continue }
            if k - 1 > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: source[run..<(k - 1)])) }
            switch b {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case 0x09: out.append(contentsOf: "&#9;".utf8)
            default: out.append(contentsOf: "&#10;".utf8)   // line feed (attributes only)
            }
            run = k
        }
        if source.count > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: source[run...])) }
    }
}

