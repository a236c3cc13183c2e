/// A `multipart/mixed` body (RFC 2046), as the SDK writes a direct batch send: one part named
/// `notification` holding the payload with its Content-Type, one named `devices` holding a JSON
/// array of handles, boundary `nh-batch-multipart-boundary` (NH-DOTNET
/// `SendDirectNotificationAsync(notification, deviceHandles)`).
package struct MultipartBody: Sendable, Equatable {
    /// One part: its header lines and its body.
    public struct Part: Sendable, Equatable {
        /// Header lines in order, e.g. `Content-Type`, `Content-Disposition`.
        public var headers: [Header]
        /// The bytes after the blank line, up to the next boundary.
        public var body: [UInt8]
        /// A part with these headers and body.
        public init(headers: [Header], body: [UInt8]) { self.headers = headers; self.body = body }

        /// One `Name: value` header line of a part.
        public struct Header: Sendable, Equatable {
            /// The field name, as written.
            public var name: String
            /// The value, as written.
            public var value: String
            /// A header `name: value`.
            public init(_ name: String, _ value: String) { self.name = name; self.value = value }
        }

        /// The value of the first header named `name` (ignoring case), or nil.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The `name` parameter of `Content-Disposition: inline; name=notification`.
        public var name: String? {
            guard let d = header("Content-Disposition") else { return nil }
            for param in d.split(separator: ";").dropFirst() {
                let kv = param.split(separator: "=", maxSplits: 1).map { String($0.trimmingSpaces) }
                if kv.count == 2, kv[0].lowercased() == "name" { return kv[1].trimmingQuotes }
            }
            return nil
        }
    }

    /// The boundary the SDK writes.
    public static let sdkBoundary = "nh-batch-multipart-boundary"
    /// The boundary between parts, without the leading `--`.
    public var boundary: String
    /// The parts, in order.
    public var parts: [Part]

    /// A body with the SDK's boundary unless given.
    public init(boundary: String = sdkBoundary, parts: [Part]) {
        self.boundary = boundary
        self.parts = parts
    }

    /// `multipart/mixed; boundary="…"`.
    public var contentType: String { "multipart/mixed; boundary=\"\(boundary)\"" }

    /// The body bytes, parts separated by `--boundary` lines, CRLF line ends.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        for p in parts {
            out += Array("--\(boundary)\r\n".utf8)
            for h in p.headers { out += Array("\(h.name): \(h.value)\r\n".utf8) }
            out += Array("\r\n".utf8) + p.body + Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }

    /// Reads a body given its Content-Type; nil when it is not multipart or is malformed.
    public static func parse(_ body: [UInt8], contentType: String?) -> MultipartBody? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/") else { return nil }
        var boundary: String?
        for param in contentType.split(separator: ";").dropFirst() {
            let kv = param.split(separator: "=", maxSplits: 1).map { String($0.trimmingSpaces) }
            if kv.count == 2, kv[0].lowercased() == "boundary" { boundary = kv[1].trimmingQuotes }
        }
        guard let boundary, !boundary.isEmpty else { return nil }
        let delimiter = Array("--\(boundary)".utf8)
        var starts: [Int] = []
        var i = 0
        while i + delimiter.count <= body.count {
            if (i == 0 || body[i - 1] == 0x0A), Array(body[i..<i + delimiter.count]) == delimiter { starts.append(i); i += delimiter.count } else { i += 1 }
        }
        guard starts.count >= 2 else { return nil }
        var parts: [Part] = []
        for (a, b) in zip(starts, starts.dropFirst()) {
            var section = Array(body[(a + delimiter.count)..<b])
            guard section.starts(with: [0x0D, 0x0A]) || section.starts(with: [0x0A]) else { return nil }
            section.removeFirst(section.first == 0x0D ? 2 : 1)
            // The line break before the next delimiter belongs to the delimiter.
            if section.last == 0x0A { section.removeLast(); if section.last == 0x0D { section.removeLast() } }
            guard let split = headerEnd(section) else { return nil }
            let headerText = String(decoding: section[..<split.start], as: UTF8.self)
            let headers: [Part.Header] = headerText.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return Part.Header(String(line[..<colon]), String(line[line.index(after: colon)...].trimmingSpaces))
            }
            parts.append(Part(headers: headers, body: Array(section[split.end...])))
        }
        return MultipartBody(boundary: boundary, parts: parts)
    }

    /// Where the blank line after the part's headers is: (end of headers, start of body).
    private static func headerEnd(_ s: [UInt8]) -> (start: Int, end: Int)? {
        if s.starts(with: [0x0D, 0x0A]) { return (0, 2) }
        if s.first == 0x0A { return (0, 1) }
        var k = 0
        while k + 1 < s.count {
            if s[k] == 0x0A, s[k + 1] == 0x0A { return (k, k + 2) }
            if k + 3 < s.count, s[k] == 0x0D, s[k + 1] == 0x0A, s[k + 2] == 0x0D, s[k + 3] == 0x0A { return (k, k + 4) }
            k += 1
        }
        return nil
    }
}

extension String {
    var trimmingQuotes: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
