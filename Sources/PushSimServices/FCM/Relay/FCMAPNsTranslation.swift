import PushSimNetwork

/// How FCM turns an HTTP v1 message for an iOS app instance into the APNs request it relays
/// (Citations §2.9, sources F-APNS-CONFIG, F-MSG, FIOS-MSGID).
///
/// The payload:
/// - starts from `message.apns.payload` as sent, its `aps` dictionary and its custom keys
///   (F-APNS-CONFIG: "APNs payload as a JSON object, including both aps dictionary and custom payload");
/// - gets `aps.alert` = `{"title": …, "body": …}` from `message.notification` when the APNs payload
///   sets no `aps.alert` of its own: an `apns.payload` alert overrides the notification's title and
///   body (F-APNS-CONFIG);
/// - gets each `message.data` pair as a custom key beside `aps` (F-MSG: on Apple platforms sent
///   through APNs, `data` "represents the custom data fields"), unless the APNs payload already
///   has that key;
/// - gets `gcm.message_id`, the message's id, which the Firebase iOS SDK reads to know a message
///   came from FCM (FIOS-MSGID).
///
/// The headers: every `message.apns.headers` pair, passed on as given (F-APNS-CONFIG); then
/// `apns-topic` (the app's bundle id, which FCM knows from the app's registration),
/// `apns-push-type` (`alert` when `aps` has an alert, a badge or a sound, else `background`;
/// with `apns.live_activity_token`, `liveactivity` and the topic's `.push-type.liveactivity`, F-LIVE),
/// `apns-priority` and `apns-expiration` where the sender gave none. FCM's defaults are priority 10
/// and an expiration 30 days ahead (F-APNS-CONFIG); for a push typed `background` PushSim takes
/// priority 5, because APNs refuses 10 there and FCM's docs say nothing of that case (§7).
public enum FCMAPNsTranslation {
    /// The APNs request FCM relays: its headers in the order written, and its JSON body.
    public struct Request: Sendable, Equatable {
        /// Header names in lower case, values as sent.
        public var headers: [(String, String)]
        /// The APNs payload, serialized.
        public var payload: [UInt8]
        /// `alert` or `background`: what `apns-push-type` says.
        public var pushType: String

        /// Equal when every header, the payload and the push type are.
        public static func == (a: Request, b: Request) -> Bool {
            a.payload == b.payload && a.pushType == b.pushType
                && a.headers.count == b.headers.count && zip(a.headers, b.headers).allSatisfy { $0 == $1 }
        }
    }

    /// How long FCM asks APNs to keep a message when `apns-expiration` is not given: 30 days (F-APNS-CONFIG).
    public static let defaultExpirationSeconds: Int64 = 30 * 86_400

    /// The request for `message` (the v1 `message` object, as `FCMMessage.devicePayload` keeps it),
    /// to the app `bundleID`, named `messageID`, at `unixSeconds`.
    public static func request(message: JSONValue, bundleID: String, messageID: String, unixSeconds: Int64) -> Request {
        let apns = message["apns"]
        var payload = apns?["payload"]?.objectMembers ?? []
        var aps = payload.first(where: { $0.0 == "aps" })?.1.objectMembers ?? []
        if !aps.contains(where: { $0.0 == "alert" }), let alert = alert(from: message["notification"]) {
            aps.append(("alert", alert))
        }
        if let index = payload.firstIndex(where: { $0.0 == "aps" }) { payload[index].1 = .object(aps) } else { payload.insert(("aps", .object(aps)), at: 0) }
        for (key, value) in message["data"]?.objectMembers ?? [] where !payload.contains(where: { $0.0 == key }) {
            payload.append((key, value))
        }
        if !payload.contains(where: { $0.0 == messageIDKey }) { payload.append((messageIDKey, .string(messageID))) }

        let given = (apns?["headers"]?.objectMembers ?? []).compactMap { name, value in value.stringValue.map { (name.lowercased(), $0) } }
        func has(_ name: String) -> Bool { given.contains { $0.0 == name } }
        let shows = aps.contains { $0.0 == "alert" || $0.0 == "badge" || $0.0 == "sound" }
        // With apns.live_activity_token the push is an ActivityKit one: FCM's own example sets neither
        // header, so FCM supplies the Live Activity push type and topic (F-LIVE; §2.10).
        let liveActivity = apns?["live_activity_token"]?.stringValue != nil
        let pushType = given.first(where: { $0.0 == "apns-push-type" })?.1 ?? (liveActivity ? "liveactivity" : shows ? "alert" : "background")
        var headers = given
        if !has("apns-topic") { headers.append(("apns-topic", bundleID + (liveActivity ? APNsPushType.liveactivity.topicSuffix ?? "" : ""))) }
        if !has("apns-push-type") { headers.append(("apns-push-type", pushType)) }
        if !has("apns-priority") { headers.append(("apns-priority", pushType == "background" ? "5" : "10")) }
        if !has("apns-expiration") { headers.append(("apns-expiration", String(unixSeconds + defaultExpirationSeconds))) }
        return Request(headers: headers, payload: JSONValue.object(payload).serializedBytes(), pushType: pushType)
    }

    /// The custom key carrying the FCM message id, which the Firebase iOS SDK reads (FIOS-MSGID).
    public static let messageIDKey = "gcm.message_id"

    /// `{"title": …, "body": …}` from a v1 `notification` (only the members it sets), or nil when it sets neither.
    static func alert(from notification: JSONValue?) -> JSONValue? {
        let parts = ["title", "body"].compactMap { key in notification?[key]?.stringValue.map { (key, JSONValue.string($0)) } }
        return parts.isEmpty ? nil : .object(parts)
    }
}
