import PushSimKernel
import PushSimNetwork

/// An incremental HTTP/1.1 request parser: a value fed bytes as they arrive, handing out whole
/// requests (``next()``) in order. No I/O, no threads: a connection owns one and feeds it.
///
/// - Framing (RFC 9112 §6): `Transfer-Encoding: chunked` (decoded, trailers read and dropped),
///   else `Content-Length`, else no body. Both at once, several different lengths, a bad length
///   or a transfer coding other than a final `chunked` are refused with 400 (request smuggling
///   guards), since a server that guesses the framing can be made to read two requests as one.
/// - Limits (``Limits``): a request line longer than 8 KiB → 414; header fields over 64 KiB in
///   all (trailers count too) → 431; a body over 4 MiB → 413, refused as soon as the declared
///   length or the chunks read so far exceed it, before the rest is read.
/// - Pipelining: bytes after one request stay buffered and become the next request.
/// - Empty lines before a request line are skipped (§2.2); a bare LF ends a line as CRLF does.
/// - Anything else malformed → 400; `HTTP/2.0` or another major version → 505.
/// - The HTTP/2 connection preface (`PRI * HTTP/2.0␍␊␍␊SM␍␊␍␊`, RFC 9113 §3.4) as a connection's
///   first bytes is ``Result/http2Preface``, not a 505: a client speaking HTTP/2 with prior
///   knowledge cannot read an HTTP/1.1 answer, so the connection answers in HTTP/2
///   (`HTTP2Refusal`). Later in a connection the same line is an `HTTP/2.0` request line, 505.
///
/// After an error the parser stays failed: the connection answers the error and closes.
public struct HTTPRequestParser: Sendable {
    /// Size limits. The defaults are the ones `pushsim serve` uses.
    public struct Limits: Sendable, Equatable {
        /// Longest request line, in bytes (default 8 KiB); a longer one is refused with 414.
        public var requestLine = 8 * 1024
        /// Most bytes of header fields in all, trailers included, each line counted with its CRLF
        /// (default 64 KiB); more is refused with 431.
        public var headerBytes = 64 * 1024
        /// Largest body, in bytes after de-chunking (default 4 MiB); a larger one is refused with 413.
        public var body = 4 * 1024 * 1024
        /// Longest chunk-size line (size, extensions): a client cannot stall the parser on one.
        public var chunkLine = 1024
        /// The defaults above.
        public init() {}
    }

    /// Why a request was refused: the status to answer and a message for the JSON body.
    public struct Failure: Error, Sendable, Equatable {
        /// The status to answer: 400, 413, 414, 431 or 505.
        public var status: Int
        /// What is wrong, in a sentence, for the JSON body.
        public var message: String
        /// A refusal with `status` and `message`.
        public init(_ status: Int, _ message: String) { self.status = status; self.message = message }
    }

    /// What ``next()`` found.
    public enum Result: Sendable, Equatable {
        /// A whole request.
        case request(WireRequest)
        /// More bytes are needed.
        case incomplete
        /// The bytes cannot be a good request; answer the status and close.
        case failure(Failure)
        /// The connection opened with the HTTP/2 connection preface (its 24 bytes consumed; what
        /// follows is left unread). Answer with `HTTP2Refusal.bytes` and close. The parser stays
        /// here: every later ``HTTPRequestParser/next()`` says the same.
        case http2Preface
    }

    /// The limits this parser enforces.
    public let limits: Limits
    private var buffer: [UInt8] = []
    private var start = 0              // first unconsumed byte of `buffer`
    private var state = State.requestLine
    private var pending = WireRequest(method: "", target: "")
    private var headerBytes = 0
    private var failed: Failure?
    /// True until the connection's first bytes are known not to be the HTTP/2 preface.
    private var mayBePreface = true
    /// Set once the HTTP/2 preface was read.
    private var sawPreface = false
    /// Set when a request with `Expect: 100-continue` has its head read and its body is awaited.
    public private(set) var wantsContinue = false

    private enum State: Sendable {
        case requestLine, headers, body(remaining: Int), chunkSize, chunkData(remaining: Int), chunkDataEnd, trailers
    }

    /// A parser with nothing buffered, under `limits` (default ``Limits/init()``).
    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Adds bytes read from the connection.
    public mutating func feed<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes fed but not yet consumed (the start of the next request, or part of this one).
    public var bufferedCount: Int { buffer.count - start }

    /// Clears ``wantsContinue`` once the connection has written `100 Continue`.
    public mutating func continueSent() { wantsContinue = false }

    /// The next whole request, ``Result/incomplete`` until one is buffered, or the failure.
    public mutating func next() -> Result {
        if let failed { return .failure(failed) }
        if mayBePreface {
            switch prefaceCheck() {
            case .some(true): return .http2Preface
            case .none: return .incomplete
            case .some(false): break
            }
        }
        do throws(Failure) {
            while true {
                switch state {
                case .requestLine:
                    guard let line = try takeLine(limit: limits.requestLine, status: 414, what: "request line") else { return .incomplete }
                    if line.isEmpty { continue }   // tolerated before a request line (RFC 9112 §2.2)
                    try readRequestLine(line)
                    state = .headers
                case .headers, .trailers:
                    let room = limits.headerBytes - headerBytes
                    guard let line = try takeLine(limit: max(room, 0), status: 431, what: "header fields") else { return .incomplete }
                    headerBytes += line.count + 2
                    if headerBytes > limits.headerBytes { throw Failure(431, "The header fields are larger than \(limits.headerBytes) bytes.") }
                    if !line.isEmpty {
                        let field = try Self.headerField(line)
                        if case .headers = state { pending.headers.append(field) }   // trailers are read and dropped
                        continue
                    }
                    if case .trailers = state { return .request(finish()) }
                    try startBody()
                    if case .requestLine = state { return .request(finish()) }
                case .body(let remaining):
                    let available = buffer.count - start
                    guard available >= remaining else { return .incomplete }
                    pending.body.append(contentsOf: buffer[start..<(start + remaining)])
                    start += remaining
                    return .request(finish())
                case .chunkSize:
                    guard let line = try takeLine(limit: limits.chunkLine, status: 400, what: "chunk-size line") else { return .incomplete }
                    // chunk-size = 1*HEXDIG, then only whitespace before a `;` extension (RFC 9112
                    // §7.1, BWS): `1 0`, `+5` or `0x10` are refused, not read as some other size.
                    let sizeText = line.prefix(while: \.isASCIIHexDigit)
                    let rest = line.dropFirst(sizeText.count).prefix { $0 != UInt8(ascii: ";") }
                    guard !sizeText.isEmpty, sizeText.count <= 15, rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }),
                          let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16) else {
                        throw Failure(400, "A chunk size is not a hexadecimal number.")
                    }
                    if pending.body.count + size > limits.body { throw tooLarge() }
                    state = size == 0 ? .trailers : .chunkData(remaining: size)
                case .chunkData(let remaining):
                    let available = buffer.count - start
                    guard available > 0 else { return .incomplete }
                    let n = min(available, remaining)
                    pending.body.append(contentsOf: buffer[start..<(start + n)])
                    start += n
                    state = n == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - n)
                case .chunkDataEnd:
                    guard let line = try takeLine(limit: 2, status: 400, what: "chunk end") else { return .incomplete }
                    guard line.isEmpty else { throw Failure(400, "A chunk is longer than its size says.") }
                    state = .chunkSize
                }
            }
        } catch {
            failed = error
            return .failure(error)
        }
    }

    // MARK: Pieces

    /// Whether the connection opened with the HTTP/2 preface: true (consumed) or false once known,
    /// nil while the bytes so far are a proper beginning of it.
    private mutating func prefaceCheck() -> Bool? {
        if sawPreface { return true }
        let preface = HTTP2Refusal.clientPreface
        let n = min(buffer.count - start, preface.count)
        guard buffer[start..<(start + n)].elementsEqual(preface[0..<n]) else {
            mayBePreface = false
            return false
        }
        guard n == preface.count else { return nil }
        start += n
        sawPreface = true
        return true
    }

    /// The next line without its CRLF (or LF), or nil when none is complete yet. A line longer
    /// than `limit` fails with `status` as soon as that many bytes are buffered without an end.
    private mutating func takeLine(limit: Int, status: Int, what: String) throws(Failure) -> ArraySlice<UInt8>? {
        let end = buffer.count
        let searchEnd = min(end, start + limit + 2)   // a line within the limit ends (CR LF) by here
        guard let i = buffer[start..<searchEnd].firstIndex(of: UInt8(ascii: "\n")) else {
            if end - start > limit { throw Failure(status, "The \(what) is longer than \(limit) bytes.") }
            return nil
        }
        var lineEnd = i
        if lineEnd > start && buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        if lineEnd - start > limit { throw Failure(status, "The \(what) is longer than \(limit) bytes.") }
        let line = buffer[start..<lineEnd]
        start = i + 1
        return line
    }

    /// `METHOD SP target SP HTTP/1.x`.
    private mutating func readRequestLine(_ line: ArraySlice<UInt8>) throws(Failure) {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
              parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Failure(400, "The request line is not 'METHOD target HTTP/1.1'.")
        }
        let version = Array(parts[2])   // HTTP/d.d
        guard version.count == 8, version.starts(with: "HTTP/".utf8), version[6] == UInt8(ascii: ".") else {
            throw Failure(400, "The request line does not end with an HTTP version.")
        }
        guard version[5] == UInt8(ascii: "1") else { throw Failure(505, "Only HTTP/1.0 and HTTP/1.1 are served here.") }
        guard version[7].isASCIIDigit else { throw Failure(400, "The HTTP version is malformed.") }
        let minor = Int(version[7] - UInt8(ascii: "0"))
        let (target, authority) = try Self.target(parts[1])
        pending = WireRequest(method: String(decoding: parts[0], as: UTF8.self), target: target,
                              absoluteAuthority: authority, minorVersion: minor)
        headerBytes = 0
    }

    /// The origin-form target (`/path?query`) as sent, or for an absolute-form one
    /// (`http://host/path`) its path and query with the host apart (RFC 9112 §3.2).
    private static func target(_ bytes: ArraySlice<UInt8>) throws(Failure) -> (target: String, authority: String?) {
        if bytes.first == UInt8(ascii: "/") { return (String(decoding: bytes, as: UTF8.self), nil) }
        let separator = Array("://".utf8)
        guard bytes.starts(with: "http".utf8),
              let scheme = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(400, "The request target must be a path starting with '/'.")
        }
        let rest = bytes[(scheme + separator.count)...]
        let slash = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = String(decoding: rest[..<slash], as: UTF8.self)
        let path = String(decoding: rest[slash...], as: UTF8.self)
        return (rest[slash...].first == UInt8(ascii: "/") ? path : "/" + path, authority)
    }

    /// `name: value` (no space before the colon, no obsolete line folding), value trimmed.
    private static func headerField(_ line: ArraySlice<UInt8>) throws(Failure) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
              line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
            throw Failure(400, "A header line is not 'Name: value'.")
        }
        var value = line[(colon + 1)...]
        while let f = value.first, f == 0x20 || f == 0x09 { value = value.dropFirst() }
        while let l = value.last, l == 0x20 || l == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 >= 0x20 || $0 == 0x09 }), !value.contains(0x7F) else {
            throw Failure(400, "A header value holds a control character.")
        }
        return (String(decoding: line[line.startIndex..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// Decides the body's framing once the header block has ended.
    private mutating func startBody() throws(Failure) {
        var codings: [String] = [], lengths: [String] = []
        for field in pending.headers {
            if sameFieldName(field.name, "Content-Length") { lengths += httpListElements(field.value) }
            if sameFieldName(field.name, "Transfer-Encoding") { codings += httpListElements(field.value).map { $0.asciiLowercased() } }
        }
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw Failure(400, "A request cannot have both Transfer-Encoding and Content-Length.") }
            guard codings.last == "chunked", codings.filter({ $0 == "chunked" }).count == 1 else {
                throw Failure(400, "Only 'Transfer-Encoding: chunked' is understood here.")
            }
            noteExpect()
            state = .chunkSize
            return
        }
        guard let first = lengths.first else { state = .requestLine; return }
        guard lengths.allSatisfy({ $0 == first }), first.utf8.count <= 18, first.allBytes(\.isASCIIDigit),
              let n = Int(first) else {
            throw Failure(400, "The Content-Length is not one whole number.")
        }
        if n > limits.body { throw tooLarge() }
        if n == 0 { state = .requestLine; return }
        noteExpect()
        state = .body(remaining: n)
    }

    private mutating func noteExpect() {
        wantsContinue = pending.minorVersion >= 1 && pending.header("Expect")?.sameBytesIgnoringASCIICase(as: "100-continue") == true
    }

    private func tooLarge() -> Failure { Failure(413, "The request body is larger than \(limits.body) bytes.") }

    /// The request read, and the parser ready for the next one.
    private mutating func finish() -> WireRequest {
        let done = pending
        pending = WireRequest(method: "", target: "")
        state = .requestLine
        wantsContinue = false
        return done
    }
}

/// `tchar` of RFC 9110 §5.6.2: the bytes of a method or a header name.
@inline(__always) func isTokenByte(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return true
    case UInt8(ascii: "!"), UInt8(ascii: "#")...UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
         UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): return true
    default: return false
    }
}
