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
    static func fill(_ text: String, n: Int, user: String) -> String {
        guard text.contains("{") else { return text }
        return text.replacing("{n}", with: String(n)).replacing("{user}", with: user)
    }

    /// `kind` with `{n}` and `{user}` replaced in every value it carries (login user and password,
    /// message and recipient of a send, tags, a request's target, body and credentials).
    static func fill(_ kind: ActionKind, n: Int, user: String) -> ActionKind {
        func f(_ s: String) -> String { fill(s, n: n, user: user) }
        switch kind {
        case .login(let u, let p): return .login(user: f(u), password: f(p))
        case .send(let message, let to, let via): return .send(message: f(message), to: f(to), via: via)
        case .register(let tags): return .register(tags: tags.map(f))
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
