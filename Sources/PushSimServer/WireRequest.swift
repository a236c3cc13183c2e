import PushSimKernel
import PushSimNetwork

/// One HTTP/1.1 request as it came off a socket, framing removed: the request line, the header
/// fields in the order sent (duplicates kept), and the body already de-chunked.
public struct WireRequest: Sendable, Equatable {
    /// The method token as sent, e.g. `POST` (case kept).
    public var method: String
    /// The request target as sent: `/3/device/ab12…?x=1` (origin form) or, for absolute form
    /// (`http://host/path`), the path-and-query part; ``absoluteAuthority`` keeps the host.
    public var target: String
    /// The host of an absolute-form target, if the request had one.
    public var absoluteAuthority: String?
    /// The minor version of `HTTP/1.x` (0 or 1).
    public var minorVersion: Int
    /// The header fields in the order sent, duplicates kept; trailers are not included.
    public var headers: [(name: String, value: String)]
    /// The body, de-chunked; empty when there is none.
    public var body: [UInt8]

    /// A request with these parts; HTTP/1.1, no header fields and no body unless given.
    public init(method: String, target: String, absoluteAuthority: String? = nil, minorVersion: Int = 1,
                headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.absoluteAuthority = absoluteAuthority
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// Equal when every part is, header fields compared in order and case-sensitively.
    public static func == (a: WireRequest, b: WireRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.absoluteAuthority == b.absoluteAuthority
            && a.minorVersion == b.minorVersion && a.body == b.body && a.headers.count == b.headers.count
            && zip(a.headers, b.headers).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.first { sameFieldName($0.name, name) }?.value }

    /// Every value of header `name`, in order.
    public func headerValues(_ name: String) -> [String] { headers.filter { sameFieldName($0.name, name) }.map(\.value) }

    /// The path part of ``target`` (percent-encoded as sent).
    public var path: String {
        guard let q = target.byteOffset(of: UInt8(ascii: "?")) else { return target }
        return String(decoding: target.utf8.prefix(q), as: UTF8.self)
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive` (RFC 9112 §9.3).
    public var keepAlive: Bool {
        let tokens = headerValues("Connection").flatMap(httpListElements)
        if tokens.contains(where: { $0.sameBytesIgnoringASCIICase(as: "close") }) { return false }
        return minorVersion >= 1 || tokens.contains { $0.sameBytesIgnoringASCIICase(as: "keep-alive") }
    }

    /// The host named by the `Host` header (or the absolute-form target), port and brackets removed, lower-cased.
    public var hostName: String? {
        guard let host = absoluteAuthority ?? header("Host") else { return nil }
        let bytes = Array(host.utf8)
        if bytes.first == UInt8(ascii: "[") {   // IPv6 literal
            guard let end = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            return String(decoding: bytes[1..<end], as: UTF8.self).asciiLowercased()
        }
        let end = bytes.lastIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
        return String(decoding: bytes[..<end], as: UTF8.self).asciiLowercased()
    }
}

/// The elements of an HTTP list field value (RFC 9110 §5.6.1): split on `,`, each trimmed of
/// spaces and tabs. Nothing between two commas is no element; an element of only spaces is an
/// empty string, which the callers' checks then refuse or ignore.
func httpListElements(_ value: String) -> [String] {
    var out: [String] = []
    let bytes = Array(value.utf8)
    var start = 0
    for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: ",") {
        defer { start = i + 1 }
        guard i > start else { continue }
        var a = start, b = i
        while a < b, bytes[a] == 0x20 || bytes[a] == 0x09 { a += 1 }
        while b > a, bytes[b - 1] == 0x20 || bytes[b - 1] == 0x09 { b -= 1 }
        out.append(String(decoding: bytes[a..<b], as: UTF8.self))
    }
    return out
}

extension Substring {
    /// This text without leading and trailing characters from `set` (ASCII only).
    func trimmingCharacters(in set: String) -> String {
        let drop = Set(set)
        var s = self
        while let f = s.first, drop.contains(f) { s = s.dropFirst() }
        while let l = s.last, drop.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
