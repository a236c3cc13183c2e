import PushSimKernel
import PushSimNetwork

/// Frames an HTTP/1.x answer read off a connection (``LoopbackHTTPClient``): the status line,
/// the header fields in order, and the body by `Transfer-Encoding: chunked`, `Content-Length`,
/// or, with neither, everything up to the close (RFC 9112 §6.3). Interim `1xx` answers before
/// the final one are skipped.
enum HTTPAnswerReader {
    /// The answer in `bytes`; nil when more bytes are needed (and the connection is still open:
    /// `atEnd` false); a failure when the bytes cannot be an answer.
    static func read(_ bytes: [UInt8], atEnd: Bool) -> Result<HTTPResponse, LoopbackHTTPClient.Failure>? {
        var start = 0
        while true {
            guard let headEnd = find(crlfcrlf, in: bytes, from: start) else {
                return atEnd ? .failure(.malformed("the answer ends inside its header")) : nil
            }
            let head = String(decoding: bytes[start..<headEnd], as: UTF8.self)
            let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
            let statusParts = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), statusParts[1].count == 3,
                  let status = Int(statusParts[1]), (100...599).contains(status) else {
                return .failure(.malformed("not an HTTP/1.x status line: \(String(lines[0].prefix(80)).debugDescription)"))
            }
            var headers = HTTPHeaders()
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { return .failure(.malformed("a header line without a colon")) }
                headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: " \t"))
            }
            let bodyStart = headEnd + 4
            if (100...199).contains(status) { start = bodyStart; continue }
            let rest = Array(bytes[bodyStart...])
            if let te = headers["Transfer-Encoding"], te.lowercased().contains("chunked") {
                let body: [UInt8]
                switch dechunk(rest) {
                case .whole(let whole): body = whole
                case .broken(let why): return .failure(.malformed(why))
                case .incomplete: return atEnd ? .failure(.malformed("the chunked body ends early")) : nil
                }
                let framed = HTTPHeaders(headers.fields.filter { !sameFieldName($0.name, "Transfer-Encoding") }.map { ($0.name, $0.value) })
                return .success(HTTPResponse(status: status, headers: framed, body: body))
            }
            if let lengthText = headers["Content-Length"] {
                let digits = lengthText[...].trimmingCharacters(in: " \t")
                // Content-Length = 1*DIGIT (RFC 9110 §8.6): no sign, no spaces inside.
                guard !digits.isEmpty, digits.utf8.count <= 18, digits.allBytes(\.isASCIIDigit), let length = Int(digits) else {
                    return .failure(.malformed("Content-Length \(lengthText.debugDescription) is not a number"))
                }
                if rest.count < length { return atEnd ? .failure(.malformed("the body is shorter than its Content-Length")) : nil }
                return .success(HTTPResponse(status: status, headers: headers, body: Array(rest.prefix(length))))
            }
            if status == 204 || status == 304 { return .success(HTTPResponse(status: status, headers: headers)) }
            return atEnd ? .success(HTTPResponse(status: status, headers: headers, body: rest)) : nil
        }
    }

    private static let crlfcrlf: [UInt8] = [13, 10, 13, 10]

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= start + needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] {
            if Array(bytes[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }

    /// What ``dechunk(_:)`` found.
    enum Dechunked: Equatable {
        /// The body, all chunks read up to the last (trailers, if any, are not kept).
        case whole([UInt8])
        /// More bytes are needed.
        case incomplete
        /// The bytes cannot be a chunked body; why, in words.
        case broken(String)
    }

    /// The body of a chunked encoding (RFC 9112 §7.1). A chunk size is 1*HEXDIG, then only
    /// spaces or tabs before an optional `;` extension: `+5`, `-0`, `0x10` or `1 0` are broken,
    /// not read as some other size.
    static func dechunk(_ bytes: [UInt8]) -> Dechunked {
        var body: [UInt8] = []
        var i = 0
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: i) else { return .incomplete }
            let line = bytes[i..<lineEnd]
            let digits = line.prefix(while: \.isASCIIHexDigit)
            let rest = line.dropFirst(digits.count).prefix { $0 != UInt8(ascii: ";") }
            guard !digits.isEmpty, digits.count <= 15, rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }),
                  let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                return .broken("a chunk size is not a hexadecimal number: \(String(decoding: line.prefix(40), as: UTF8.self).debugDescription)")
            }
            i = lineEnd + 2
            if size == 0 { return .whole(body) }   // trailers, if any, are not kept
            guard bytes.count >= i + size + 2 else { return .incomplete }
            guard bytes[i + size] == 13, bytes[i + size + 1] == 10 else { return .broken("a chunk is longer than its size says") }
            body += bytes[i..<(i + size)]
            i += size + 2
        }
    }
}
