import PushSimKernel
import PushSimNetwork

/// The operating system of a simulated device, which decides its push service.
public enum DevicePlatform: String, Sendable, CaseIterable {
    /// iPhone: APNs device tokens.
    case ios
    /// Android phone: FCM registration tokens.
    case android
    /// Windows PC: WNS channel URIs.
    case windows

    /// The push service its OS gets a handle from: APNs, FCM or WNS (``profile``).
    public var service: PushServiceDescriptor { profile.service }

    /// The `Platform` value the app sends in its registration: its service's name (`apns`, `fcm`, `wns`).
    public var registrationPlatform: String { service.name }
}

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
    /// app sends for its GCM switch.
    case apns, fcm, gcm, wns

    /// The order the tutorial app sends in: WNS, then GCM/FCM, then APNS.
    var sendOrder: Int {
        switch self {
        case .wns: return 0
        case .gcm, .fcm: return 1
        case .apns: return 2
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

    /// True for the calls a device's app (or a hand-written request) makes; false for
    /// ``installation`` and ``list``, which only the operator makes.
    public var isAppCall: Bool { self != .installation && self != .list }
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

/// The app's identity with each push service: one app, published on three platforms.
public struct AppIdentity: Sendable, Equatable {
    /// iOS bundle id, the APNs topic.
    public var bundleID: String
    /// Android package name.
    public var androidPackage: String
    /// The Firebase project number the Android app registers with (its sender id).
    public var fcmSenderID: String
    /// Windows package family name.
    public var windowsPackageFamily: String
    /// The backend the app talks to (host name).
    public var backendHost: String

    /// The app's ids on each platform and the host of the backend it calls.
    public init(bundleID: String, androidPackage: String, fcmSenderID: String, windowsPackageFamily: String, backendHost: String) {
        self.bundleID = bundleID
        self.androidPackage = androidPackage
        self.fcmSenderID = fcmSenderID
        self.windowsPackageFamily = windowsPackageFamily
        self.backendHost = backendHost
    }
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
        let profile = platform.profile
        let (appID, scope) = profile.appLink(self)
        return PushServiceLink(name: profile.service.name, deviceHost: profile.service.deviceHost, appID: appID, scope: scope)
    }
}
