import PushSimKernel

/// One push service as every layer above the network knows it: its name in the world and in
/// scenario files, the hosts it answers on, and what the hub and the tutorial's backend call it.
///
/// The fakes (`APNsService`, `FCMService`, `WNSService`) take their names and hosts from here;
/// devices find their service's device-facing host here without importing the services; the
/// scenario layer and the loopback server iterate ``all`` instead of spelling services out.
public struct PushServiceDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The host name in the world and the word in scenario files: `apns`, `fcm`, `wns`.
    public let name: String
    /// How people write it: `APNs`, `FCM`, `WNS`.
    public let displayName: String
    /// The public API hosts providers call (the first is the production one).
    public let providerHosts: [String]
    /// The host devices talk to over the `DeviceChannel` (PushSim's stand-in for each service's
    /// private persistent connection).
    public let deviceHost: String
    /// The hub's `ServiceBusNotification-Format` for native notifications to this service.
    public let hubFormat: String
    /// The trace field under which the service records its id for a message (the id the device
    /// later gets it with): `apns-id`, `name` (FCM's message name), `msg-id`. The fake records
    /// under this key and checkers read it from here.
    public let messageIDField: TraceFieldName
    /// The prefix of the request headers the hub passes on to this service from a native send
    /// (`apns-`, `X-WNS-`; NH-REST), nil when it passes none (FCM v1 takes its options in the body).
    public let hubHeaderPrefix: String?
    /// How an app's backend writes a text message to this service for the app to show: APNs
    /// `aps.alert`, FCM `message.data.message` (a data message, the tutorial apps' convention), a
    /// WNS toast. The hardened backend sends its users' messages so.
    public let textMessage: NativeTextPayload

    /// The service's ``name``: `apns`, `fcm`, `wns`.
    public var description: String { name }

    /// Apple Push Notification service.
    public static let apns = PushServiceDescriptor(
        name: "apns", displayName: "APNs", providerHosts: ["api.push.apple.com", "api.sandbox.push.apple.com"],
        deviceHost: "courier.push.apple.com", hubFormat: "apple", messageIDField: .apnsID, hubHeaderPrefix: "apns-",
        textMessage: .json(path: ["aps", "alert"]))
    /// Firebase Cloud Messaging, HTTP v1.
    public static let fcm = PushServiceDescriptor(
        name: "fcm", displayName: "FCM", providerHosts: ["fcm.googleapis.com"],
        deviceHost: "mtalk.google.com", hubFormat: "fcmv1", messageIDField: .fcmMessageName, hubHeaderPrefix: nil,
        textMessage: .json(path: ["message", "data", "message"]))
    /// Windows Push Notification Services.
    public static let wns = PushServiceDescriptor(
        name: "wns", displayName: "WNS", providerHosts: ["cloud.notify.windows.com"],
        deviceHost: "client.wns.windows.com", hubFormat: "windows", messageIDField: .wnsMessageID, hubHeaderPrefix: "X-WNS-",
        textMessage: .toast)

    /// The browsers' Web Push services (RFC 8030), as the hub's `browser` platform reaches them:
    /// one descriptor for the four vendors' services, whose hosts differ per subscription (the
    /// endpoint is the address: `WebPushVendor` in PushSimServices lists them). Not in ``all``:
    /// the native services' loops (one fake, one device channel, one backend name each) do not
    /// apply to it; `WebPushService` is made and named on its own.
    public static let webPush = PushServiceDescriptor(
        name: "webpush", displayName: "Web Push", providerHosts: [], deviceHost: "webpush", hubFormat: "browser",
        messageIDField: .webPushMessageID, hubHeaderPrefix: nil, textMessage: .json(path: ["body"]))

    /// Every native push service PushSim simulates, in a fixed order (``webPush`` is apart).
    public static let all: [PushServiceDescriptor] = [apns, fcm, wns]

    /// The service whose hub format is `format` (`apple`, `fcmv1`, `windows`), if any.
    public static func forHubFormat(_ format: String) -> PushServiceDescriptor? { all.first { $0.hubFormat == format } }

    /// The service named `name` (`apns`, `fcm`, `wns`), if any.
    public static func named(_ name: String) -> PushServiceDescriptor? { all.first { $0.name == name } }
}

/// The trace field each service's message ids are recorded under, named by its descriptor
/// (``PushServiceDescriptor/messageIDField``) and declared beside it.
extension TraceFieldName {
    /// `apns-id`: the id APNs gives a notification (``PushServiceDescriptor/messageIDField``).
    public static let apnsID = TraceFieldName("apns-id")
    /// `name`: FCM's name for a message, `projects/…/messages/…` (``PushServiceDescriptor/messageIDField``).
    public static let fcmMessageName = TraceFieldName("name")
    /// `msg-id`: the id WNS gives a notification (``PushServiceDescriptor/messageIDField``).
    public static let wnsMessageID = TraceFieldName("msg-id")
    /// `message-id`: a Web Push vendor's id for a message (FCM's `Location` name, autopush's,
    /// Apple's `apns-id`, WNS's `X-WNS-Msg-ID`; ``PushServiceDescriptor/messageIDField``).
    public static let webPushMessageID = TraceFieldName("message-id")
}
