import PushSimKernel

/// The link between a push service and the devices it serves: how a device's OS obtains a
/// handle and reconnects, and how the service hands a notification to a device. It lives in the
/// network layer, below both, so that devices and push services meet only here and on the wire.
///
/// The real services use private, persistent connections (APNs' courier on port 5223, FCM's
/// mtalk, WNS's client channel). PushSim replaces them with a small HTTP-shaped protocol of its
/// own on a separate device-facing host name, so that the provider API stays exactly the public one:
///
/// | request (device → service) | body | answer |
/// |---|---|---|
/// | `POST /register` | `{"app": <bundle id/package>, "install": <n>, "environment": "production"\|"sandbox"}` (FCM: the sender id; an iOS app's Firebase SDK adds `"apns_token": "p_<hex>"\|"s_<hex>"`) | `200 {"handle": …}` |
/// | `POST /connect` | – | `200`; the service then sends what it stored for this device |
/// | `POST /topics` | `{"token": <the app's token>, "topic": "/topics/<name>", "delete": true\|false}` | `200 {}`; `400 {"error": …}` (FCM only: an Android app's `subscribeToTopic` / `unsubscribeFromTopic`) |
///
/// | request (service → device) | headers | answer |
/// |---|---|---|
/// | `POST /push` | `x-pushsim-service`, `x-pushsim-handle`, `x-pushsim-app`, service headers; body = payload | `200` shown/handed to the app; `410` the handle no longer belongs to an installed app |
/// | `POST /push` with `x-pushsim-event: deleted_messages` | as above; body `{"message_type":"deleted_messages"}` | FCM's "stored messages were deleted" signal, which the SDK turns into `onDeletedMessages()` |
///
/// `install` counts the app's installations on the device: the same (device, app, install)
/// always gets the same handle (apps ask on every launch, A-REG, W-OVR); a new install gets a new one.
package enum DeviceChannel {
    /// Where a device asks its service for a handle: `POST /register`.
    public static let registerPath = "/register"
    /// Where a device reconnects: `POST /connect`; the service then sends what it stored for it.
    public static let connectPath = "/connect"
    /// Where an Android app's Firebase SDK subscribes its token to a topic or unsubscribes it:
    /// `POST /topics` (FCM only; the SDK's registration RPC with `gcm.topic`, FA-ANDROID-RPC).
    public static let topicsPath = "/topics"
    /// Where a service hands a device a notification: `POST /push`.
    public static let pushPath = "/push"
    /// Names the service that sends a push: `apns`, `fcm` or `wns`.
    public static let serviceHeader = "x-pushsim-service"
    /// The handle a push was addressed to: the device answers 410 when it is not its installed
    /// app's current one.
    public static let handleHeader = "x-pushsim-handle"
    /// The app a push is for: its bundle id, package name or package family name.
    public static let appHeader = "x-pushsim-app"
    /// The service's id of the notification (may be empty), so that the device's trace names it too.
    public static let messageHeader = "x-pushsim-message"
    /// Marks a push that is an OS-level event rather than a provider's message (FCM: `deleted_messages`).
    public static let eventHeader = "x-pushsim-event"
    /// How long a service waits for a device to answer a push.
    public static let pushTimeout = VirtualDuration.seconds(10)
}

/// Parsed body of a device's `POST /register`.
package struct DeviceRegisterRequest: Sendable, Equatable {
    /// The app's id with the service: bundle id (iOS), package name (Android), package family name (Windows).
    public var app: String
    /// Which installation of the app on the device, from 1: a new one gets a new handle.
    public var install: Int
    /// APNs: `production` or `sandbox`; FCM: the sender id; WNS: empty.
    public var environment: String
    /// The Firebase installation ID the app's Firebase SDK made for itself (Android only): FCM
    /// takes it as a send's target (`message.fid`) for the handle it issues; nil otherwise.
    public var installation: String?
    /// The APNs device token an iOS app's Firebase SDK binds its FCM token to, as the SDK's token
    /// request names it (`apns_token`: `p_<hex>` production, `s_<hex>` sandbox, FIOS-TOKEN); nil otherwise.
    public var apnsToken: String?

    /// A request for `app`'s installation `install`; `environment` defaults to `production`.
    public init(app: String, install: Int, environment: String = "production", installation: String? = nil, apnsToken: String? = nil) {
        self.app = app
        self.install = install
        self.environment = environment
        self.installation = installation
        self.apnsToken = apnsToken
    }

    /// Reads a `POST /register` body: nil unless it is JSON with a string `app` and an integer
    /// `install`; no `environment` means `production`; `installation`, when a string, is kept.
    public init?(body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), let app = json["app"]?.stringValue,
              let install = json["install"]?.int64Value else { return nil }
        self.init(app: app, install: Int(install), environment: json["environment"]?.stringValue ?? "production",
                  installation: json["installation"]?.stringValue, apnsToken: json["apns_token"]?.stringValue)
    }

    /// The JSON body, keys sorted: `{"apns_token":…,"app":…,"environment":…,"install":…}` (`apns_token` when there is one), then `"installation":…`
    /// when there is one.
    public var body: [UInt8] {
        var members: [(String, JSONValue)] = [("app", .string(app)), ("environment", .string(environment)),
                                              ("install", .number(JSONNumber(Int64(install))))]
        if let installation { members.append(("installation", .string(installation))) }
        if let apnsToken { members.insert(("apns_token", .string(apnsToken)), at: 0) }
        return JSONValue.object(members).serializedBytes()
    }
}

extension World {
    /// Hands one notification to a device over the device channel; `then` gets the device's
    /// status (200 shown, 410 stale handle) or nil when the device could not be reached.
    /// `message` is the service's id for the notification (APNs `apns-id`, FCM message name, WNS
    /// `X-WNS-Msg-ID`), sent as `x-pushsim-message` so the device's trace names it too.
    public func pushToDevice(service: String, device: String, handle: String, app: String, message: String = "",
                             headers extra: [(String, String)], payload: [UInt8],
                             then: @escaping (Int?) -> Void) {
        call(Self.pushRequest(service: service, device: device, handle: handle, app: app, message: message, headers: extra, payload: payload),
             from: service, timeout: DeviceChannel.pushTimeout) { result in then(result.status) }
    }

    /// Like ``pushToDevice(service:device:handle:app:message:headers:payload:then:)``, but the
    /// device's answer goes to `receiver` with `tag` (a service keeps what it needs per tag, e.g.
    /// in a slab): no closure per push, for the pushes of a fan-out.
    public func pushToDevice(service: String, device: String, handle: String, app: String, message: String,
                             headers extra: [(String, String)], payload: [UInt8], replyTo receiver: CallReceiver, tag: UInt64) {
        pushToDevice(service: service, device: device, handle: handle, app: app, message: message, extraHeaders: extra.count,
                     { for (n, v) in extra { $0.add(n, v) } }, payload: payload, replyTo: receiver, tag: tag)
    }

    /// Like ``pushToDevice(service:device:handle:app:message:headers:payload:replyTo:tag:)``, with
    /// the service's own headers (`count` of them) added by `addExtra` after the channel's: no
    /// array of pairs is built per push.
    public func pushToDevice(service: String, device: String, handle: String, app: String, message: String, extraHeaders count: Int,
                      _ addExtra: (inout HTTPHeaders) -> Void, payload: [UInt8], replyTo receiver: CallReceiver, tag: UInt64) {
        var headers = Self.pushHeaders(service: service, handle: handle, app: app, message: message, extra: count)
        addExtra(&headers)
        call(HTTPRequest(method: "POST", authority: device, path: DeviceChannel.pushPath, headers: headers, body: payload),
             from: service, timeout: DeviceChannel.pushTimeout, replyTo: receiver, tag: tag)
    }

    private static func pushRequest(service: String, device: String, handle: String, app: String, message: String,
                                    headers extra: [(String, String)], payload: [UInt8]) -> HTTPRequest {
        var headers = pushHeaders(service: service, handle: handle, app: app, message: message, extra: extra.count)
        for (n, v) in extra { headers.add(n, v) }
        return HTTPRequest(method: "POST", authority: device, path: DeviceChannel.pushPath, headers: headers, body: payload)
    }

    /// The device channel's headers of a push, with room for `extra` more.
    private static func pushHeaders(service: String, handle: String, app: String, message: String, extra: Int) -> HTTPHeaders {
        var headers = HTTPHeaders(minimumCapacity: 4 + extra)
        headers.add(DeviceChannel.serviceHeader, service)
        headers.add(DeviceChannel.handleHeader, handle)
        headers.add(DeviceChannel.appHeader, app)
        headers.add(DeviceChannel.messageHeader, message)
        return headers
    }
}

/// A push handle as traces show it: its first 8 characters and an ellipsis when longer than 12
/// (APNs tokens, FCM registration tokens and WNS channel URIs are long and stay readable). Only the
/// first 13 characters are looked at: `count` would walk a 150-character token for every event.
package func shortToken(_ token: String) -> String { !token.dropFirst(12).isEmpty ? String(token.prefix(8)) + "…" : token }

/// Parsed body of a device's request, with the app's own token, to join or leave a named group
/// of its push service: an FCM topic (`POST /topics`; the Firebase SDK's registration RPC with
/// `sender` set to the token, `gcm.topic` to `/topics/<name>` and `delete` to leave,
/// FA-ANDROID-RPC) or an APNs broadcast channel (`POST /broadcast-channels`, the channel id APNs
/// gave; `DeviceChannel+Broadcast.swift`).
package struct DeviceMembershipRequest: Sendable, Equatable {
    /// What the group is, and the body's key for its name.
    package enum Group: String, Sendable {
        /// An FCM topic, named `/topics/<name>`.
        case topic
        /// An APNs broadcast channel, named by its id.
        case channel
    }

    /// Which kind of group.
    package var group: Group
    /// The app's token (FCM registration token, APNs device token): it names the device and app.
    package var token: String
    /// The group's name as the body carries it.
    package var name: String
    /// True to leave the group, false to join it.
    package var delete: Bool

    /// A request for `token` to join (or, with `delete`, leave) the `group` named `name`.
    package init(_ group: Group, token: String, name: String, delete: Bool = false) {
        self.group = group
        self.token = token
        self.name = name
        self.delete = delete
    }

    /// Reads a body: nil unless it is JSON with string `token` and the group's key; a missing
    /// `delete` is false.
    package init?(_ group: Group, body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), let token = json["token"]?.stringValue,
              let name = json[group.rawValue]?.stringValue else { return nil }
        self.init(group, token: token, name: name, delete: json["delete"]?.boolValue ?? false)
    }

    /// The JSON body, keys sorted.
    package var body: [UInt8] {
        let members: [(String, JSONValue)] = [(group.rawValue, .string(name)), ("delete", .bool(delete)), ("token", .string(token))]
        return JSONValue.object(members.sorted { $0.0 < $1.0 }).serializedBytes()
    }
}
