#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals a crash of the process raises, and one way to catch them that still works after a
/// stack overflow. Shared by `pushsim`'s crash notice and the fuzzer's crash capture.
///
/// Swift's traps (overflow, force unwrap, precondition) raise SIGILL or SIGTRAP; bad memory and a
/// stack overflow SIGSEGV or SIGBUS; `abort()` SIGABRT; an integer division fault SIGFPE. The
/// handler runs on an alternate stack (`sigaltstack` + `SA_ONSTACK`) and once only
/// (`SA_RESETHAND`: the default action is back when it runs, so raising the signal again ends the
/// process as a crash). A handler may call only async-signal-safe functions and may not allocate.
package enum FatalSignals {
    /// SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT.
    package static let all: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]

    /// Installs `handler` for every fatal signal on a fresh alternate stack of `stackBytes` bytes.
    /// When `previous` is given, the action each signal had before is stored at
    /// `previous + signal` (so it needs room for 65 entries).
    package static func install(_ handler: @convention(c) (Int32) -> Void, stackBytes: Int,
                                savingPreviousIn previous: UnsafeMutablePointer<sigaction>? = nil) {
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: stackBytes, alignment: 16)
        stack.ss_size = stackBytes
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
        for signal in all {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #else
            action.__sigaction_u.__sa_handler = handler
            #endif
            action.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previous.map { $0 + Int(signal) })
        }
    }
}
