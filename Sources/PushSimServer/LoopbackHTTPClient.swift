#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushSimNetwork

/// The outbound side of the loopback boundary: sends one HTTP/1.1 request to a server outside
/// the world (a user's backend) and reads its answer. One connection per request
/// (`Connection: close`), blocking calls with a deadline: simple, and what a test backend sees
/// from a phone that does not keep connections warm.
///
/// The answer is read to the end of the connection and then framed: `Content-Length`,
/// `Transfer-Encoding: chunked`, or all bytes up to the close. Interim `1xx` answers are skipped.
enum LoopbackHTTPClient {
    /// Why no answer came back.
    enum Failure: Error, Equatable {
        /// Nothing listens at the address (connection refused), or it is not reachable.
        case unreachable(String)
        /// No complete answer within the deadline.
        case timedOut
        /// The bytes that came back are not an HTTP/1.x answer.
        case malformed(String)
    }

    /// The most an answer may hold (header and body), 16 MiB: a backend answering more is broken.
    static let maxAnswerBytes = 16 * 1024 * 1024

    /// Sends `request` (its `path` prefixed with `basePath`) to `ipv4:port`; waits at most
    /// `timeoutSeconds` (wall clock) for the whole exchange.
    static func send(_ request: HTTPRequest, to ipv4: String, port: Int, basePath: String = "", hostHeader: String,
                     timeoutSeconds: Int) -> Result<HTTPResponse, Failure> {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failure(.unreachable("socket(): \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: max(1, timeoutSeconds), tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        guard inet_pton(AF_INET, ipv4, &address.sin_addr) == 1 else { return .failure(.unreachable("'\(ipv4)' is not an IPv4 address")) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return .failure(.unreachable(String(cString: strerror(errno)))) }
        guard Socket.writeAll(fd, bytes(of: request, basePath: basePath, hostHeader: hostHeader)) else {
            return .failure(errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .unreachable("the connection broke while sending"))
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while received.count <= maxAnswerBytes {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .unreachable("the connection broke while reading")) }
            if n == 0 { break }
            received += buffer[0..<n]
            // A complete answer with a known length can be taken before the server closes.
            if case .success(let response)? = HTTPAnswerReader.read(received, atEnd: false) { return .success(response) }
        }
        guard received.count <= maxAnswerBytes else { return .failure(.malformed("the answer is longer than \(maxAnswerBytes) bytes")) }
        return HTTPAnswerReader.read(received, atEnd: true) ?? .failure(.malformed("the connection closed before the answer was complete"))
    }

    /// The request's bytes: request line, `Host`, the request's own fields (minus framing ones),
    /// `Content-Length`, `Connection: close`, the body.
    static func bytes(of request: HTTPRequest, basePath: String, hostHeader: String) -> [UInt8] {
        var head = "\(request.method) \(basePath)\(request.target) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        for field in request.headers where !["Host", "Connection", "Content-Length", "Transfer-Encoding"].contains(where: { sameFieldName($0, field.name) })
            && !(field.name + field.value).contains(where: { $0 == "\r" || $0 == "\n" }) {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + request.body
    }
}
