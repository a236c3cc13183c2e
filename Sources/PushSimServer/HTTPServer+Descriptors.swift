#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's file descriptors, as the server counts on them: the soft `RLIMIT_NOFILE`
/// raised to the hard one at start, the connection limit kept under it with room to spare for
/// refusals and files, and `/dev/null` opened as the reserve descriptor given up on `EMFILE`.
extension HTTPServer {
    /// Raises the process's soft descriptor limit (`RLIMIT_NOFILE`) to its hard limit, as servers
    /// commonly do when they start: a soft limit of 1,024 (a common default) would cap the
    /// connections held at 768. Returns the soft limit now (nil if it cannot be read).
    @discardableResult
    public static func raiseDescriptorLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(descriptorLimit, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(descriptorLimit, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == rlim_t.max ? Int.max : Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let descriptorLimit = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let descriptorLimit = RLIMIT_NOFILE
    #endif

    /// `maxConnections`, kept under the soft descriptor limit less a quarter of it or 320,
    /// whichever is smaller (spare, for refusals, the record, files); and how many refusals may
    /// linger: half the spare, 256 at most.
    static func limits(_ configured: Int) -> (connections: Int, lingeringRefusals: Int) {
        var limit = rlimit()
        guard getrlimit(descriptorLimit, &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return (max(1, configured), refusalsAtOnce)
        }
        let soft = Int(clamping: limit.rlim_cur)
        let spare = min(320, soft / 4)
        return (max(1, min(configured, soft - spare)), min(refusalsAtOnce, spare / 2))
    }

    /// `open("/dev/null", O_RDONLY)`.
    static func openDevNull() -> Int32 {
        #if canImport(Glibc)
        return Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
        #else
        return Darwin.open("/dev/null", O_RDONLY | O_CLOEXEC)
        #endif
    }
}
