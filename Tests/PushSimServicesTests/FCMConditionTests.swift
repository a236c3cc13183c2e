import Testing
@testable import PushSimServices
import PushSimNetwork

@Suite("FCM topic conditions: grammar, precedence, limits (Citations §2.7)")
struct FCMConditionTests {
    /// Parses `text` (which must be valid) and evaluates it for an app instance subscribed to `topics`.
    func matches(_ text: String, _ topics: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard case .success(let c) = FCMCondition.parse(text) else {
            Issue.record("\(text) did not parse", sourceLocation: sourceLocation)
            return false
        }
        return c.matches { topics.contains($0) }
    }

    @Test func googlesExampleReachesAAndBOrC() {
        let c = "'TopicA' in topics && ('TopicB' in topics || 'TopicC' in topics)"
        #expect(matches(c, ["TopicA", "TopicB"]))
        #expect(matches(c, ["TopicA", "TopicC"]))
        #expect(!matches(c, ["TopicA"]))
        #expect(!matches(c, ["TopicB", "TopicC"]))
    }

    /// Parentheses first, then left to right with `&&` and `||` equal (F-TOPIC): `A || B && C`
    /// is `(A || B) && C`, so an instance subscribed to A alone is not reached (C's precedence
    /// would reach it).
    @Test func andAndOrAreEvaluatedLeftToRight() {
        #expect(!matches("'A' in topics || 'B' in topics && 'C' in topics", ["A"]))
        #expect(matches("'A' in topics || 'B' in topics && 'C' in topics", ["A", "C"]))
        #expect(matches("'A' in topics || ('B' in topics && 'C' in topics)", ["A"]))
        #expect(matches("'A' in topics && 'B' in topics || 'C' in topics", ["C"]))
    }

    @Test func notNegatesTheOperandAfterIt() {
        #expect(matches("!('A' in topics)", []))
        #expect(!matches("!('A' in topics)", ["A"]))
        #expect(matches("!'A' in topics && 'B' in topics", ["B"]))
        #expect(!matches("!('A' in topics && 'B' in topics)", ["A", "B"]))
        guard case .success(let negated) = FCMCondition.parse("!('A' in topics)") else { return #expect(Bool(false)) }
        #expect(negated.matchesUnsubscribed)
    }

    @Test func spacesMayStandBetweenParts() {
        #expect(matches("  ( 'A'  in  topics )&&'B' in topics  ", ["A", "B"]))
    }

    @Test func fiveTopicsAreAllowedSixAreNot() {
        let five = (1...5).map { "'t\($0)' in topics" }.joined(separator: " || ")
        #expect(matches(five, ["t5"]))
        let six = (1...6).map { "'t\($0)' in topics" }.joined(separator: " || ")
        #expect(FCMCondition.parse(six) == .failure(.tooManyTopics(6)))
    }

    @Test(arguments: [
        "", "'A'", "'A' in", "'A' in topic", "'A' in topics &&", "&& 'A' in topics", "('A' in topics",
        "'A' in topics)", "\"A\" in topics", "'' in topics", "'a b' in topics", "'/topics/a' in topics",
        "'A' in topicsx", "'A'in topics", "'A' in topics 'B' in topics", "'A' in topics & 'B' in topics", "!",
        "'A' IN topics",
    ])
    func malformedConditionsAreRefused(text: String) {
        guard case .failure = FCMCondition.parse(text) else { return #expect(Bool(false), "\(text) parsed") }
    }

    @Test func refusalsSayWhy() {
        #expect(FCMCondition.parse("'A' in topics &&") == .failure(.unexpectedEnd))
        #expect(FCMCondition.parse("'a$' in topics") == .failure(.invalidTopicName("a$")))
        #expect(FCMCondition.parse("'A' in topics ?") == .failure(.unexpected(at: 14)))
    }

    @Test func topicNames() {
        #expect(FCMTopicName.isValid("news-1_x.~%20"))
        #expect(!FCMTopicName.isValid(""))
        #expect(!FCMTopicName.isValid("/topics/news"))
        #expect(!FCMTopicName.isValid("news feed"))
        #expect(!FCMTopicName.isValid("nöws"))
        #expect(FCMTopicName.fromInstanceIDTarget("/topics/news") == "news")
        #expect(FCMTopicName.fromInstanceIDTarget("news") == nil)
        #expect(FCMTopicName.fromInstanceIDTarget("/topics/") == nil)
    }
}
