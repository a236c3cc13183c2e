/// Making text from outside safe to print on a terminal.
///
/// Scenario files, request bodies and payloads are input: a raw ESC, BEL or C1 control character
/// printed as is can retitle, clear or reprogram the terminal of whoever reads PushSim's output.
/// Every message that echoes input passes through ``Swift/String/escapingControlCharacters``.
extension String {
    /// The string with C0 controls (except line feed and tab), DEL and C1 controls written as
    /// `\u{1B}`; everything else, including non-ASCII letters and emoji, unchanged. Returns the
    /// string itself when there is nothing to escape.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var out = String.UnicodeScalarView()
        for c in unicodeScalars {
            if Self.needsEscape(c) {
                out.append(contentsOf: "\\u{\(String(c.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(c)
            }
        }
        return String(out)
    }

    private static func needsEscape(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\n" && c != "\t") || (0x7F...0x9F).contains(c.value)
    }
}
