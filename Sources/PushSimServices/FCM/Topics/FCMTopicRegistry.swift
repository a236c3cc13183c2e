import PushSimKernel

/// Which registration tokens are subscribed to which topics, per Firebase project (Citations
/// §2.7): what the Instance ID API's `batchAdd` and `batchRemove` change (IID-SERVER), what an
/// Android app's `subscribeToTopic` changes from the device (FA-ANDROID-RPC), and what a `topic`
/// or `condition` send fans out to (F-TOPIC).
///
/// Topics belong to a project: the same name in two projects is two topics. A topic has no limit
/// on subscribers; one token may be subscribed to at most ``maxTopicsPerToken`` (2,000) topics
/// (F-TOPIC-LIMITS). A token that dies leaves all its topics (``drop(_:)``).
///
/// Each topic keeps its subscribers in an array in the order they subscribed (an unsubscribe
/// moves the last one into the gap): the order a fan-out reaches them, the same in every run
/// with the same seed. Dictionaries are only looked up, never iterated for behaviour.
struct FCMTopicRegistry {
    /// Most topics one token may be subscribed to (F-TOPIC-LIMITS).
    static let maxTopicsPerToken = 2_000

    private struct TopicKey: Hashable {
        var project: String
        var topic: String
    }
    /// One topic's subscribers: in order, with each one's place for a quick removal.
    private struct Members {
        var tokens: [String] = []
        var index: [String: Int] = [:]
        mutating func add(_ token: String) {
            index[token] = tokens.count
            tokens.append(token)
        }
    }
    /// One token's subscriptions: its project, and each topic with when it was added.
    private struct Subscriptions {
        var project: String
        var addedAt: [String: VirtualTime] = [:]
    }
    private var members: [TopicKey: Members] = [:]
    private var subscriptions: [String: Subscriptions] = [:]

    /// What a subscribe came to.
    enum Outcome: Equatable {
        /// Now subscribed (also when it already was: subscribing again changes nothing).
        case subscribed
        /// Refused: the token already has ``FCMTopicRegistry/maxTopicsPerToken`` other topics.
        case tooManyTopics
    }

    /// Subscribes `token` (of `project`) to `topic` at `time`.
    mutating func subscribe(_ token: String, to topic: String, project: String, at time: VirtualTime) -> Outcome {
        var subs = subscriptions[token] ?? Subscriptions(project: project)
        if subs.addedAt[topic] != nil { return .subscribed }
        guard subs.addedAt.count < Self.maxTopicsPerToken else { return .tooManyTopics }
        subs.addedAt[topic] = time
        subscriptions[token] = subs
        members[TopicKey(project: project, topic: topic), default: Members()].add(token)
        return .subscribed
    }

    /// Unsubscribes `token` from `topic` (nothing happens if it was not subscribed). Returns
    /// whether it was.
    @discardableResult
    mutating func unsubscribe(_ token: String, from topic: String) -> Bool {
        guard var subs = subscriptions[token], subs.addedAt.removeValue(forKey: topic) != nil else { return false }
        subscriptions[token] = subs.addedAt.isEmpty ? nil : subs
        removeMember(token, from: TopicKey(project: subs.project, topic: topic))
        return true
    }

    private mutating func removeMember(_ token: String, from key: TopicKey) {
        guard var m = members.removeValue(forKey: key), let at = m.index.removeValue(forKey: token) else { return }
        let last = m.tokens.removeLast()
        if at < m.tokens.count {
            m.tokens[at] = last
            m.index[last] = at
        }
        if !m.tokens.isEmpty { members[key] = m }
    }

    /// Removes a dead token from every topic it was subscribed to; returns those topics, sorted.
    mutating func drop(_ token: String) -> [String] {
        guard let subs = subscriptions.removeValue(forKey: token) else { return [] }
        let topics = subs.addedAt.keys.sorted()
        for topic in topics { removeMember(token, from: TopicKey(project: subs.project, topic: topic)) }
        return topics
    }

    /// The tokens subscribed to `topic` in `project`, in the order they subscribed (see above).
    func subscribers(of topic: String, project: String) -> [String] {
        members[TopicKey(project: project, topic: topic)]?.tokens ?? []
    }

    /// How many tokens are subscribed to `topic` in `project`.
    func subscriberCount(of topic: String, project: String) -> Int {
        members[TopicKey(project: project, topic: topic)]?.tokens.count ?? 0
    }

    /// Whether `token` is subscribed to `topic`.
    func isSubscribed(_ token: String, to topic: String) -> Bool {
        subscriptions[token]?.addedAt[topic] != nil
    }

    /// Whether `token` is subscribed to any topic.
    func hasTopics(_ token: String) -> Bool { subscriptions[token] != nil }

    /// `token`'s topics with the time each was added, sorted by name.
    func topics(of token: String) -> [(topic: String, addedAt: VirtualTime)] {
        (subscriptions[token]?.addedAt ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The tokens a send to `condition` in `project` may reach among the topics' subscribers: each
    /// topic's subscribers in order, topics in the order the condition names them, each token once.
    /// A condition that also matches a token with no topics needs the project's other tokens too
    /// (``FCMCondition/matchesUnsubscribed``); this does not list those.
    func candidates(for condition: FCMCondition, project: String) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for topic in condition.topics {
            for token in subscribers(of: topic, project: project) where seen.insert(token).inserted { out.append(token) }
        }
        return out
    }
}
