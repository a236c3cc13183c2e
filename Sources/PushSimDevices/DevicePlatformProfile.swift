import PushSimKernel
import PushSimNetwork

/// Everything PushSim knows of one device platform, in one entry per platform (``DevicePlatform/profile``):
/// its push service, its default OS version, the app's id with the service, how its OS shows a
/// push, and a payload the OS shows as a text by itself. A new platform is one new entry here,
/// one case of ``DevicePlatform`` and one file with its display (`Device+Display<OS>.swift`).
public final class DevicePlatformProfile: Sendable {
    /// The push service its OS gets a handle from (the descriptor gives its registration name,
    /// device host and hub format).
    public let service: PushServiceDescriptor
    /// The OS version a device gets when none is given.
    public let defaultOSVersion: Int
    /// A native payload its OS shows as a text with no app code involved (APNs `aps.alert`, FCM
    /// `message.notification.body`, a WNS toast): what the explorer's convergence sends carry.
    public let shownText: NativeTextPayload
    /// The app's id with the service and the scope the OS sends as `environment` (APNs: the
    /// environment; FCM: the sender id; WNS: none).
    let appLink: @Sendable (AppIdentity) -> (appID: String, scope: String)
    /// What the OS and app do with a push that reached them (`service` is the service's name from
    /// the device channel).
    let present: @Sendable (_ device: Device, _ request: HTTPRequest, _ service: String) -> Void

    init(service: PushServiceDescriptor, defaultOSVersion: Int, shownText: NativeTextPayload,
         appLink: @escaping @Sendable (AppIdentity) -> (appID: String, scope: String),
         present: @escaping @Sendable (_ device: Device, _ request: HTTPRequest, _ service: String) -> Void) {
        self.service = service
        self.defaultOSVersion = defaultOSVersion
        self.shownText = shownText
        self.appLink = appLink
        self.present = present
    }

    /// iPhone: APNs device tokens, iOS 12 (the tutorial's era, before the token description changed).
    static let ios = DevicePlatformProfile(
        service: .apns, defaultOSVersion: 12, shownText: .json(path: ["aps", "alert"]),
        appLink: { ($0.bundleID, "production") }, present: { $0.presentAPNs($1, service: $2) })
    /// Android phone: FCM registration tokens, Android 14.
    static let android = DevicePlatformProfile(
        service: .fcm, defaultOSVersion: 14, shownText: .json(path: ["message", "notification", "body"]),
        appLink: { ($0.androidPackage, $0.fcmSenderID) }, present: { $0.presentFCM($1, service: $2) })
    /// Windows PC: WNS channel URIs, Windows 11.
    static let windows = DevicePlatformProfile(
        service: .wns, defaultOSVersion: 11, shownText: .toast,
        appLink: { ($0.windowsPackageFamily, "") }, present: { $0.presentWNS($1, service: $2) })
}

extension DevicePlatform {
    /// The platform's entry: service, default OS version, app id, display.
    public var profile: DevicePlatformProfile {
        switch self {
        case .ios: return .ios
        case .android: return .android
        case .windows: return .windows
        }
    }
}
