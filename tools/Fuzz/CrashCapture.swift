#if canImport(Glibc)
import Glibc
#endif

/// Writes the input being run to a file if the process crashes on it: a handler for the fatal
/// signals, on an alternate stack, that uses only open/write/close and then lets the signal
/// take its default course. The input, its file name and its replay line are copied into
/// preallocated buffers before each run (the handler may not allocate).
enum CrashCapture {
    private static let capacity = 1 << 20
    nonisolated(unsafe) private static let input = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var inputLength = 0
    nonisolated(unsafe) private static let path = UnsafeMutablePointer<CChar>.allocate(capacity: 4_096)
    nonisolated(unsafe) private static let message = UnsafeMutablePointer<CChar>.allocate(capacity: 8_192)
    nonisolated(unsafe) private static var messageLength = 0

    static func install() {
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        stack.ss_size = 1 << 16
        sigaltstack(&stack, nil)
        for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handle
            action.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// Remembers `bytes` as the input now running, and where to save it.
    static func arm(_ bytes: [UInt8], path file: String, replay: String) {
        inputLength = min(bytes.count, capacity)
        bytes.withUnsafeBufferPointer { input.update(from: $0.baseAddress!, count: inputLength) }
        let name = Array(file.utf8CString.prefix(4_095)) + [0]
        name.withUnsafeBufferPointer { path.update(from: $0.baseAddress!, count: name.count) }
        let text = Array("\npushsim-fuzz: CRASH, input saved to \(file)\n  replay: \(replay)\n".utf8CString.dropLast().prefix(8_192))
        messageLength = text.count
        text.withUnsafeBufferPointer { message.update(from: $0.baseAddress!, count: text.count) }
    }

    private static let handle: @convention(c) (Int32) -> Void = { signal in
        let fd = open(CrashCapture.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 {
            _ = write(fd, CrashCapture.input, CrashCapture.inputLength)
            close(fd)
        }
        _ = write(2, CrashCapture.message, CrashCapture.messageLength)
        raise(signal)
    }
}
