/// Making text from outside safe to print on a terminal.
///
/// Scenario files, request bodies and payloads are input: a raw ESC, BEL or C1 control character
/// printed as is can retitle, clear or reprogram the terminal of whoever reads PushSim's output.
/// Every message that echoes input passes through ``Swift/String/escapingControlCharacters``.
extension String {
    /// The string with C0 controls (except line feed and tab), DEL and C1 controls written as
    /// `\u{1B}`; everything else, including non-ASCII letters and emoji, unchanged. Returns the
    /// string itself when there is nothing to escape.
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isTerminalControl) else { return self }
        var out = String.UnicodeScalarView()
        for c in unicodeScalars {
            if c.isTerminalControl { out.append(contentsOf: c.escaped.unicodeScalars) } else { out.append(c) }
        }
        return String(out)
    }
}

extension Unicode.Scalar {
    /// C0 controls other than line feed and tab, DEL, and C1 controls: what must never reach a
    /// terminal raw (and what a scenario file may not hold).
    package var isTerminalControl: Bool {
        (value < 0x20 && self != "\n" && self != "\t") || (0x7F...0x9F).contains(value)
    }

    /// `\u{1B}`: the scalar as Swift and the scenario language's messages write it.
    package var escaped: String { "\\u{\(String(value, radix: 16, uppercase: true))}" }
}

/// `U+001B`: a code point as Unicode writes it, at least four hex digits (for values that may not
/// be valid scalars too, such as a surrogate named by an XML character reference).
package func unicodeCodePoint(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
