/// Renders a trace as JSON Lines (one object per event, keys sorted, no spaces) and as a
/// fixed-column human timeline. Both are byte-for-byte deterministic: no dictionary is iterated.
public enum TraceFormat {
    /// One JSON object per line: `{"corr":…,"fields":{…},"host":…,"kind":…,"layer":…,"seq":…,"t_us":…}`.
    public static func jsonLines(_ events: [TraceEvent]) -> String {
        var out = ""
        out.reserveCapacity(events.count * 160)
        for e in events {
            out += "{\"corr\":"; appendJSONString(e.correlation, to: &out)
            out += ",\"fields\":{"
            let sorted = e.fields.enumerated().sorted { a, b in
                a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
            }
            for (i, item) in sorted.enumerated() {
                if i > 0 { out += "," }
                appendJSONString(item.element.key.name, to: &out)
                out += ":"
                switch item.element.value {
                case .string(let s): appendJSONString(s, to: &out)
                case .int(let n): out += String(n)
                case .bool(let b): out += b ? "true" : "false"
                }
            }
            out += "},\"host\":"; appendJSONString(e.host, to: &out)
            out += ",\"kind\":"; appendJSONString(e.kind.name, to: &out)
            out += ",\"layer\":"; appendJSONString(e.layer, to: &out)
            out += ",\"seq\":\(e.sequence),\"t_us\":\(e.time.microseconds)}\n"
        }
        return out
    }

    /// Fixed columns: time, layer, host, kind, correlation, then `key=value` fields in the
    /// order they were recorded (string values that are empty or hold a space, a quote or a control
    /// character are written as JSON strings, so each event stays on one line). Example:
    /// `0+00:00:05.120  device   bob-iphone      notification.shown          c0004  text="From alice: Hi Bob"`
    public static func timeline(_ events: [TraceEvent]) -> String {
        var out = ""
        for e in events { out += timelineLine(e); out += "\n" }
        return out
    }

    /// One event as one line of ``timeline(_:)``, without its line feed: time, layer, host, kind
    /// and correlation (`-` when empty) padded to 16, 9, 16, 28 and 7 characters (a longer value is
    /// followed by one space), then the fields; trailing spaces removed.
    public static func timelineLine(_ e: TraceEvent) -> String {
        var line = column(e.time.description, 16)
        line += column(e.layer, 9)
        line += column(e.host, 16)
        line += column(e.kind.name, 28)
        line += column(e.correlation.isEmpty ? "-" : e.correlation, 7)
        line += e.fields.map { f -> String in
            if case .string(let s) = f.value,
               s.isEmpty || s.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0.value < 0x20 }) {
                var quoted = ""
                appendJSONString(s, to: &quoted)
                return "\(f.key)=\(quoted)"
            }
            return "\(f.key)=\(f.value)"
        }.joined(separator: " ")
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }

    static func column(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

/// `s` as a JSON string literal (``appendJSONString(_:to:)``).
package func jsonString(_ s: String) -> String {
    var out = ""
    appendJSONString(s, to: &out)
    return out
}

/// Appends `s` as a JSON string literal (quotes, backslash and control characters escaped).
package func appendJSONString(_ s: String, to out: inout String) {
    out += "\""
    // Most strings (handles, ids) need no escape: append them whole.
    if !s.needsJSONEscape {
        out += s
        out += "\""
        return
    }
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    out += "\""
}
