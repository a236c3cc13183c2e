import PushSimKernel

/// Header fields in the order they were added, with case-insensitive lookup (as in HTTP/1.1 and
/// HTTP/2). Duplicates are kept: APNs, for one, refuses a request that repeats a header.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    /// One field. A struct rather than a tuple: Swift destroys arrays of tuples element by element
    /// through the tuple's metadata, a cost paid for every request and response.
    struct Field: Sendable, Equatable {
        var name: String
        var value: String
    }
    private var storage: [Field] = []

    /// No fields.
    public init() {}
    /// No fields yet, with room for `minimumCapacity` of them.
    public init(minimumCapacity: Int) { storage.reserveCapacity(minimumCapacity) }
    /// These fields, in this order, duplicates kept.
    public init(_ fields: [(String, String)]) { self.storage = fields.map { Field(name: $0.0, value: $0.1) } }
    /// One field (a literal `["name": value]` goes through an array of tuples first).
    public init(_ name: String, _ value: String) { self.storage = [Field(name: name, value: value)] }
    /// Two fields, in this order.
    public init(_ name1: String, _ value1: String, _ name2: String, _ value2: String) {
        self.storage = [Field(name: name1, value: value1), Field(name: name2, value: value2)]
    }
    /// The literal's fields, in literal order (a literal may repeat a name).
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The fields in order.
    public var fields: [(name: String, value: String)] { storage.map { (name: $0.name, value: $0.value) } }
    /// Number of fields, duplicates counted.
    public var count: Int { storage.count }

    /// The first value of `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        // Lengths first, read in place: most fields differ in length from the name looked up, and
        // are then passed over without being copied or compared byte by byte.
        let n = name.utf8.count
        return storage.withUnsafeBufferPointer { fields in
            for i in fields.indices where fields[i].name.utf8.count == n && sameFieldName(fields[i].name, name) { return fields[i].value }
            return nil
        }
    }
    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        storage.filter { sameFieldName($0.name, name) }.map(\.value)
    }
    /// Appends a field, keeping any others of the same name (``set(_:_:)`` replaces them).
    public mutating func add(_ name: String, _ value: String) { storage.append(Field(name: name, value: value)) }
    /// Removes every `name` field, then adds one.
    public mutating func set(_ name: String, _ value: String) {
        storage.removeAll { sameFieldName($0.name, name) }
        storage.append(Field(name: name, value: value))
    }

    /// Hands out the fields in order, as `(name, value)` pairs.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Field]>
        public mutating func next() -> (name: String, value: String)? { base.next().map { (name: $0.name, value: $0.value) } }
    }
    public func makeIterator() -> Iterator { Iterator(base: storage.makeIterator()) }
}

/// Whether two header names are equal ignoring ASCII case (header names are ASCII tokens), without
/// building lower-cased copies: header lookups run several times per request on hot paths.
@inlinable package func sameFieldName(_ a: String, _ b: String) -> Bool { a.sameBytesIgnoringASCIICase(as: b) }

/// Whether header name `name` starts with `prefix`, ignoring ASCII case (`X-WNS-` and `x-wns-tag`).
@inlinable package func fieldName(_ name: String, hasPrefix prefix: String) -> Bool { name.hasBytePrefixIgnoringASCIICase(prefix) }

/// An HTTP-shaped request as it travels over the simulated network.
public struct HTTPRequest: Sendable, Equatable {
    /// The request method as sent, e.g. `POST`.
    public var method: String
    /// The host the request is addressed to (the URL's authority), e.g. `api.push.apple.com`.
    public var authority: String
    /// Path without query, percent-encoded as sent, e.g. `/3/device/ab12…`.
    public var path: String
    /// Query items in order, percent-decoded.
    public var query: [(name: String, value: String)]
    /// The header fields, in the order sent.
    public var headers: HTTPHeaders
    /// The body bytes; empty when there is none.
    public var body: [UInt8]

    /// A request to `authority` for `path` (percent-encoded as it would be sent) with `query`
    /// items given decoded (``target`` encodes them).
    public init(method: String, authority: String, path: String, query: [(String, String)] = [],
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.authority = authority
        self.path = path
        self.query = query.map { (name: $0.0, value: $0.1) }
        self.headers = headers
        self.body = body
    }

    /// Builds a request from an absolute `https://host/path?query` URL (as WNS channel URIs are).
    /// Returns nil when the URL has no `scheme://host` part.
    public init?(method: String, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        // Scanned as bytes in place: a hub sends to a million channel URIs.
        var url = url
        guard let (authority, path, query) = url.withUTF8({ bytes -> (String, String, [(String, String)])? in
            guard let schemeEnd = schemeSeparator.withUnsafeBufferPointer({ firstOffset(of: $0, in: bytes) }) else { return nil }
            let raw = UnsafeRawBufferPointer(bytes)
            let hostStart = schemeEnd + 3
            let hostEnd = ByteWord.firstOffset(ofEither: UInt8(ascii: "/"), UInt8(ascii: "?"), in: raw, from: hostStart, to: raw.count) ?? raw.count
            guard hostStart < hostEnd else { return nil }
            let (path, query) = splitTarget(bytes: UnsafeBufferPointer(rebasing: bytes[hostEnd...]))
            return (text(raw, hostStart, hostEnd), path.isEmpty ? "/" : path, query)
        }) else { return nil }
        self.init(method: method, authority: authority, path: path, query: query, headers: headers, body: body)
    }

    /// Equal when method, authority, path, header fields, body and every query item, in order,
    /// are equal.
    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.authority == b.authority && a.path == b.path && a.headers == b.headers
            && a.body == b.body && a.query.count == b.query.count
            && zip(a.query, b.query).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The first query value named `name`.
    public func queryValue(_ name: String) -> String? { query.first(where: { $0.name == name })?.value }

    /// The body as UTF-8 text (invalid sequences replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// `path?query` as it would appear on the wire (query re-encoded).
    public var target: String {
        guard !query.isEmpty else { return path }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count + 64)
        out.appendUTF8(path)
        for (i, item) in query.enumerated() {
            out.append(i == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            appendPercentEncoded(item.name, to: &out)
            out.append(UInt8(ascii: "="))
            appendPercentEncoded(item.value, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// An HTTP-shaped response.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status code, e.g. `200` or `410`.
    public var status: Int
    /// The header fields, in the order written.
    public var headers: HTTPHeaders
    /// The body bytes; empty when there is none.
    public var body: [UInt8]

    /// A response with `status`, `headers` and `body` (by default none).
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
    /// A response whose body is `text` in UTF-8.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), text: String) {
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }
    /// The body as UTF-8 text (invalid sequences replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// Splits `path?a=1&b=2` into the path and decoded query items (empty items are skipped).
package func splitTarget<S: StringProtocol>(_ target: S) -> (path: String, query: [(String, String)]) where S.SubSequence == Substring {
    var target = String(target)
    return target.withUTF8 { splitTarget(bytes: $0) }
}

/// ``splitTarget(_:)`` over UTF-8 bytes, read in place (a hub splits every channel URI it posts to).
func splitTarget(bytes: UnsafeBufferPointer<UInt8>) -> (path: String, query: [(String, String)]) {
    let raw = UnsafeRawBufferPointer(bytes)
    guard let q = firstOffset(of: UInt8(ascii: "?"), in: raw, from: 0, to: raw.count) else { return (text(raw, 0, raw.count), []) }
    var items: [(String, String)] = []
    var start = q + 1
    while start < raw.count {
        let end = firstOffset(of: UInt8(ascii: "&"), in: raw, from: start, to: raw.count) ?? raw.count
        if start < end {
            if let eq = firstOffset(of: UInt8(ascii: "="), in: raw, from: start, to: end) {
                items.append((percentDecode(raw, start, eq), percentDecode(raw, eq + 1, end)))
            } else {
                items.append((percentDecode(raw, start, end), ""))
            }
        }
        start = end + 1
    }
    return (text(raw, 0, q), items)
}

/// The offset of the first `byte` in `bytes[start..<end]` (tokens in channel URIs run to 200
/// bytes: passed eight at a time).
private func firstOffset(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
    ByteWord.firstOffset(ofEither: byte, byte, in: bytes, from: start, to: end)
}

/// The string of `bytes[start..<end]` (invalid UTF-8 sequences replaced).
private func text(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
}

private let schemeSeparator = Array("://".utf8)

/// ``percentDecode(_:)`` of `bytes[start..<end]`; text without `%` or `+` is taken as it is.
private func percentDecode(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
    guard ByteWord.firstOffset(ofEither: UInt8(ascii: "%"), UInt8(ascii: "+"), in: bytes, from: start, to: end) != nil else {
        return text(bytes, start, end)
    }
    return percentDecode(text(bytes, start, end))
}

/// Decodes `%XX` escapes and `+` (as space, the form-encoding convention ASP.NET also applies to query strings).
package func percentDecode<S: StringProtocol>(_ text: S) -> String {
    let needsDecoding = text.utf8.withContiguousStorageIfAvailable { $0.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") } }
        ?? text.utf8.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
    if !needsDecoding { return String(text) }
    var bytes = [UInt8]()
    var it = Array(text.utf8)[...]
    while let b = it.popFirst() {
        if b == UInt8(ascii: "+") { bytes.append(UInt8(ascii: " ")); continue }
        if b == UInt8(ascii: "%"), it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) {
            bytes.append(v); it = it.dropFirst(2); continue
        }
        bytes.append(b)
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
package func percentEncode(_ text: String) -> String {
    guard text.containsByte(where: { !isUnreserved($0) }) else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count * 3)
    appendEscapingReserved(text, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Appends ``percentEncode(_:)`` of `text` to `out`.
func appendPercentEncoded(_ text: String, to out: inout [UInt8]) {
    guard text.containsByte(where: { !isUnreserved($0) }) else { return out.appendUTF8(text) }
    appendEscapingReserved(text, to: &out)
}

/// Appends `text`'s bytes, each reserved one as `%XX`.
/// The bytes are read in place and runs of unreserved ones copied whole (the `utf8` view's
/// iterator costs some 40 instructions a byte; handles and channel URIs run to 200 bytes).
private func appendEscapingReserved(_ text: String, to out: inout [UInt8]) {
    let hex: StaticString = "0123456789ABCDEF"
    var text = text
    text.withUTF8 { bytes in
        var run = 0
        for k in 0..<bytes.count where !isUnreserved(bytes[k]) {
            if k > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<k])) }
            out.append(UInt8(ascii: "%"))
            out.append(hex.utf8Start[Int(bytes[k] >> 4)])
            out.append(hex.utf8Start[Int(bytes[k] & 0x0F)])
            run = k + 1
        }
        if bytes.count > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
    }
}

/// The unreserved characters of RFC 3986 §2.3, which ``percentEncode(_:)`` leaves as they are.
@inline(__always) private func isUnreserved(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
         UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): return true
    default: return false
    }
}

/// A short, readable label for a push handle in traces: for a URL the part after `token=`, then,
/// if long, its first 8 and last 6 characters (`fa60bd34…9a7ffb`). Two different handles of the
/// same service practically never share a label, so checkers can compare labels.
package func handleLabel(_ handle: String) -> String {
    let bytes = Array(handle.utf8)
    let rest = bytes[(handle.byteOffset(of: "token=").map { $0 + 6 } ?? 0)...]
    // Handles are ASCII, where a byte is a character; anything else is cut by characters.
    guard rest.allSatisfy({ $0 < 0x80 }) else {
        let h = Substring(String(decoding: rest, as: UTF8.self))
        return h.count > 16 ? String(h.prefix(8)) + "…" + String(h.suffix(6)) : String(h)
    }
    guard rest.count > 16 else { return String(decoding: rest, as: UTF8.self) }
    return String(decoding: rest.prefix(8), as: UTF8.self) + "…" + String(decoding: rest.suffix(6), as: UTF8.self)
}
