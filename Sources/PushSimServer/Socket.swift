#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few BSD-socket calls the server makes, over Glibc: listen on an IPv4 address, read the
/// bound port, make a connection non-blocking, write fully, drop what arrived. Every write uses `MSG_NOSIGNAL`, so a client that
/// has gone away gives an error, never a `SIGPIPE`.
enum Socket {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A listening TCP socket on `host:port` (`SO_REUSEADDR`, backlog 128).
    static func listen(host: String, port: Int) throws -> Int32 {
        guard (0...65_535).contains(port) else { throw Failure(description: "port \(port) is not between 0 and 65535") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw Failure(description: "'\(host)' is not an IPv4 address (IPv6 is not served yet)")
        }
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket(): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot listen on \(host):\(port): \(reason)")
        }
        // A backlog of 1,024: a burst of clients waits in the kernel's queue instead of being
        // dropped (the kernel caps it at net.core.somaxconn).
        guard Glibc.listen(fd, 1_024) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "listen(): \(reason)")
        }
        return fd
    }

    /// The port a socket is bound to.
    static func localPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Non-blocking: a read or write that cannot proceed fails with `EAGAIN` instead of waiting.
    static func makeNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// An accepted connection: non-blocking, closed on exec, and no Nagle delay for small answers.
    static func configureConnection(_ fd: Int32) {
        makeNonBlocking(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var yes: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes all of `bytes`; false when the connection failed first.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }

    /// Reads and drops what has already arrived, without waiting: closing a socket with unread
    /// data makes the kernel send a reset, which can destroy an answer just written.
    static func drainArrived(_ fd: Int32) {
        var sink = [UInt8](repeating: 0, count: 16 * 1024)
        for _ in 0..<16 {
            let n = sink.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return }
        }
    }
}
