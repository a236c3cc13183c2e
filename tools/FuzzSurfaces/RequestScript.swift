import PushSim

/// The input format of the service surfaces (`hub`, `apns`, `fcm`, `wns`): HTTP/1.1-shaped
/// requests as text, separated by lines `~~~`, with placeholders for what no mutation could forge.
///
/// ```
/// POST https://api.push.apple.com/3/device/{{IOS}} HTTP/1.1
/// authorization: bearer {{APNS-JWT}}
/// apns-topic: com.pushsim.notifyusers
///
/// {"aps":{"alert":"hi"}}
/// ~~~
/// WAIT 1h
/// ```
///
/// A request line's target is absolute (`https://host/path?query`) or a path on the surface's
/// default host; header lines are `Name: value` up to the first empty line; the body is every byte
/// after it (invalid UTF-8 included). `WAIT <n>s|m|h|d` advances the virtual clock (at most 400
/// days). `{{NAME}}` placeholders (`{{SAS}}`, `{{IOS}}`, …) are replaced by the world's valid
/// values before the split, so mutations work on real tokens and handles. Reading a script never
/// fails: every byte sequence is some list of steps.
public enum RequestScript {
    /// One thing a script does.
    public enum Step {
        /// Send this request to its authority in the world, and run the world until it is answered.
        case request(HTTPRequest)
        /// Advance the virtual clock by this much, running what falls due.
        case wait(VirtualDuration)
    }

    /// The separator between steps.
    public static let separator = "\n~~~\n"
    /// Steps read from one input at most (a longer script is cut).
    public static let maxSteps = 8

    /// Joins step texts into one input.
    public static func join(_ steps: [String]) -> [UInt8] { Array(steps.joined(separator: separator).utf8) }

    /// Splits `bytes` into steps, after replacing the placeholders.
    public static func steps(_ bytes: [UInt8], defaultAuthority: String, substitutions: [(name: String, value: [UInt8])]) -> [Step] {
        steps(substituted: substitute(bytes, substitutions), defaultAuthority: defaultAuthority)
    }

    /// Splits `text`, whose placeholders are replaced already, into steps.
    static func steps(substituted text: [UInt8], defaultAuthority: String) -> [Step] {
        split(text, on: Array(separator.utf8)).prefix(maxSteps).map { step(ArraySlice($0), defaultAuthority: defaultAuthority) }
    }

    /// `bytes` with every `{{NAME}}` whose name is in `substitutions` replaced by its value.
    static func substitute(_ bytes: [UInt8], _ substitutions: [(name: String, value: [UInt8])]) -> [UInt8] {
        let open = UInt8(ascii: "{")
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 512)
        var i = 0
        scan: while i < bytes.count {
            if bytes[i] == open, i + 1 < bytes.count, bytes[i + 1] == open {
                for (name, value) in substitutions {
                    let token = Array("{{\(name)}}".utf8)
                    if bytes[i...].starts(with: token) {
                        out += value
                        i += token.count
                        continue scan
                    }
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    /// The pieces of `bytes` between occurrences of `separator`.
    static func split(_ bytes: [UInt8], on separator: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0, i = 0
        while i + separator.count <= bytes.count {
            if bytes[i] == separator[0], bytes[i..<(i + separator.count)].elementsEqual(separator) {
                parts.append(Array(bytes[start..<i]))
                i += separator.count
                start = i
            } else {
                i += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }

    /// One step's text as a request or a wait.
    static func step(_ bytes: ArraySlice<UInt8>, defaultAuthority: String) -> Step {
        // Head and body split at the first empty line (CRLF or LF).
        var headEnd = bytes.endIndex, bodyStart = bytes.endIndex
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == 0x0A {
                var j = i + 1
                if j < bytes.endIndex, bytes[j] == 0x0D { j += 1 }
                if j < bytes.endIndex, bytes[j] == 0x0A { headEnd = i; bodyStart = j + 1; break }
            }
            i += 1
        }
        if headEnd > bytes.startIndex, bytes[headEnd - 1] == 0x0D { headEnd -= 1 }   // the CR of the last header's CRLF
        let lines = String(decoding: bytes[bytes.startIndex..<headEnd], as: UTF8.self)
            .split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }   // "\r\n" is one Character
        let words = (lines.first ?? "").split(separator: " ", omittingEmptySubsequences: true)
        if words.first == "WAIT", words.count >= 2 { return .wait(duration(words[1])) }
        let method = words.first.map(String.init) ?? ""
        var target = words.count > 1 ? String(words[1]) : "/"
        var authority = defaultAuthority
        for scheme in ["https://", "http://"] where target.hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            authority = String(rest[..<end])
            target = rest[end...].hasPrefix("/") ? String(rest[end...]) : "/" + rest[end...]
        }
        let (path, query) = splitTarget(target)
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { headers.add(String(line), ""); continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }))
        }
        return .request(HTTPRequest(method: method, authority: authority, path: path, query: query, headers: headers,
                                    body: Array(bytes[bodyStart...])))
    }

    /// `<digits><s|m|h|d>` as a duration, capped at 400 days (the harness must not itself be the crash).
    static func duration(_ word: Substring) -> VirtualDuration {
        let digits = word.prefix { $0.isASCII && $0.isNumber }.prefix(9)
        let n = Int64(digits) ?? 0
        let seconds: Int64
        switch word.dropFirst(digits.count).first {
        case "m": seconds = n * 60
        case "h": seconds = n * 3_600
        case "d": seconds = n * 86_400
        default: seconds = n
        }
        return .seconds(min(seconds, 400 * 86_400))
    }
}
