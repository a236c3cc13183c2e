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
                guard let body = dechunk(rest) else {
                    return atEnd ? .failure(.malformed("the chunked body ends early")) : nil
                }
                let framed = HTTPHeaders(headers.fields.filter { !sameFieldName($0.name, "Transfer-Encoding") }.map { ($0.name, $0.value) })
                return .success(HTTPResponse(status: status, headers: framed, body: body))
            }
            if let lengthText = headers["Content-Length"] {
                guard let length = Int(lengthText[...].trimmingCharacters(in: " \t")), length >= 0 else {
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

    /// The body of a complete chunked encoding, or nil when it is not complete (or broken).
    static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        var i = 0
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: i) else { return nil }
            let sizeText = String(decoding: bytes[i..<lineEnd], as: UTF8.self).prefix { $0 != ";" }
            guard let size = Int(sizeText.trimmingCharacters(in: " \t"), radix: 16), size >= 0 else { return nil }
            i = lineEnd + 2
            if size == 0 { return body }   // trailers, if any, are not kept
            guard bytes.count >= i + size + 2 else { return nil }
            body += bytes[i..<(i + size)]
            i += size + 2
        }
    }
}
