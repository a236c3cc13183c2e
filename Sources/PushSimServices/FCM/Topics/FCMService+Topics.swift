import PushSimKernel
import PushSimNetwork

/// Topic and condition sends, and the device side of topic subscriptions (Citations §2.7).
extension FCMService {
    /// Who a topic or condition send is for.
    enum FanOutTarget {
        case topic(String)
        case condition(FCMCondition)
    }

    /// Accepts a send to a topic or a condition and hands one copy to each app instance it
    /// reaches, each through the same path as a send to its token (offline storage, collapse
    /// keys, TTL; `deliver`). The answer names the message `projects/<id>/messages/<number>`, the
    /// form FCM gives a topic message (FCM-TOPIC-ID); the copies all carry that name. A dry run
    /// (`validate_only`) reaches nobody and is named as any dry run.
    ///
    /// Reached: every live token of the project subscribed as the target asks, in the order they
    /// subscribed (`FCMTopicRegistry`); for a condition that an app instance with no topics also
    /// meets (`!('a' in topics)`), every live token of the project, in the order FCM issued them
    /// (F-TOPIC). A token found dead or expired on the way leaves its topics and gets no copy.
    /// Traced as `fcm.accepted` (device `-`), then `fcm.fan-out` with the number of copies.
    /// Injected faults on the whole service apply (they are asked before the body is read); a
    /// fault scoped to a token, device, app or FID does not touch a topic send's copies.
    func fanOut(_ message: FCMMessage, to target: FanOutTarget, project: FCMProject, reply: Reply, world: World) {
        let (name, body) = message.validateOnly ? FCMSuccessBody.plain(project: project.projectID, messageID: "fake_message_id")
            : FCMSuccessBody.plain(project: project.projectID, messageID: String(random.int(in: 1_000_000_000_000_000_000...Int64.max)))
        world.record(layer: "fcm", host: Self.name, kind: .fcmAccepted,
                     [Self.messageIDField: .string(name), .device: "-", .validateOnly: .bool(message.validateOnly)])
        reply.send(HTTPResponse(status: 200, headers: Self.jsonContentType, body: body), world: world)
        guard !message.validateOnly else { return }
        let candidates: [String], label: String
        switch target {
        case .topic(let topic):
            (candidates, label) = (topicRegistry.subscribers(of: topic, project: project.projectNumber), "topic \(topic)")
        case .condition(let condition):
            candidates = condition.matchesUnsubscribed
                ? issued.handles(environment: project.projectNumber).filter { t in condition.matches { topicRegistry.isSubscribed(t, to: $0) } }
                : topicRegistry.candidates(for: condition, project: project.projectNumber).filter { t in condition.matches { topicRegistry.isSubscribed(t, to: $0) } }
            label = "condition"
        }
        var copies: [(token: String, place: HandlePlace, device: String, app: String)] = []
        copies.reserveCapacity(candidates.count)
        for token in candidates {
            guard let place = issued.place(of: token) else { continue }
            let record = issued.recordReadInPlace(at: place)
            if record.invalidatedAt != nil { continue }
            if let limit = tokenInactivityLimit, world.now >= record.lastActiveAt + limit {
                issued.invalidate(token, at: record.lastActiveAt + limit)
                dropTopics(of: token, why: "the token expired", world: world)
                continue
            }
            copies.append((token, place, record.device, record.app))
        }
        world.record(layer: "fcm", host: Self.name, kind: .fcmFanOut,
                     [Self.messageIDField: .string(name), .target: .string(label), .copies: .int(copies.count)])
        for copy in copies {
            // An iOS app instance's copy goes through APNs (FCMService+Relay.swift); its outcome is traced only.
            if let binding = apnsBindings[copy.token] {
                relay(message, name: name, token: copy.token, binding: binding, device: copy.device, project: project, world: world) { _ in }
                continue
            }
            deliver(entry(name: name, message: message, token: copy.token, app: copy.app, world: world), device: copy.device, place: copy.place, world: world)
        }
    }

    /// A dead token leaves every topic it was subscribed to (traced when it had any).
    func dropTopics(of token: String, why: String, world: World) {
        let topics = topicRegistry.drop(token)
        guard !topics.isEmpty else { return }
        world.record(layer: "fcm", host: Self.name, kind: .fcmTopicsDropped,
                     [.token: .string(shortToken(token)), .topics: .string(topics.joined(separator: ",")), .why: .string(why)])
    }

    /// How many tokens of `project` (its id or number) FCM holds on `topic`: a token whose app is
    /// gone counts until FCM learns it is dead (a copy refused, or unused for 270 days).
    public func subscriberCount(of topic: String, project: String) -> Int {
        guard let p = projects.first(where: { $0.projectID == project || $0.projectNumber == project }) else { return 0 }
        return topicRegistry.subscriberCount(of: topic, project: p.projectNumber)
    }

    /// The topics `token` is subscribed to, sorted, each with when it was added.
    public func topics(of token: String) -> [(topic: String, addedAt: VirtualTime)] { topicRegistry.topics(of: token) }

    /// A device's `POST /topics` (`DeviceChannel`): the app's Firebase SDK subscribes its own
    /// token to a topic or unsubscribes it, as `subscribeToTopic` / `unsubscribeFromTopic` do
    /// through the registration RPC (FA-ANDROID-RPC). The token must be one FCM issued to this
    /// device and still live; the topic `/topics/<valid name>`. Answers `200 {}`, or 400 with
    /// `{"error":"INVALID_PARAMETERS"}` (PushSim's own channel: the SDK's RPC errors are not
    /// modelled), or `{"error":"TOO_MANY_TOPICS"}` past 2,000 topics (F-TOPIC-LIMITS).
    func answerDeviceTopicRequest(_ request: HTTPRequest, exchange: Exchange, world: World) {
        func answer(_ status: Int, _ body: String) {
            world.respond(to: exchange, with: HTTPResponse(status: status, headers: Self.jsonContentType, text: body))
        }
        guard let ask = DeviceMembershipRequest(.topic, body: request.body), let topic = FCMTopicName.fromInstanceIDTarget(ask.name),
              let record = issued[ask.token], record.device == exchange.caller, record.invalidatedAt == nil else {
            return answer(400, #"{"error":"INVALID_PARAMETERS"}"#)
        }
        if ask.delete {
            topicRegistry.unsubscribe(ask.token, from: topic)
            world.record(layer: "fcm", host: Self.name, kind: .fcmUnsubscribed,
                         [.topic: .string(topic), .token: .string(shortToken(ask.token)), .device: .string(record.device)])
            return answer(200, "{}")
        }
        guard topicRegistry.subscribe(ask.token, to: topic, project: record.environment, at: world.now) == .subscribed else {
            return answer(400, #"{"error":"TOO_MANY_TOPICS"}"#)
        }
        world.record(layer: "fcm", host: Self.name, kind: .fcmSubscribed,
                     [.topic: .string(topic), .token: .string(shortToken(ask.token)), .device: .string(record.device)])
        answer(200, "{}")
    }
}
