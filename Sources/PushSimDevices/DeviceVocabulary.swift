import PushSimKernel
import PushSimNetwork

/// Which app client logic a device runs (Citations §T).
public enum ClientFlavour: String, Sendable, CaseIterable {
    /// The tutorial's `RegisterClient` as written: the stored registration id is never cleared,
    /// so the "retry" on 410 re-sends the same dead id (defect a).
    case tutorial
    /// Microsoft's guidance (NH-DN743807): keep the id, upsert, on 410 forget the id and start
    /// over from "create id", refresh the handle on every start.
    case recommended
}

/// A value of the app's `pns` switches. The tutorial's iOS app has WNS, GCM and APNS switches and
/// sends `gcm` for the GCM one, which the tutorial backend (knowing only `fcm`) does not understand.
public enum PushSwitch: String, Sendable, CaseIterable {
    /// The values the app can send: `apns`, `fcm` and `wns`, and `gcm`, which the tutorial's iOS
    /// app sends for its GCM switch; `browser` reaches the user's browsers, which only the
    /// hardened backend takes (the tutorial's app has no such switch).
    case apns, fcm, gcm, wns, browser

    /// The order the tutorial app sends in: WNS, then GCM/FCM, then APNS; browsers last.
    var sendOrder: Int {
        switch self {
        case .wns: return 0
        case .gcm, .fcm: return 1
        case .apns: return 2
        case .browser: return 3
        }
    }
}

/// A call the app makes to the backend, named for expectations on HTTP statuses.
public enum AppOperation: String, Sendable, CaseIterable {
    /// `POST /api/register?handle=` (get or create a registration id)
    case createID = "create-id"
    /// `PUT /api/register/<id>` (create or update the registration)
    case register
    /// `DELETE /api/register/<id>`
    case unregister
    /// `POST /api/notifications?pns=&to_tag=`
    case send
    /// A request written out by hand in a scenario (`<device> request …`), outside the app's logic.
    case request
    /// The operator's installation writes (`PUT|PATCH|DELETE /installations/<id>` on the hub).
    case installation
    /// The operator's registration listings (`GET /registrations`, `GET /tags/<tag>/registrations`).
    case list
    /// A Web Push message a scenario's application server posts to a browser's push endpoint
    /// (`POST <endpoint>`, RFC 8030 section 5): `expect <app-server> push status 201`.
    case push
    /// The operator's APNs broadcast channel management calls (create and delete a channel on
    /// `api-manage-broadcast.push.apple.com`): `expect operator channel status 201`.
    case channel
    /// The operator's APNs broadcasts (`POST /4/broadcasts/apps/<bundle id>`): `expect operator
    /// broadcast status 200`.
    case broadcast

    /// True for the calls a device's app (or a hand-written request) makes; false for
    /// ``installation``, ``list``, ``channel`` and ``broadcast``, which only the operator makes, and
    /// ``push``, which only an application server makes.
    public var isAppCall: Bool { ![.installation, .list, .push, .channel, .broadcast].contains(self) }
}

/// The `Authorization` a hand-written request carries.
public enum RequestAuthorization: Sendable, Equatable {
    /// No `Authorization` header at all.
    case none
    /// `Basic base64(user:password)`.
    case basic(user: String, password: String)
    /// This exact header value.
    case header(String)
}

/// The app's identity: its registration with each platform's push service (``PlatformAppLink``)
/// and the backend it calls. One app, published on every ``DevicePlatform``; a platform's link is
/// its profile's ``DevicePlatformProfile/defaultAppLink`` (PushSim's sample app) unless set.
public struct AppIdentity: Sendable, Equatable {
    /// The links set for this app, in the order they were first set; searched, not hashed (a
    /// `DevicePlatform` dictionary key would hash its raw string on every lookup).
    private var links: [(platform: DevicePlatform, link: PlatformAppLink)] = []
    /// The backend the app talks to (host name).
    public var backendHost: String

    /// PushSim's sample app on every platform (each profile's default link), calling `backendHost`.
    public init(backendHost: String) { self.backendHost = backendHost }

    /// The app's id with `platform`'s push service and the scope its OS registers with.
    public subscript(platform: DevicePlatform) -> PlatformAppLink {
        get { links.first { $0.platform == platform }?.link ?? platform.profile.defaultAppLink }
        set {
            if let i = links.firstIndex(where: { $0.platform == platform }) { links[i].link = newValue }
            else { links.append((platform, newValue)) }
        }
    }

    /// Equal when every platform's link and the backend are the same.
    public static func == (a: AppIdentity, b: AppIdentity) -> Bool {
        a.backendHost == b.backendHost && DevicePlatform.allCases.allSatisfy { a[$0] == b[$0] }
    }
}

/// How an app is known to one platform's push service: the id the OS registers (bundle id,
/// package name, package family) and the scope it sends as `environment` (APNs: the app's
/// `aps-environment`; FCM: the sender id, the Firebase project number; WNS: none).
public struct PlatformAppLink: Sendable, Equatable {
    /// The app's id with the service.
    public var appID: String
    /// The registration's scope; empty when the service has none.
    public var scope: String
    /// A link with the given id and scope (none by default).
    public init(appID: String, scope: String = "") { self.appID = appID; self.scope = scope }
}

/// A notification the device put in front of its user.
///
/// The device's ``Device/inbox`` keeps every notification ever shown, in order; one that a newer
/// notification with the same `apns-collapse-id` replaced in Notification Center keeps its place
/// with ``replacedAt`` set (A-SEND: "the device shows only the newest"), and ``Device/displayed``
/// leaves it out.
public struct ShownNotification: Sendable, Equatable {
    /// When it was shown.
    public var time: VirtualTime
    /// The text shown: the alert (iOS), the data message (Android), the toast text (Windows).
    public var text: String
    /// `apns`, `fcm` or `wns`.
    public var service: String
    /// The causal chain it arrived in (e.g. `c0007`): ties it to the send that caused it.
    public var correlation: String
    /// The app icon badge the notification set (`aps.badge`, A-GEN), nil when it set none.
    public var badge: Int?
    /// The sound it played: `aps.sound` (a name, or a dictionary's `name`, A-GEN) or a toast's
    /// `<audio src>` (W-TOAST); nil when the payload names none.
    public var sound: String?
    /// The `apns-collapse-id` it arrived with (A-SEND), nil for none.
    public var collapseID: String?
    /// When a newer notification with the same collapse id replaced it; nil while it is on screen.
    public var replacedAt: VirtualTime?
    /// Delivered quietly to Notification Center (no banner, no sound), as under iOS's provisional
    /// authorization (A-PROVISIONAL).
    public var isQuiet = false

    /// True once a newer notification with the same collapse id took its place.
    public var isReplaced: Bool { replacedAt != nil }

    /// A notification shown at `time`; no badge, sound or collapse id unless given, not replaced.
    public init(time: VirtualTime, text: String, service: String, correlation: String, badge: Int? = nil,
                sound: String? = nil, collapseID: String? = nil, replacedAt: VirtualTime? = nil) {
        self.time = time
        self.text = text
        self.service = service
        self.correlation = correlation
        self.badge = badge
        self.sound = sound
        self.collapseID = collapseID
        self.replacedAt = replacedAt
    }
}

/// One call the app made to its backend, and how it ended.
public struct AppCallRecord: Sendable, Equatable {
    /// Which call it was.
    public var operation: AppOperation
    /// When the app sent it.
    public var sentAt: VirtualTime
    /// When its response, or its transport failure, arrived.
    public var completedAt: VirtualTime
    /// The HTTP status, or nil when no response came.
    public var status: Int?
    /// The transport failure when there was no response.
    public var failure: String?
}


/// How a device's OS reaches its push service: the service's host name, the device-facing host of
/// its ``DeviceChannel``, the app id it registers, and the scope sent as `environment` (APNs: the
/// environment; FCM: the sender id; WNS: none).
struct PushServiceLink {
    var name: String
    var deviceHost: String
    var appID: String
    var scope: String
}

extension AppIdentity {
    func pushService(on platform: DevicePlatform) -> PushServiceLink {
        let service = platform.service, link = self[platform]
        return PushServiceLink(name: service.name, deviceHost: service.deviceHost, appID: link.appID, scope: link.scope)
    }
}
