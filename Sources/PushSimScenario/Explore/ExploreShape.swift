import PushSimKernel
import PushSimNetwork
import PushSimDevices

/// The shape of a scenario, for telling causes of failure apart: its statements with what only
/// names a thing abstracted away, so that two seeds that failed for the same reason (a phone that
/// logged in while offline, a registration that expired) read the same whatever their devices,
/// users, platforms, times and texts.
///
/// Each statement (but the `scenario` and `seed` lines) becomes one line of the shape: device names
/// become `D1`, `D2`, … and user names `U1`, `U2`, … in the order they first appear (also inside
/// `from:alice`, `username:alice` and `"username:alice"`); every number, time, duration, ratio or
/// range becomes `#`; any other string becomes `"…"`; a platform, push service or hub format
/// (`ios`, `apns`, `apple`, `apns,fcm,wns`) becomes `<platform>`.
///
/// ```
/// at 53s alice-ios1 login alice password alice     →  at # D1 login U1 password U1
/// at 415s operator send apple "{…}" to "username:alice"  →  at # operator send <platform> "…" to "username:U1"
/// ```
public struct ExploreShape: Sendable, Equatable {
    /// What a token names, when it names something.
    enum Name: Sendable, Hashable {
        case device(String)
        case user(String)
    }

    /// One token: its abstracted text, with `{}` where a name was cut out of it, and that name.
    struct Token: Sendable, Equatable {
        var template: String
        var name: Name?
    }

    /// One statement: its tokens, and the line as written.
    struct Statement: Sendable {
        var tokens: [Token]
        var line: String
    }

    /// The `scenario` and `seed` lines, kept as they are (they are not part of the shape).
    let header: [String]
    /// The other statements, in order.
    let statements: [Statement]

    /// The shape's lines: each statement with its names numbered in order of first appearance.
    public let lines: [String]

    public static func == (a: ExploreShape, b: ExploreShape) -> Bool { a.lines == b.lines }

    /// The shape of the scenario `text`.
    public init(_ text: String) {
        var header: [String] = []
        var raw: [(String, ScenarioLine)] = []
        for line in ScenarioShrinker.statements(text) {
            if line.hasPrefix("scenario ") || line.hasPrefix("seed ") { header.append(line); continue }
            raw.append((line, ScenarioLexer.lex(Substring(line), line: 0, path: "").0))
        }
        var devices = Set<String>(), users = Set<String>(ExploreWorkload.userNames)   // looked up only
        for (_, lexed) in raw {
            let t = lexed.tokens
            if t.count >= 2, t[0].isWord("device"), t[1].isWord { devices.insert(t[1].text) }
            for (i, token) in t.enumerated() where token.isWord("user") && i + 1 < t.count && t[i + 1].isWord { users.insert(t[i + 1].text) }
        }
        let statements = raw.map { line, lexed in
            Statement(tokens: lexed.tokens.map { Self.token($0, devices: devices, users: users) }, line: line)
        }
        self.header = header
        self.statements = statements
        var number: [Name: Int] = [:]   // name → its number (looked up only)
        var counts = (devices: 0, users: 0)
        lines = statements.map { s in
            s.tokens.map { token in
                guard let name = token.name else { return token.template }
                let n: Int
                if let k = number[name] {
                    n = k
                } else {
                    if case .device = name { counts.devices += 1; n = counts.devices } else { counts.users += 1; n = counts.users }
                    number[name] = n
                }
                let placeholder: String
                if case .device = name { placeholder = "D\(n)" } else { placeholder = "U\(n)" }
                return token.template.replacing("{}", with: placeholder, maxReplacements: 1)
            }.joined(separator: " ")
        }
    }

    /// Words that only say which platform, push service or hub format (`ios`, `apns`, `apple`).
    static let platformWords: Set<String> = Set(DevicePlatform.allCases.map(\.rawValue))
        .union(PushServiceDescriptor.all.flatMap { [$0.name, $0.hubFormat] })

    private static func token(_ t: ScenarioToken, devices: Set<String>, users: Set<String>) -> Token {
        if t.kind == .string {
            for prefix in ["username:", "from:"] where t.text.hasPrefix(prefix) && users.contains(String(t.text.dropFirst(prefix.count))) {
                return Token(template: "\"\(prefix){}\"", name: .user(String(t.text.dropFirst(prefix.count))))
            }
            return Token(template: "\"…\"", name: nil)
        }
        let w = t.text
        if devices.contains(w) { return Token(template: "{}", name: .device(w)) }
        if users.contains(w) { return Token(template: "{}", name: .user(w)) }
        for prefix in ["username:", "from:"] where w.hasPrefix(prefix) && users.contains(String(w.dropFirst(prefix.count))) {
            return Token(template: "\(prefix){}", name: .user(String(w.dropFirst(prefix.count))))
        }
        if let first = w.unicodeScalars.first, ("0"..."9").contains(first) { return Token(template: "#", name: nil) }
        if w.split(separator: ",").allSatisfy({ platformWords.contains(String($0)) }) { return Token(template: "<platform>", name: nil) }
        return Token(template: w, name: nil)
    }

    /// The texts made of the `header` and a subsequence of `member`'s statements that has this
    /// shape, its names mapped one to one onto `member`'s: at most `limit`, the earliest first
    /// (statements matched as early as they can be), after at most `steps` comparisons.
    func embeddings(in member: ExploreShape, limit: Int, steps: Int = 20_000) -> [String] {
        var found: [String] = []
        var chosen: [Int] = []
        var forward: [Name: Name] = [:], backward: [Name: Name] = [:]   // this shape's name ↔ the member's (looked up only)
        var budget = steps
        func matches(_ s: Statement, _ m: Statement) -> [(Name, Name)]? {
            guard s.tokens.count == m.tokens.count else { return nil }
            var added: [(Name, Name)] = []
            for (a, b) in zip(s.tokens, m.tokens) {
                guard a.template == b.template else { return nil }
                guard let an = a.name, let bn = b.name else { if a.name != nil || b.name != nil { return nil }; continue }
                if case .device = an, case .user = bn { return nil }
                if case .user = an, case .device = bn { return nil }
                if let mapped = forward[an] ?? added.first(where: { $0.0 == an })?.1 { if mapped != bn { return nil }; continue }
                if backward[bn] != nil || added.contains(where: { $0.1 == bn }) { return nil }
                added.append((an, bn))
            }
            return added
        }
        func search(_ i: Int, from start: Int) {
            if found.count >= limit || budget <= 0 { return }
            if i == statements.count {
                found.append((member.header + chosen.map { member.statements[$0].line }).joined(separator: "\n") + "\n")
                return
            }
            var k = start
            while k < member.statements.count, found.count < limit, budget > 0 {
                budget -= 1
                if let added = matches(statements[i], member.statements[k]) {
                    for (a, b) in added { forward[a] = b; backward[b] = a }
                    chosen.append(k)
                    search(i + 1, from: k + 1)
                    chosen.removeLast()
                    for (a, b) in added { forward[a] = nil; backward[b] = nil }
                }
                k += 1
            }
        }
        search(0, from: 0)
        return found
    }
}
