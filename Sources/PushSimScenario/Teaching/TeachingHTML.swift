import PushSimKernel

/// Escaping for the teaching page. Every string that comes from a scenario or a trace goes
/// through one of these before it reaches the page: ``text(_:)`` for HTML and SVG text and
/// attribute values, ``scriptJSON(_:)`` for the data the page's script reads. The page's script
/// only ever sets `textContent`, never `innerHTML`.
package enum TeachingHTML {
    /// `s` as HTML text or a double- or single-quoted attribute value: `& < > " '` become
    /// character references; control characters (other than tab and newline) become U+FFFD, which
    /// HTML cannot carry as references.
    package static func text(_ s: String) -> String {
        guard s.containsByte(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) || $0 == 0x7F })
        else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `s` as a JSON string literal that is also safe inside `<script>`: besides JSON's own
    /// escapes, `<`, `>` and `&` are written `\u003c`, `\u003e`, `\u0026` (so no `</script>` or
    /// `<!--` can appear), and U+2028 / U+2029 as `\u2028` / `\u2029`.
    package static func scriptJSON(_ s: String) -> String {
        var json = ""
        appendJSONString(s, to: &json)
        guard json.unicodeScalars.contains(where: { $0 == "<" || $0 == ">" || $0 == "&" || $0 == "\u{2028}" || $0 == "\u{2029}" }) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A JSON array of strings, each through ``scriptJSON(_:)``.
    static func scriptJSON(_ list: [String]) -> String { "[" + list.map { scriptJSON($0) }.joined(separator: ",") + "]" }

    /// An element with escaped attribute values and already-escaped (or built) content.
    static func element(_ name: String, _ attributes: [(String, String)] = [], _ content: String = "") -> String {
        "<\(name)" + attributes.map { " \($0.0)=\"\(text($0.1))\"" }.joined() + ">" + content + "</\(name)>"
    }

    /// Shortens `s` to at most `limit` characters, ending in `…`.
    static func elide(_ s: String, _ limit: Int) -> String { s.count > limit ? String(s.prefix(limit - 1)) + "…" : s }
}
