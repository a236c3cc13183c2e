/// Keeps the command's human-readable output within a terminal's width: every line longer than
/// ``width`` columns is cut to `width - 1` characters and ends in `…`, unless `--wide` asks for
/// whole lines. Machine formats (`--format json`, `--trace`, JUnit) are never cut, and neither is
/// a `replay:` line: it is a command to paste.
enum TerminalLines {
    /// Columns per line by default (characters, as a terminal counts most of them).
    static let width = 120

    /// `text` with each of its lines fitted to `width` columns (kept whole when `wide`): cut and
    /// ended in `…`, or, with `wrap` (prose such as `explain`), broken at spaces, the rest of the
    /// line indented under its second column.
    static func fit(_ text: String, wide: Bool, wrap: Bool = false, width: Int = TerminalLines.width) -> String {
        if wide || !text.split(separator: "\n", omittingEmptySubsequences: false).contains(where: { $0.utf8.count > width && $0.count > width }) {
            return text
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                guard line.count > width, !isCommand(line) else { return String(line) }
                return wrap ? wrapped(String(line), width: width) : String(line.prefix(width - 1)) + "…"
            }
            .joined(separator: "\n")
    }

    /// Whether `line` is a command to paste (`replay: …`), which is never cut.
    static func isCommand(_ line: Substring) -> Bool { line.drop { $0 == " " }.hasPrefix("replay: ") }

    /// `line` broken at the last space that fits, again and again; a word longer than a line is cut.
    static func wrapped(_ line: String, width: Int) -> String {
        // Under the line's second column (text after a run of two spaces), else four past its indentation.
        let chars = Array(line)
        let lead = chars.prefix { $0 == " " }.count
        var column = lead + 4
        if let gap = (lead..<max(lead, chars.count - 2)).first(where: { chars[$0] == " " && chars[$0 + 1] == " " }) {
            column = gap + (chars[gap...].prefix { $0 == " " }.count)
        }
        let indent = String(repeating: " ", count: min(column, width / 3))
        var rest = Substring(line), out: [String] = []
        var room = width
        while rest.count > room {
            let window = rest.prefix(room)
            let cut = window.lastIndex(of: " ").flatMap { $0 > window.startIndex && window[..<$0].contains { $0 != " " } ? $0 : nil } ?? window.endIndex
            out.append(String(rest[..<cut]))
            rest = rest[cut...].drop { $0 == " " }
            room = width - indent.count
        }
        out.append(String(rest))
        return out.enumerated().map { $0.offset == 0 ? $0.element : indent + $0.element }.joined(separator: "\n")
    }
}
