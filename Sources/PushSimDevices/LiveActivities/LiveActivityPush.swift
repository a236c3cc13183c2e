import PushSimKernel
import PushSimNetwork

/// An ActivityKit push notification's `aps` dictionary, as the device reads it (Citations §1.14,
/// A-LA-PUSH): `timestamp` (Unix seconds), `event` (`start`, `update` or `end`), `content-state`,
/// and the optional `stale-date`, `dismissal-date` (end only), `relevance-score` and `alert`;
/// a start adds `attributes-type`, `attributes` and, from iOS 18, `input-push-token` (`1`: give
/// the new activity an update token) or `input-push-channel`.
///
/// APNs passes the payload on without reading `aps` (§1.15), so a push the device cannot use is
/// dropped here, with the reason, as ActivityKit drops it without telling anyone.
struct LiveActivityPush {
    enum Event: String { case start, update, end }

    var event: Event
    var timestamp: Int64
    /// Required for start and update; an end may leave it out and keep the last content.
    var contentState: JSONValue?
    var staleDate: Int64?
    var dismissalDate: Int64?
    var relevanceScore: Double?
    /// The alert text: a string, or "title: body" of a dictionary.
    var alert: String?
    var attributesType: String?
    var attributes: JSONValue?
    /// `input-push-channel`: the broadcast channel a push-started activity listens on (iOS 18).
    /// Channels are modelled apart (APNs/Broadcast); this is where a start would subscribe to one.
    var inputPushChannel: String?

    /// Reads `body`; `.failure` carries why ActivityKit would ignore it.
    static func read(_ body: [UInt8]) -> Result<LiveActivityPush, LiveActivityIgnoredPush> {
        guard let json = try? JSONParser.parse(body), let aps = json["aps"], aps.objectMembers != nil else {
            return .failure(LiveActivityIgnoredPush("the payload is not a JSON object with an aps dictionary"))
        }
        guard let eventName = aps["event"]?.stringValue else { return .failure(LiveActivityIgnoredPush("aps has no event")) }
        guard let event = Event(rawValue: eventName) else {
            return .failure(LiveActivityIgnoredPush("aps.event \(jsonString(eventName)) is not start, update or end"))
        }
        guard let timestamp = aps["timestamp"]?.int64Value else {
            return .failure(LiveActivityIgnoredPush("aps has no timestamp in whole Unix seconds"))
        }
        let contentState = aps["content-state"]
        if event != .end, contentState?.objectMembers == nil {
            return .failure(LiveActivityIgnoredPush((event == .start ? "a start" : "an update") + " needs aps.content-state, a JSON object"))
        }
        var push = LiveActivityPush(event: event, timestamp: timestamp, contentState: contentState,
                                    staleDate: aps["stale-date"]?.int64Value, dismissalDate: aps["dismissal-date"]?.int64Value,
                                    relevanceScore: aps["relevance-score"]?.doubleValue, alert: nil,
                                    attributesType: aps["attributes-type"]?.stringValue, attributes: aps["attributes"],
                                    inputPushChannel: aps["input-push-channel"]?.stringValue)
        if let alert = aps["alert"] {
            if let text = alert.stringValue { push.alert = text } else {
                let parts = [alert["title"]?.stringValue, alert["body"]?.stringValue].compactMap { $0 }
                if !parts.isEmpty { push.alert = parts.joined(separator: ": ") }
            }
        }
        if event == .start {
            guard let type = push.attributesType, !type.isEmpty else { return .failure(LiveActivityIgnoredPush("a start needs aps.attributes-type")) }
            guard push.attributes?.objectMembers != nil else {
                return .failure(LiveActivityIgnoredPush("a start needs aps.attributes, a JSON object, for \(type)"))
            }
        }
        return .success(push)
    }
}

/// Why the device dropped an ActivityKit push.
struct LiveActivityIgnoredPush: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
