#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of many descriptors are ready, for the server's loop thread: epoll on Linux (O(ready)
/// per wait, whatever the number of descriptors watched), `poll(2)` elsewhere or when asked for
/// (O(watched) per wait).
///
/// Glibc's module map leaves `sys/epoll.h` out, so the three epoll calls are looked up with
/// `dlsym` in the C library the process already has, and `struct epoll_event` is laid out by hand:
/// a 32-bit event mask, then 64 bits of user data, packed (12 bytes) on x86-64 as glibc declares
/// it there (`__EPOLL_PACKED`), naturally aligned (16 bytes) elsewhere.
///
/// Level-triggered: a descriptor stays reported while it is ready, so a reader may take part of
/// what is there and come back on the next wait. Not thread-safe: the loop thread owns it.
final class Poller {
    /// What one descriptor is ready for. `failed`: a hang-up or an error (reported whatever the
    /// interest, so a connection that is not being read still learns that its client is gone).
    struct Event {
        var key: Int
        var readable: Bool
        var writable: Bool
        var failed: Bool
    }

    enum Kind { case epoll, poll }
    let kind: Kind

    private var epollFD: Int32
    private let events: UnsafeMutableRawPointer
    private let capacity = 512
    /// One `epoll_event` for `epoll_ctl`.
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
    // poll(2): the watched descriptors, their keys and interests.
    private var watched: [Int32: (key: Int, read: Bool, write: Bool)] = [:]

    /// An epoll poller where epoll exists (Linux), else (or when `kind` says so) a `poll` one.
    init(_ preferred: Kind = .epoll) {
        if preferred == .epoll, let create = Epoll.create1 {
            let fd = create(Int32(O_CLOEXEC))
            epollFD = fd
            kind = fd >= 0 ? .epoll : .poll
        } else {
            epollFD = -1
            kind = .poll
        }
        events = UnsafeMutableRawPointer.allocate(byteCount: capacity * Epoll.eventSize, alignment: 8)
    }

    deinit {
        release()
        events.deallocate()
        scratch.deallocate()
    }

    /// Closes the epoll descriptor (the poller is not used after).
    func release() {
        if epollFD >= 0 { _ = close(epollFD) }
        epollFD = -1
        watched = [:]
    }

    /// Starts watching `fd`, reported as `key`, for reading and/or writing.
    func add(_ fd: Int32, key: Int, read: Bool, write: Bool) {
        switch kind {
        case .epoll: control(Epoll.add, fd, key: key, read: read, write: write)
        case .poll: watched[fd] = (key, read, write)
        }
    }

    /// Changes what `fd` is watched for.
    func change(_ fd: Int32, key: Int, read: Bool, write: Bool) {
        switch kind {
        case .epoll: control(Epoll.modify, fd, key: key, read: read, write: write)
        case .poll: watched[fd] = (key, read, write)
        }
    }

    /// Stops watching `fd` (before it is closed).
    func remove(_ fd: Int32) {
        switch kind {
        case .epoll: control(Epoll.delete, fd, key: 0, read: false, write: false)
        case .poll: watched[fd] = nil
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for a descriptor to be ready; `out` gets
    /// what is ready (empty after a timeout or a signal).
    func wait(timeoutMilliseconds: Int32, into out: inout [Event]) {
        out.removeAll(keepingCapacity: true)
        switch kind {
        case .epoll:
            let n = Epoll.wait!(epollFD, events, Int32(capacity), timeoutMilliseconds)
            guard n > 0 else { return }
            for i in 0..<Int(n) {
                let base = i * Epoll.eventSize
                let mask = events.loadUnaligned(fromByteOffset: base, as: UInt32.self)
                let data = events.loadUnaligned(fromByteOffset: base + Epoll.dataOffset, as: UInt64.self)
                out.append(Event(key: Int(Int64(bitPattern: data)), readable: mask & Epoll.input != 0, writable: mask & Epoll.output != 0,
                                 failed: mask & (Epoll.error | Epoll.hangUp) != 0))
            }
        case .poll:
            var fds = watched.map { fd, w in
                pollfd(fd: fd, events: Int16((w.read ? POLLIN : 0) | (w.write ? POLLOUT : 0)), revents: 0)
            }
            guard poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return }
            for p in fds where p.revents != 0 {
                let r = Int32(p.revents)
                out.append(Event(key: watched[p.fd]!.key, readable: r & Int32(POLLIN) != 0, writable: r & Int32(POLLOUT) != 0,
                                 failed: r & Int32(POLLHUP | POLLERR | POLLNVAL) != 0))
            }
        }
    }

    private func control(_ operation: Int32, _ fd: Int32, key: Int, read: Bool, write: Bool) {
        scratch.storeBytes(of: (read ? Epoll.input : 0) | (write ? Epoll.output : 0), toByteOffset: 0, as: UInt32.self)
        scratch.storeBytes(of: UInt64(bitPattern: Int64(key)), toByteOffset: Epoll.dataOffset, as: UInt64.self)
        _ = Epoll.control!(epollFD, operation, fd, scratch)
    }
}

/// The epoll ABI (`sys/epoll.h`), looked up at run time.
private enum Epoll {
    typealias Create = @convention(c) (Int32) -> Int32
    typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    static let create1: Create? = symbol("epoll_create1")
    static let control: Control? = symbol("epoll_ctl")
    static let wait: Wait? = symbol("epoll_wait")

    static let add: Int32 = 1, delete: Int32 = 2, modify: Int32 = 3   // EPOLL_CTL_*
    static let input: UInt32 = 0x001, output: UInt32 = 0x004, error: UInt32 = 0x008, hangUp: UInt32 = 0x010   // EPOLLIN, OUT, ERR, HUP

    #if arch(x86_64)
    static let eventSize = 12, dataOffset = 4
    #else
    static let eventSize = 16, dataOffset = 8
    #endif

    /// The C function `name` of the running process (`RTLD_DEFAULT`), or nil where there is none.
    private static func symbol<T>(_ name: String) -> T? {
        #if os(Linux)
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: T.self)
        #else
        return nil
        #endif
    }
}
