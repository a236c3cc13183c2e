import PushSimKernel
import PushSimBackend
import PushSimDevices

/// What a device does in a step: its user taps something, or its OS acts
/// (`at 1s bob-iphone install`, `at 2s bob-iphone login bob password bob`).
public enum DeviceAction: Equatable, Sendable {
    /// Install and open the app: the OS gets a push handle, the app receives it.
    case install
    /// Remove the app (its stored registration id goes with it).
    case uninstall
    /// Log in: the app builds the Basic header and registers.
    case login(user: String, password: String)
    /// Send a message to a user, once per enabled switch.
    case send(message: String, to: String, via: [PushSwitch])
    /// The device loses its network connection.
    case offline
    /// The device regains its network connection.
    case online
    /// Log out: delete the registration through the backend, forget the id and credentials.
    case logout
    /// The app starts again: it asks the OS for its handle (a WNS channel past 30 days is renewed).
    case launch
    /// The push handle changes while the app stays installed (FCM token rotation, APNs token change).
    case refreshHandle
    /// The user clears the app's data (`clear-data`): Android and Windows give a new handle.
    case clearData
    /// Install the app from another device's backup (`restore from <device>`).
    case restore(from: String)
    /// Register again asking for extra tags (`register with tags username:bob`).
    case register(tags: [String])
    /// A hand-written request to the backend (`request POST "/api/register?handle=AB" auth none`).
    case request(method: String, target: String, authorization: RequestAuthorization, body: String?)
    /// The Android app's Firebase SDK subscribes its token to an FCM topic (`subscribe to topic
    /// "news"`) or, with `unsubscribe`, unsubscribes it (`unsubscribe from topic "news"`).
    case topic(String, unsubscribe: Bool)
    /// The user changes the app's notification permission (`deny notifications`, `allow
    /// notifications`), or the app asks provisionally (`allow notifications provisionally`, iOS):
    /// ``NotificationPermission/denied``, ``NotificationPermission/authorized`` or
    /// ``NotificationPermission/provisional``.
    case permission(NotificationPermission)
    /// The user turns an Android notification channel off or on (`disable channel "<id>"`,
    /// `enable channel "<id>"`).
    case channel(String, enabled: Bool)
    /// A Live Activity step of an iPhone (``LiveActivityStep``).
    case liveActivity(LiveActivityStep)

    /// The step as the run labels it after the device's name (`login bob`, `refresh-handle`):
    /// no password, no payload.
    var label: String {
        switch self {
        case .install: return "install"
        case .uninstall: return "uninstall"
        case .login(let user, _): return "login \(user)"
        case .send(let message, let to, let via): return "send \(jsonString(message)) to \(to) via \(via.map(\.rawValue).joined(separator: ","))"
        case .offline: return "offline"
        case .online: return "online"
        case .logout: return "logout"
        case .launch: return "launch"
        case .refreshHandle: return "refresh-handle"
        case .clearData: return "clear-data"
        case .restore(let other): return "restore from \(other)"
        case .register(let tags): return tags.isEmpty ? "register" : "register with tags \(tags.joined(separator: ","))"
        case .request(let method, let target, _, _): return "request \(method) \(target)"
        case .topic(let topic, let unsubscribe): return unsubscribe ? "unsubscribe from topic \(jsonString(topic))" : "subscribe to topic \(jsonString(topic))"
        case .permission(let permission):
            switch permission {
            case .denied, .notDetermined: return "deny notifications"
            case .authorized: return "allow notifications"
            case .provisional: return "allow notifications provisionally"
            }
        case .channel(let id, let enabled): return "\(enabled ? "enable" : "disable") channel \(jsonString(id))"
        case .liveActivity(let step): return step.label
        }
    }
}
