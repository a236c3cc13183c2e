import PushSimKernel

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

    /// The expression as UTF-8. Every character the grammar knows is ASCII, so the parser reads
    /// bytes; a position is turned into a character offset only when a refusal names it.
    private let bytes: [UInt8]
    private let text: String
    /// Byte offset of the next unread byte.
    private var i = 0
    /// Tags read so far.
    private var tagCount = 0
    /// `(` and `!` open around the current position.
    private var nesting = 0

    /// The expression in `text`, or why the hub refuses it (syntax, too many tags, too deep).
    public static func parse(_ text: String) -> Result<TagExpression, TagExpressionError> {
        // One tag alone, the usual targeted send (`username:alice`): what the reading below
        // makes of it, without its buffer and its walk.
        let length = text.utf8.count
        if length >= 1, length <= TagRules.maxLength, text.allBytes({ $0 < 0x80 && TagRules.isTagCharacter(Unicode.Scalar($0)) }) {
            return .success(.tag(text))
        }
        var p = TagExpressionParser(text: text)
        do {
            p.skipSpaces()
            let e = try p.parseOr()
            p.skipSpaces()
            if p.i < p.bytes.count { throw p.error("unexpected '\(p.character(at: p.i))'") }
            // The tags the reading counted (one per tag it read), not `e.tags` built again.
            let count = p.tagCount
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
            return .failure(p.error("\(error)"))
        }
    }

    /// A list of tags means OR over the list (NH-DOTNET doc comments): `a || b || c`.
    public static func orList(_ tags: [String]) -> String { tags.joined(separator: " || ") }

    private init(text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    /// A refusal at the current position.
    private func error(_ message: String) -> TagExpressionError { error(message, at: i) }

    /// A refusal at byte offset `byteOffset`, reported as a 0-based character offset.
    private func error(_ message: String, at byteOffset: Int) -> TagExpressionError {
        TagExpressionError(offset: text[..<stringIndex(byteOffset)].count, message: message)
    }

    /// The character that starts at byte offset `byteOffset` (always a character boundary: the
    /// parser stops only after ASCII bytes).
    private func character(at byteOffset: Int) -> Character { text[stringIndex(byteOffset)...].first ?? " " }

    private func stringIndex(_ byteOffset: Int) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: byteOffset)
    }

    private mutating func skipSpaces() { while i < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 } }

    /// Reads `token` (ASCII) and the spaces after it, if it comes next.
    private mutating func eat(_ token: String) -> Bool {
        let n = token.utf8.count
        guard i + n <= bytes.count, bytes[i..<(i + n)].elementsEqual(token.utf8) else { return false }
        i += n
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
            guard eat(")") else { throw error(i < bytes.count ? "expected ')' but found '\(character(at: i))'" : "expected ')' before the end") }
            return e
        }
        tagCount += 1
        guard tagCount <= Self.maxTagsRead else {
            throw error("A tag expression can name at most \(Self.maxTagsOrOnly) tags; this one names more than \(Self.maxTagsRead)")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "$") { return .tag(try implicitTag()) }
        let start = i
        while i < bytes.count, bytes[i] < 0x80, TagRules.isTagCharacter(Unicode.Scalar(bytes[i])) { i += 1 }
        guard i > start else {
            throw error(i < bytes.count ? "expected a tag, '!' or '(' but found '\(character(at: i))'" : "expected a tag before the end")
        }
        guard i - start <= TagRules.maxLength else { throw error("tag longer than \(TagRules.maxLength) characters", at: start) }
        let tag = String(decoding: bytes[start..<i], as: UTF8.self)
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
            let p = Array(prefix.utf8)
            guard i + p.count <= bytes.count, zip(bytes[i..<i + p.count], p).allSatisfy({ $0.asciiLowercased == $1.asciiLowercased }) else { continue }
            var k = i + p.count
            while k < bytes.count, bytes[k] != UInt8(ascii: "}") { k += 1 }
            guard k < bytes.count, k > i + p.count else {
                throw error("the implicit tag \(prefix)…} is not closed or is empty", at: start)
            }
            let tag = prefix + String(decoding: bytes[(i + p.count)..<k], as: UTF8.self) + "}"
            i = k + 1
            skipSpaces()
            return tag
        }
        throw error("a tag starting with '$' must be $InstallationId:{…} or $UserId:{…}", at: start)
    }
}
