import Foundation
import PushSim

/// Where a command's text goes: standard output, with long lines fitted to the terminal unless
/// `--wide`, and standard error for diagnostics. Every text may echo input (scenario strings,
/// payloads from the wire), so each is printed with its control characters escaped.
struct Output {
    /// `--wide`: print long lines whole instead of cutting them at ``TerminalLines/width`` columns.
    var wide = false

    /// Prints `text` whole (a summary, a path, a machine format), control characters escaped.
    func say(_ text: String, terminator: String = "\n") { print(text.escapingControlCharacters, terminator: terminator) }

    /// `say` for human-readable lines: each cut at ``TerminalLines/width`` columns (with `wrap`,
    /// broken at spaces instead), unless ``wide``.
    func show(_ text: String, wrap: Bool = false, terminator: String = "\n") {
        print(TerminalLines.fit(text.escapingControlCharacters, wide: wide, wrap: wrap), terminator: terminator)
    }

    /// Writes `text` and a newline to standard error, control characters escaped, after sending
    /// what standard output holds (so that the two keep their order in one terminal or log).
    func error(_ text: String) {
        flush()
        FileHandle.standardError.write(Data((text.escapingControlCharacters + "\n").utf8))
    }

    /// Sends what `print` has buffered to standard output now (before an error line, and after each
    /// scenario, so that a crash later loses none of it).
    func flush() { fflush(nil) }   // nil: every output stream (reading `stdout` is not concurrency-safe in Swift 6)
}
