import PushSim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A last word if PushSim itself crashes (a trap, a stack overflow): which scenario was running,
/// with which seed, and that the reports of the scenarios before it are already written.
///
/// A crash is a bug in PushSim, never the scenario's fault: every input is meant to end in a
/// diagnostic or a result. Should one slip through, this turns a bare "Illegal instruction" into
/// a line that says what to report. The handler runs on its own stack (so that it works after a
/// stack overflow), uses only `write(2)` on a message prepared beforehand, then lets the signal
/// take its default course, so the exit status still says the process crashed.
enum CrashNotice {
    /// The message the handler writes, prepared outside the handler (which may not allocate).
    nonisolated(unsafe) private static var message = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    /// Bytes of ``message`` in use.
    nonisolated(unsafe) private static var length = 0
    /// Bytes reserved for the message (a longer one is cut).
    private static let capacity = 4_096
    /// Installs the handler for the fatal signals (`FatalSignals`), on an alternate stack of 64 KiB.
    static func install() {
        FatalSignals.install(handle, stackBytes: 65_536)
        running(nil, seed: nil)
    }

    /// Notes the scenario now running (nil between scenarios).
    static func running(_ file: String?, seed: UInt64?) {
        let text: String
        if let file {
            let seedText = seed.map { " with seed \($0)" } ?? ""
            text = "\npushsim: crashed while running \(file)\(seedText). This is a bug in PushSim, not in the scenario: "
                + "please report it with the file. The reports of the scenarios before it are written.\n"
        } else {
            text = "\npushsim: crashed outside any scenario. This is a bug in PushSim: please report it with the command line.\n"
        }
        let bytes = Array(text.escapingControlCharacters.utf8.prefix(capacity))
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { message.update(from: $0.baseAddress!, count: $0.count) }
        }
        length = bytes.count
    }

    /// The signal handler: writes the prepared message to standard error, then raises the signal
    /// again with its default action.
    private static let handle: @convention(c) (Int32) -> Void = { signal in
        _ = write(2, CrashNotice.message, CrashNotice.length)
        raise(signal)   // SA_RESETHAND restored the default action: the process ends as it would have
    }
}
