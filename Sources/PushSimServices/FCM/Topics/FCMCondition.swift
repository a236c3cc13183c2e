import PushSimNetwork

/// A `message.condition` of an FCM send: which topics an app instance must (not) be subscribed to
/// (Citations §2.7, F-TOPIC).
///
/// The grammar, as Google documents it: a term is `'<topic>' in topics`, the topic name quoted
/// with single quotes and valid by `FCMTopicName`; terms combine with `&&` and `||`, a `!` negates
/// the operand after it, and parentheses group. Spaces may stand between any two parts. At most
/// five terms (F-TOPIC: "up to five topics"; PushSim counts each `in topics` term, a topic named
/// twice counting twice).
///
/// Precedence: Google's page says FCM "first evaluates any conditions in parentheses, and then
/// evaluates the expression from left to right" (F-TOPIC). PushSim reads that literally: `&&` and
/// `||` bind equally and group from the left, so `'a' in topics || 'b' in topics && 'c' in topics`
/// is `('a' || 'b') && 'c'`, not what C's precedence would make of it. `!` binds to the one
/// operand after it. `!('a' in topics)` also reaches app instances subscribed to no topic at all
/// (F-TOPIC).
///
/// Anything else (an empty name, a name with other characters, double quotes, a missing `in
/// topics`, an operator at either end, unbalanced parentheses, six or more terms) is refused with
/// FCM's answer for a bad condition, ``FCMError/invalidCondition`` (FCM-COND).
public struct FCMCondition: Sendable, Equatable {
    /// Most `in topics` terms one condition may hold (F-TOPIC).
    public static let maxTopics = 5

    indirect enum Node: Sendable, Equatable {
        case topic(Int)          // index into `topics`
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
    }
    /// Each term's topic, in the order written (a topic named twice is here twice).
    public let topics: [String]
    let root: Node

    /// Why a condition was refused (PushSim's own words, for tests and traces; FCM's answer is
    /// the same for all of them).
    public enum Problem: Error, Equatable, Sendable {
        /// The text ended where an operand or `)` was still expected.
        case unexpectedEnd
        /// Something other than what the grammar allows, at this byte offset.
        case unexpected(at: Int)
        /// A quoted topic name that is empty or has a character outside `[a-zA-Z0-9-_.~%]`.
        case invalidTopicName(String)
        /// More than ``FCMCondition/maxTopics`` terms.
        case tooManyTopics(Int)
    }

    /// Parses `text`; the problem says what was wrong.
    public static func parse(_ text: String) -> Result<FCMCondition, Problem> {
        var parser = Parser(bytes: Array(text.utf8))
        do {
            let root = try parser.expression()
            parser.skipSpaces()
            guard parser.position == parser.bytes.count else { throw Problem.unexpected(at: parser.position) }
            guard parser.topics.count <= maxTopics else { throw Problem.tooManyTopics(parser.topics.count) }
            return .success(FCMCondition(topics: parser.topics, root: root))
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(.unexpectedEnd)
        }
    }

    /// Whether an app instance subscribed to the topics `isSubscribed` says yes to matches.
    public func matches(_ isSubscribed: (String) -> Bool) -> Bool {
        func value(_ node: Node) -> Bool {
            switch node {
            case .topic(let i): return isSubscribed(topics[i])
            case .not(let n): return !value(n)
            case .and(let a, let b): return value(a) && value(b)
            case .or(let a, let b): return value(a) || value(b)
            }
        }
        return value(root)
    }

    /// Whether an app instance subscribed to no topic matches (`!('a' in topics)` does): then
    /// every app instance of the project may be a target, not only the topics' subscribers.
    public var matchesUnsubscribed: Bool { matches { _ in false } }

    /// A recursive-descent reader of the grammar above, over the condition's UTF-8 bytes.
    private struct Parser {
        let bytes: [UInt8]
        var position = 0
        var topics: [String] = []

        mutating func skipSpaces() {
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
        }

        /// Whether the next bytes (after spaces) are `word`; consumed if so.
        mutating func take(_ word: String) -> Bool {
            skipSpaces()
            let w = Array(word.utf8)
            guard position + w.count <= bytes.count, Array(bytes[position..<position + w.count]) == w else { return false }
            position += w.count
            return true
        }

        /// operand (('&&' | '||') operand)*, grouped from the left.
        mutating func expression() throws -> Node {
            var node = try operand()
            while true {
                if take("&&") { node = .and(node, try operand()) }
                else if take("||") { node = .or(node, try operand()) }
                else { return node }
            }
        }

        /// '!' operand | '(' expression ')' | "'" name "'" 'in' 'topics'
        mutating func operand() throws -> Node {
            skipSpaces()
            guard position < bytes.count else { throw Problem.unexpectedEnd }
            if take("!") { return .not(try operand()) }
            if take("(") {
                let inner = try expression()
                guard take(")") else { throw position < bytes.count ? Problem.unexpected(at: position) : Problem.unexpectedEnd }
                return inner
            }
            guard bytes[position] == UInt8(ascii: "'") else { throw Problem.unexpected(at: position) }
            let start = position + 1
            guard let close = bytes[start...].firstIndex(of: UInt8(ascii: "'")) else { throw Problem.unexpectedEnd }
            let name = String(decoding: bytes[start..<close], as: UTF8.self)
            guard FCMTopicName.isValid(name) else { throw Problem.invalidTopicName(name) }
            position = close + 1
            // `in` and `topics` are words: a space must part them from each other and from the name.
            guard position < bytes.count, bytes[position] == UInt8(ascii: " "), take("in"),
                  position < bytes.count, bytes[position] == UInt8(ascii: " "), take("topics") else {
                throw position < bytes.count ? Problem.unexpected(at: position) : Problem.unexpectedEnd
            }
            if position < bytes.count, FCMTopicName.isNameByte(bytes[position]) { throw Problem.unexpected(at: position) }
            topics.append(name)
            return .topic(topics.count - 1)
        }
    }
}
