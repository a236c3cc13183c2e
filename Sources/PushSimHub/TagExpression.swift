/// A parsed tag expression: `&&`, `||`, `!` and parentheses over tags (NH-TAGS).
public indirect enum TagExpression: Sendable, Equatable, CustomStringConvertible {
    /// One tag: matches a registration carrying it.
    case tag(String)
    /// `!e`
    case not(TagExpression)
    /// `a && b`
    case and(TagExpression, TagExpression)
    /// `a || b`
    case or(TagExpression, TagExpression)

    /// True if a registration with `tags` matches.
    public func matches(_ tags: (String) -> Bool) -> Bool {
        switch self {
        case .tag(let t): return tags(t)
        case .not(let e): return !e.matches(tags)
        case .and(let a, let b): return a.matches(tags) && b.matches(tags)
        case .or(let a, let b): return a.matches(tags) || b.matches(tags)
        }
    }

    /// Every tag the expression names, in order of appearance (repeats included).
    public var tags: [String] {
        switch self {
        case .tag(let t): return [t]
        case .not(let e): return e.tags
        case .and(let a, let b), .or(let a, let b): return a.tags + b.tags
        }
    }

    /// Whether only `||` joins the tags (no `&&`, no `!`).
    public var usesOnlyOr: Bool {
        switch self {
        case .tag: return true
        case .not, .and: return false
        case .or(let a, let b): return a.usesOnlyOr && b.usesOnlyOr
        }
    }

    public var description: String {
        switch self {
        case .tag(let t): return t
        case .not(let e): return "!\(e.parenthesised)"
        case .and(let a, let b): return "\(a.parenthesised) && \(b.parenthesised)"
        case .or(let a, let b): return "\(a.parenthesised) || \(b.parenthesised)"
        }
    }

    private var parenthesised: String {
        switch self {
        case .tag, .not: return description
        default: return "(\(description))"
        }
    }
}

/// A tag expression the hub refuses, with the 0-based character offset of the problem.
public struct TagExpressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 0-based character offset of the problem in the expression.
    public var offset: Int
    /// What is wrong, in words.
    public var message: String
    public var description: String { "\(message) (at character \(offset + 1))" }
}

/// Parses tag expressions and applies the hub's size rule: at most 20 tags when only `||` is
/// used, otherwise at most 6 (NH-TAGS, NH-DOTNET `NotificationHubClient.cs`).
/// Precedence: `!` binds tightest, then `&&`, then `||`.
///
/// The parser never recurses or allocates without bound, whatever the request carries: it stops
/// reading at the 101st tag (``maxTagsRead``; no expression the hub accepts names more than
/// ``maxTagsOrOnly``), and at a nesting of more than ``maxNesting`` parentheses and `!`. Microsoft documents no nesting
/// limit; the real hub answers an expression it refuses with 400 Bad Request, and so does this one.
public struct TagExpressionParser {
    /// Most tags in an expression that uses only `||` (NH-TAGS).
    public static let maxTagsOrOnly = 20
    /// Most tags in an expression that uses `&&` or `!` (NH-TAGS).
    public static let maxTagsMixed = 6
    /// The deepest nesting of `(` and `!` accepted (not documented by Microsoft; chosen so that
    /// every expression within the tag limits fits with room to spare).
    public static let maxNesting = 64
    /// Tags read before giving up; the refusal names the exact count up to here.
    public static let maxTagsRead = 100

    private let chars: [Character]
    private var i = 0
    /// Tags read so far.
    private var tagCount = 0
    /// `(` and `!` open around the current position.
    private var nesting = 0

    /// The expression in `text`, or why the hub refuses it (syntax, too many tags, too deep).
    public static func parse(_ text: String) -> Result<TagExpression, TagExpressionError> {
        var p = TagExpressionParser(chars: Array(text))
        do {
            p.skipSpaces()
            let e = try p.parseOr()
            p.skipSpaces()
            if p.i < p.chars.count { throw p.error("unexpected '\(p.chars[p.i])'") }
            let count = e.tags.count
            if e.usesOnlyOr && count > maxTagsOrOnly {
                return .failure(TagExpressionError(offset: 0, message: "A tag expression using only || can name at most \(maxTagsOrOnly) tags; this one names \(count)"))
            }
            if !e.usesOnlyOr && count > maxTagsMixed {
                return .failure(TagExpressionError(offset: 0, message: "A tag expression using && or ! can name at most \(maxTagsMixed) tags; this one names \(count)"))
            }
            return .success(e)
        } catch let e as TagExpressionError {
            return .failure(e)
        } catch {
            return .failure(TagExpressionError(offset: p.i, message: "\(error)"))
        }
    }

    /// A list of tags means OR over the list (NH-DOTNET doc comments): `a || b || c`.
    public static func orList(_ tags: [String]) -> String { tags.joined(separator: " || ") }

    private init(chars: [Character]) { self.chars = chars }

    private func error(_ message: String) -> TagExpressionError { TagExpressionError(offset: i, message: message) }

    private mutating func skipSpaces() { while i < chars.count, chars[i] == " " { i += 1 } }

    private mutating func eat(_ s: String) -> Bool {
        let t = Array(s)
        guard i + t.count <= chars.count, Array(chars[i..<i + t.count]) == t else { return false }
        i += t.count
        skipSpaces()
        return true
    }

    private mutating func parseOr() throws -> TagExpression {
        var left = try parseAnd()
        while eat("||") { left = .or(left, try parseAnd()) }
        return left
    }

    private mutating func parseAnd() throws -> TagExpression {
        var left = try parseNot()
        while eat("&&") { left = .and(left, try parseNot()) }
        return left
    }

    private mutating func parseNot() throws -> TagExpression {
        if eat("!") {
            try enterNesting()
            defer { nesting -= 1 }
            return .not(try parseNot())
        }
        if eat("(") {
            try enterNesting()
            defer { nesting -= 1 }
            let e = try parseOr()
            guard eat(")") else { throw error(i < chars.count ? "expected ')' but found '\(chars[i])'" : "expected ')' before the end") }
            return e
        }
        tagCount += 1
        guard tagCount <= Self.maxTagsRead else {
            throw error("A tag expression can name at most \(Self.maxTagsOrOnly) tags; this one names more than \(Self.maxTagsRead)")
        }
        if i < chars.count, chars[i] == "$" { return .tag(try implicitTag()) }
        let start = i
        while i < chars.count, let s = chars[i].unicodeScalars.first, chars[i].unicodeScalars.count == 1, TagRules.isTagCharacter(s) { i += 1 }
        guard i > start else {
            throw error(i < chars.count ? "expected a tag, '!' or '(' but found '\(chars[i])'" : "expected a tag before the end")
        }
        let tag = String(chars[start..<i])
        guard tag.count <= TagRules.maxLength else { throw TagExpressionError(offset: start, message: "tag longer than \(TagRules.maxLength) characters") }
        skipSpaces()
        return .tag(tag)
    }

    private mutating func enterNesting() throws {
        nesting += 1
        guard nesting <= Self.maxNesting else {
            throw error("A tag expression can nest '(' and '!' at most \(Self.maxNesting) deep")
        }
    }

    /// `$InstallationId:{id}` or `$UserId:{userId}`: the implicit tags of installations (NH-REG),
    /// whose `$`, braces and content fall outside the tag charset. The prefix is read without
    /// regard to case and written canonically.
    private mutating func implicitTag() throws -> String {
        let start = i
        for prefix in ["$InstallationId:{", "$UserId:{"] {
            let p = Array(prefix)
            guard i + p.count <= chars.count, String(chars[i..<i + p.count]).lowercased() == prefix.lowercased() else { continue }
            var k = i + p.count
            while k < chars.count, chars[k] != "}" { k += 1 }
            guard k < chars.count, k > i + p.count else {
                throw TagExpressionError(offset: start, message: "the implicit tag \(prefix)…} is not closed or is empty")
            }
            let tag = prefix + String(chars[(i + p.count)..<k]) + "}"
            i = k + 1
            skipSpaces()
            return tag
        }
        throw TagExpressionError(offset: start, message: "a tag starting with '$' must be $InstallationId:{…} or $UserId:{…}")
    }
}
