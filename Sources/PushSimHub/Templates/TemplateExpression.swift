import PushSimNetwork

/// One value of a template: a literal, or an expression the hub evaluates against the send's
/// property bag (Citations §4.5, NH-TPL).
///
/// The grammar is the one the .NET SDK validates before it sends a template registration
/// (NH-DOTNET `Messaging/ExpressionEvaluator.cs`), which is also what the hub accepts:
/// - the kind of a value is decided by its FIRST character: `$`, `.` or `%` start a string
///   expression, `#` a numeric one, `{` a composite one; anything else is a literal and is sent
///   as written (so `"Hello $(name)"` is NOT substituted: an expression is a whole value);
/// - a token is `$(prop)`, `$(prop, n)` (first n characters), `.(prop, n)` (n characters at most,
///   ending in `...` when clipped), `%(prop)` (URI-encoded), `#(prop)` (a number in JSON), or a
///   literal `'text'` / `"text"` (a doubled quote stands for one quote);
/// - tokens are joined with `+`; a composite value is wrapped in `{ }` (`{'From ' + $(user)}`);
/// - property names are 1 to 120 of `A-Z a-z 0-9 _` and are matched case-insensitively;
/// - `#( )` may not be concatenated; `%( )` and `#( )` take no length; `.( )` needs one;
/// - `$(prop:{default})` gives a default for a missing property (NH-DOTNET), `$body` is refused.
/// A missing property evaluates to the empty string (NH-TPL).
public indirect enum TemplateExpression: Sendable, Equatable {
    /// Written as is.
    case literal(String)
    /// `$(name)` or `$(name, n)`.
    case property(String, clip: Int?, fallback: String?)
    /// `.(name, n)`: at most n characters, `...` included when the value was clipped.
    case ellipsis(String, limit: Int, fallback: String?)
    /// `%(name)`: RFC 3986 percent-encoded.
    case uriEncoded(String, fallback: String?)
    /// `#(name)`: the value, emitted as a JSON number when it is one and is the whole value.
    case numeric(String, fallback: String?)
    /// `a + b + …`.
    case concatenation([TemplateExpression])

    /// Longest property name (NH-DOTNET `MaxLengthOfPropertyName`).
    public static let maxPropertyName = 120

    /// Whether the value of this expression may be written as a bare JSON number: only a whole
    /// `#(prop)` value (not inside `{ }`) does so (NH-TPL).
    var isNumeric: Bool { if case .numeric = self { return true } else { return false } }

    /// The value for `properties`; a missing property gives its default or "".
    public func evaluate(_ properties: TemplateProperties) -> String {
        switch self {
        case .literal(let text): return text
        case .property(let name, let clip, let fallback):
            let value = properties[name] ?? fallback ?? ""
            return clip.map { String(value.prefix($0)) } ?? value
        case .ellipsis(let name, let limit, let fallback):
            let value = properties[name] ?? fallback ?? ""
            guard value.count > limit else { return value }
            return limit >= 3 ? String(value.prefix(limit - 3)) + "..." : String("...".prefix(limit))
        case .uriEncoded(let name, let fallback): return percentEncode(properties[name] ?? fallback ?? "")
        case .numeric(let name, let fallback): return properties[name] ?? fallback ?? ""
        case .concatenation(let parts): return parts.map { $0.evaluate(properties) }.joined()
        }
    }

    /// Reads one template value. Returns `.literal(value)` for a value that is not an expression,
    /// or the reason the hub's 400 gives.
    public static func parse(_ value: String) -> Result<TemplateExpression, TemplateError> {
        guard let first = value.first, "$.%#{".contains(first) else { return .success(.literal(value)) }
        var body = Substring(value)
        let composite = first == "{"
        if composite {
            guard value.last == "}", value.count >= 2 else {
                return .failure(TemplateError("the expression '\(value)' has no closing '}'"))
            }
            body = body.dropFirst().dropLast()
        }
        var parser = TemplateTokenParser(whole: value, rest: body)
        do {
            let tokens = try parser.tokens()
            if tokens.count > 1, tokens.contains(where: \.isNumeric) {
                return .failure(TemplateError("the expression '\(value)' concatenates #( ), which must stand alone"))
            }
            if tokens.count == 1 { return .success(composite && tokens[0].isNumeric ? .concatenation(tokens) : tokens[0]) }
            return .success(.concatenation(tokens))
        } catch let e as TemplateError {
            return .failure(e)
        } catch {
            return .failure(TemplateError("the expression '\(value)' is malformed"))
        }
    }
}

/// Why a template or one of its expressions is refused (the hub answers 400 with it).
public struct TemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    /// An error worded as `description`.
    public init(_ description: String) { self.description = description }
}

/// The property bag of a template send: flat name/value pairs. Names are matched
/// case-insensitively; when two names differ only in case the first one wins (NH-TPL).
public struct TemplateProperties: Sendable, Equatable {
    /// The pairs as given, in order.
    public let pairs: [Pair]
    private let byLowercasedName: [String: String]   // looked up only, never iterated

    /// One property.
    public struct Pair: Sendable, Equatable {
        /// The property's name, case as given.
        public var name: String
        /// Its value, always a string.
        public var value: String
        /// A property `name` = `value`.
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    /// A bag of `pairs`, in order; a later name equal to an earlier one but for case is kept in
    /// ``pairs`` but never looked up.
    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs.map { Pair($0.0, $0.1) }
        var index: [String: String] = [:]
        for (name, value) in pairs where index[name.lowercased()] == nil { index[name.lowercased()] = value }
        byLowercasedName = index
    }

    /// The value of `name`, ignoring case; nil when absent.
    public subscript(name: String) -> String? { byLowercasedName[name.lowercased()] }

    public static func == (a: TemplateProperties, b: TemplateProperties) -> Bool { a.pairs == b.pairs }
}

/// Reads `token ('+' token)*` from the inside of a value (ExpressionEvaluator's tokenizer).
private struct TemplateTokenParser {
    let whole: String
    var rest: Substring

    mutating func tokens() throws -> [TemplateExpression] {
        var out: [TemplateExpression] = []
        while true {
            rest = rest.drop(while: { $0 == " " })
            out.append(try token())
            rest = rest.drop(while: { $0 == " " })
            if rest.isEmpty { return out }
            guard rest.first == "+" else { throw fail("expected '+' before '\(rest)'") }
            rest = rest.dropFirst()
        }
    }

    private func fail(_ why: String) -> TemplateError { TemplateError("the expression '\(whole)' is malformed: \(why)") }

    private mutating func token() throws -> TemplateExpression {
        guard let kind = rest.first else { throw fail("an expression is missing") }
        if kind == "'" || kind == "\"" { return .literal(try literal(quote: kind)) }
        guard "$.%#".contains(kind) else { throw fail("'\(rest)' is not an expression") }
        if kind == "$", rest.lowercased().hasPrefix("$body") { throw fail("$body is not supported in templates") }
        guard rest.dropFirst().first == "(" else { throw fail("'\(kind)' must be followed by '('") }
        rest = rest.dropFirst(2)
        guard let close = rest.firstIndex(of: ")") else { throw fail("no closing ')'") }
        var inside = rest[..<close]
        rest = rest[rest.index(after: close)...]
        var fallback: String?
        if let open = inside.firstRange(of: ":{") {
            guard let end = inside[open.upperBound...].firstIndex(of: "}") else { throw fail("the default has no closing '}'") }
            fallback = String(inside[open.upperBound..<end])
            inside = inside[..<open.lowerBound] + inside[inside.index(after: end)...]
        }
        var length: Int?
        if let comma = inside.firstIndex(of: ",") {
            let digits = inside[inside.index(after: comma)...].trimmingSpaces
            guard let n = Int(digits), n >= 0 else { throw fail("'\(digits)' is not a non-negative integer") }
            length = n
            inside = inside[..<comma]
        }
        let name = String(inside.trimmingSpaces)
        guard !name.isEmpty, name.count <= TemplateExpression.maxPropertyName,
              name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) else {
            throw fail("'\(name)' is not a property name (1 to \(TemplateExpression.maxPropertyName) of A-Z a-z 0-9 _)")
        }
        switch kind {
        case "$": return .property(name, clip: length, fallback: fallback)
        case ".":
            guard let length else { throw fail(".( ) needs a length: .(\(name), n)") }
            return .ellipsis(name, limit: length, fallback: fallback)
        case "%":
            guard length == nil else { throw fail("%( ) takes no length") }
            return .uriEncoded(name, fallback: fallback)
        default:
            guard length == nil else { throw fail("#( ) takes no length") }
            return .numeric(name, fallback: fallback)
        }
    }

    /// `'…'` or `"…"`; a doubled quote inside is one quote.
    private mutating func literal(quote: Character) throws -> String {
        var text = ""
        var i = rest.index(after: rest.startIndex)
        while i < rest.endIndex {
            if rest[i] == quote {
                let next = rest.index(after: i)
                if next < rest.endIndex, rest[next] == quote { text.append(quote); i = rest.index(after: next); continue }
                rest = rest[next...]
                return text
            }
            text.append(rest[i])
            i = rest.index(after: i)
        }
        throw fail("the literal has no closing \(quote)")
    }
}
