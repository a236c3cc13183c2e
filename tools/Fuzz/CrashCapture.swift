#if canImport(Glibc)
import Glibc
#endif
import PushSim

/// Saves the input being run if the process dies on it.
///
/// ``install()`` puts a handler for SIGILL, SIGTRAP (Swift's traps: overflow, force unwrap,
/// precondition), SIGSEGV and SIGBUS (stack overflow, bad memory), SIGABRT and SIGFPE on an
/// alternate signal stack (`sigaltstack` + `SA_ONSTACK`), so that a stack overflow can still run
/// it. Before each input, ``arm(_:path:message:)`` copies the input, the file name and the
/// message into buffers allocated once, up front: the handler may not allocate or lock. The
/// handler uses only async-signal-safe calls (`open`, `write`, `close`, `sigaction`, `raise`):
/// it writes the input to its file and the message (with the replay command) to stderr, puts
/// back the handler that was there before (Swift's backtracer, which then prints the stack) and
/// raises the signal again, so that the process still dies of it.
enum CrashCapture {
    private static let capacity = 1 << 22
    nonisolated(unsafe) private static let input = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var inputLength = 0
    nonisolated(unsafe) private static let path = UnsafeMutablePointer<CChar>.allocate(capacity: 4_096)
    nonisolated(unsafe) private static let message = UnsafeMutablePointer<UInt8>.allocate(capacity: 8_192)
    nonisolated(unsafe) private static var messageLength = 0
    nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    /// Installs the handlers (once, before the first input).
    static func install() {
        path[0] = 0
        FatalSignals.install(handle, stackBytes: 1 << 18, savingPreviousIn: previous)
    }

    /// Remembers `bytes` as the input now running, the file to save it to, and what to print.
    static func arm(_ bytes: [UInt8], path file: String, message text: String) {
        inputLength = min(bytes.count, capacity)
        bytes.withUnsafeBufferPointer { input.update(from: $0.baseAddress!, count: inputLength) }
        let name = Array(file.utf8.prefix(4_095)).map { CChar(bitPattern: $0) } + [0]
        name.withUnsafeBufferPointer { path.update(from: $0.baseAddress!, count: name.count) }
        let bytes = Array(text.utf8.prefix(8_192))
        messageLength = bytes.count
        bytes.withUnsafeBufferPointer { message.update(from: $0.baseAddress!, count: bytes.count) }
    }

    /// Forgets the input (after it ran, or before leaving).
    static func disarm() { path[0] = 0 }

    private static let handle: @convention(c) (Int32) -> Void = { signal in
        if CrashCapture.path[0] != 0 {
            let fd = open(CrashCapture.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd >= 0 {
                var written = 0
                while written < CrashCapture.inputLength {
                    let n = write(fd, CrashCapture.input + written, CrashCapture.inputLength - written)
                    if n <= 0 { break }
                    written += n
                }
                close(fd)
            }
            _ = write(2, CrashCapture.message, CrashCapture.messageLength)
        }
        sigaction(signal, CrashCapture.previous + Int(signal), nil)
        raise(signal)
    }
}
