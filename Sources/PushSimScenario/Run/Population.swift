import PushSimKernel
import PushSimDevices

/// A population read from `devices <name> <count> <platform>[,…] …`: many devices declared in one
/// statement, driven in one step and checked in one expectation.
///
/// Member `n` (1-based) is named `<name>-<n>` and is used by the user pattern with `{n}` replaced
/// by `n`. Members are kept in member order, which is the order in which a step acts on them and
/// an expectation reports them; no dictionary is ever iterated.
struct Population {
    var name: String
    /// `<name>-1` … `<name>-<count>`, in member order.
    var members: [String]
    /// Each member's user, in member order.
    var users: [String]
    /// The line of the `devices` statement.
    var line: Int

    /// The name of member `n` (1-based) of population `name`.
    static func memberName(_ name: String, _ n: Int) -> String { "\(name)-\(n)" }

    /// The population and member number `name` would be a member of, if it has the form
    /// `<population>-<digits>` (no leading zero): how a device name is recognised as generated.
    static func member(_ name: String) -> (population: String, number: Int)? {
        guard let dash = name.lastIndex(of: "-") else { return nil }
        let digits = name[name.index(after: dash)...]
        guard !digits.isEmpty, digits.first != "0", ScenarioParser.isDigits(digits), let n = Int(digits) else { return nil }
        return (String(name[..<dash]), n)
    }
}

/// The placeholders of population patterns: `{n}` (the member's number) and `{user}` (its user).
enum PopulationPattern {
    /// The first `{…}` in `text` that is not one of `allowed`, and its offset in Unicode scalars
    /// (columns count scalars); an unclosed `{` runs to the end.
    static func unknownPlaceholder(in text: String, allowed: [String]) -> (placeholder: String, offset: Int)? {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "{" else { i += 1; continue }
            var j = i + 1
            while j < scalars.count, scalars[j] != "}" { j += 1 }
            var placeholder = String.UnicodeScalarView()
            placeholder.append(contentsOf: scalars[i..<min(j + 1, scalars.count)])
            let found = String(placeholder)
            guard allowed.contains(found) else { return (found, i) }
            i = j + 1
        }
        return nil
    }

    /// `text` with `{n}` and `{user}` replaced; anything else is left as written.
    ///
    /// Runs once per member and value of every population action (10,000 members: tens of
    /// thousands of times), so an ASCII text is filled in one pass over its bytes
    /// (``fillASCII(_:n:user:)``); any other text goes through ``fillByCharacters(_:n:user:)``,
    /// the definition, which compares Characters (a `}` followed by a combining mark is not a `}`).
    static func fill(_ text: String, n: Int, user: String) -> String {
        guard text.containsByte(where: { $0 == UInt8(ascii: "{") }) else { return text }
        return fillASCII(text, n: n, user: user) ?? fillByCharacters(text, n: n, user: user)
    }

    /// The definition of ``fill(_:n:user:)``: every `{n}`, then every `{user}`, replaced.
    static func fillByCharacters(_ text: String, n: Int, user: String) -> String {
        text.replacing("{n}", with: String(n)).replacing("{user}", with: user)
    }

    /// ``fill(_:n:user:)`` in one pass over the bytes of an ASCII `text`; nil for any other text.
    /// One pass gives what the two replacements give: `n`'s digits can neither make nor break a
    /// `{user}`, and the user's name, put in after `{n}` was replaced, is not looked into.
    static func fillASCII(_ text: String, n: Int, user: String) -> String? {
        let bytes = Array(text.utf8)
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        let number = Array(String(n).utf8), name = Array(user.utf8)
        let nPlaceholder = Array("{n}".utf8), userPlaceholder = Array("{user}".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + name.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "{") {
                if bytes[i...].starts(with: nPlaceholder) { out += number; i += nPlaceholder.count; continue }
                if bytes[i...].starts(with: userPlaceholder) { out += name; i += userPlaceholder.count; continue }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `kind` with `{n}` and `{user}` replaced in every value it carries (login user and password,
    /// message and recipient of a send, tags, a request's target, body and credentials, a topic).
    static func fill(_ kind: DeviceAction, n: Int, user: String) -> DeviceAction {
        func f(_ s: String) -> String { fill(s, n: n, user: user) }
        switch kind {
        case .login(let u, let p): return .login(user: f(u), password: f(p))
        case .send(let message, let to, let via): return .send(message: f(message), to: f(to), via: via)
        case .register(let tags): return .register(tags: tags.map(f))
        case .topic(let topic, let unsubscribe): return .topic(f(topic), unsubscribe: unsubscribe)
        case .request(let method, let target, let auth, let body):
            let filled: RequestAuthorization
            switch auth {
            case .none: filled = .none
            case .basic(let u, let p): filled = .basic(user: f(u), password: f(p))
            case .header(let value): filled = .header(f(value))
            }
            return .request(method: method, target: f(target), authorization: filled, body: body.map(f))
        default: return kind
        }
    }
}
