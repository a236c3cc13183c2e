import PushSimKernel
import PushSimNetwork

/// The operating system of a simulated device, which decides its push service. Everything else
/// PushSim knows of a platform is its entry (``profile``), in this file.
public enum DevicePlatform: String, Sendable, CaseIterable {
    /// iPhone: APNs device tokens.
    case ios
    /// Android phone: FCM registration tokens.
    case android
    /// Windows PC: WNS channel URIs.
    case windows

    /// The platform's entry: service, default OS version, the sample app's link, display.
    public var profile: DevicePlatformProfile {
        switch self {
        case .ios: return .ios
        case .android: return .android
        case .windows: return .windows
        }
    }

    /// The push service its OS gets a handle from: APNs, FCM or WNS (``profile``).
    public var service: PushServiceDescriptor { profile.service }

    /// The `Platform` value the app sends in its registration: its service's name (`apns`, `fcm`, `wns`).
    public var registrationPlatform: String { service.name }
}

/// Everything PushSim knows of one device platform, in one entry per platform (``DevicePlatform/profile``):
/// its push service, its default OS version, PushSim's sample app's link with the service, how
/// its OS shows a push, and a payload the OS shows as a text by itself. A new platform is one new
/// case and entry here and one file with its display (`Device+Display<OS>.swift`).
public final class DevicePlatformProfile: Sendable {
    /// The push service its OS gets a handle from (the descriptor gives its registration name,
    /// device host and hub format).
    public let service: PushServiceDescriptor
    /// The OS version a device gets when none is given.
    public let defaultOSVersion: Int
    /// A native payload its OS shows as a text with no app code involved (APNs `aps.alert`, FCM
    /// `message.notification.body`, a WNS toast): what the explorer's convergence sends carry.
    public let shownText: NativeTextPayload
    /// PushSim's sample app (NotifyUsers) on this platform: its id with the service and the scope
    /// its OS registers with, unless an ``AppIdentity`` sets another.
    public let defaultAppLink: PlatformAppLink
    /// What the OS and app do with a push that reached them (`service` is the service's name from
    /// the device channel).
    let present: @Sendable (_ device: Device, _ request: HTTPRequest, _ service: String) -> Void
    /// How the OS lets the user allow or forbid the app's notifications (``NotificationPermissionRules``).
    public let permission: NotificationPermissionRules

    init(service: PushServiceDescriptor, defaultOSVersion: Int, shownText: NativeTextPayload, defaultAppLink: PlatformAppLink,
         permission: NotificationPermissionRules,
         present: @escaping @Sendable (_ device: Device, _ request: HTTPRequest, _ service: String) -> Void) {
        self.service = service
        self.defaultOSVersion = defaultOSVersion
        self.shownText = shownText
        self.defaultAppLink = defaultAppLink
        self.permission = permission
        self.present = present
    }

    /// iPhone: APNs device tokens, iOS 12 (the tutorial's era, before the token description
    /// changed); the app's bundle id, built for APNs' production environment.
    static let ios = DevicePlatformProfile(
        service: .apns, defaultOSVersion: 12, shownText: .json(path: ["aps", "alert"]),
        defaultAppLink: PlatformAppLink(appID: "com.pushsim.notifyusers", scope: "production"),
        permission: .ios,
        present: { $0.presentAPNs($1, service: $2) })
    /// Android phone: FCM registration tokens, Android 14; the app's package name and its
    /// Firebase project's number as the sender id.
    static let android = DevicePlatformProfile(
        service: .fcm, defaultOSVersion: 14, shownText: .json(path: ["message", "notification", "body"]),
        defaultAppLink: PlatformAppLink(appID: "com.pushsim.notifyusers", scope: "482910364851"),
        permission: .android,
        present: { $0.presentFCM($1, service: $2) })
    /// Windows PC: WNS channel URIs, Windows 11; the app's package family name.
    static let windows = DevicePlatformProfile(
        service: .wns, defaultOSVersion: 11, shownText: .toast,
        defaultAppLink: PlatformAppLink(appID: "PushSim.NotifyUsers_8wekyb3d8bbwe"),
        permission: .windows,
        present: { $0.presentWNS($1, service: $2) })
}

/// The first three platforms' ids by their own names, as the tutorial's apps know them. A later
/// platform needs none of these: its link is `identity[platform]`.
extension AppIdentity {
    /// An app with these ids on iOS, Android and Windows, calling `backendHost`.
    public init(bundleID: String, androidPackage: String, fcmSenderID: String, windowsPackageFamily: String, backendHost: String) {
        self.init(backendHost: backendHost)
        self.bundleID = bundleID
        self.androidPackage = androidPackage
        self.fcmSenderID = fcmSenderID
        self.windowsPackageFamily = windowsPackageFamily
    }

    /// iOS bundle id, the APNs topic.
    public var bundleID: String {
        get { self[.ios].appID }
        set { self[.ios].appID = newValue }
    }
    /// Android package name.
    public var androidPackage: String {
        get { self[.android].appID }
        set { self[.android].appID = newValue }
    }
    /// The Firebase project number the Android app registers with (its sender id).
    public var fcmSenderID: String {
        get { self[.android].scope }
        set { self[.android].scope = newValue }
    }
    /// Windows package family name.
    public var windowsPackageFamily: String {
        get { self[.windows].appID }
        set { self[.windows].appID = newValue }
    }
}
