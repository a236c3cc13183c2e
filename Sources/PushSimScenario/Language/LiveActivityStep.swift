import PushSimKernel
import PushSimDevices

/// A Live Activity step of an iPhone (`<device> start live activity "MatchAttributes" "{…}"`),
/// Citations §1.14–§1.17. Each maps onto one ``Device`` call of `LiveActivities/`.
public enum LiveActivityStep: Equatable, Sendable {
    /// `observe push-to-start "<Type>"`: the app observes the type's push-to-start token.
    case observePushToStart(attributesType: String)
    /// `rotate push-to-start "<Type>"`: the system replaces that token.
    case rotatePushToStart(attributesType: String)
    /// `start live activity "<Type>" "<content-state>" [attributes "<json>"] [stale after <duration>]
    /// [on channel "<name>"]`: the app starts one in the foreground, updated through its token, or
    /// through the APNs broadcast channel the operator created under that name (iOS 18; §1.20).
    case start(attributesType: String, contentState: String, attributes: String, staleAfter: VirtualDuration?, channel: String?)
    /// `end live activity ["<Type>"] [dismiss after <duration>]`: the app ends its newest running one.
    case end(attributesType: String?, dismissAfter: VirtualDuration?)
    /// `rotate live activity token ["<Type>"]`: the system replaces the newest activity's update token.
    case rotateToken(attributesType: String?)
    /// `disable|enable live activities`: the user's switch in Settings.
    case enabled(Bool)

    /// As written after the device's name, without JSON.
    var label: String {
        func type(_ name: String?) -> String { name.map { " \(jsonString($0))" } ?? "" }
        switch self {
        case .observePushToStart(let name): return "observe push-to-start\(type(name))"
        case .rotatePushToStart(let name): return "rotate push-to-start\(type(name))"
        case .start(let name, _, _, _, let channel): return "start live activity\(type(name))" + (channel.map { " on channel \(jsonString($0))" } ?? "")
        case .end(let name, _): return "end live activity\(type(name))"
        case .rotateToken(let name): return "rotate live activity token\(type(name))"
        case .enabled(let on): return "\(on ? "enable" : "disable") live activities"
        }
    }
}

/// Which Live Activity token an operator's send goes to, read from the device when the step runs.
public enum LiveActivityTokenReference: Equatable, Sendable {
    /// `live activity token of <device> ["<Type>"]`: the update token of the device's newest
    /// activity (of that type), kept after the activity ended, as a server keeps it.
    case update(device: String, attributesType: String?)
    /// `push-to-start token "<Type>" of <device>`: the app's push-to-start token for the type.
    case pushToStart(device: String, attributesType: String)

    /// The device it is read from.
    public var device: String {
        switch self {
        case .update(let device, _), .pushToStart(let device, _): return device
        }
    }

    /// As written.
    var label: String {
        switch self {
        case .update(let device, let type): return "live activity token of \(device)" + (type.map { " \(jsonString($0))" } ?? "")
        case .pushToStart(let device, let type): return "push-to-start token \(jsonString(type)) of \(device)"
        }
    }

    /// The token now held on `device`, nil when there is none (yet).
    func token(on device: Device) -> String? {
        switch self {
        case .update(_, let type): return device.liveActivities.newest(type)?.updateToken
        case .pushToStart(_, let type): return device.liveActivities.pushToStartToken(for: type)
        }
    }
}

/// What `expect <device> live activity ["<Type>"] …` checks of the newest activity (of that type).
public enum LiveActivityCheck: Equatable, Sendable {
    /// `active|stale|ended|dismissed|none`: its state at the end of the run, or at `by <time>`;
    /// nil (`none`) means no activity was ever started.
    case state(LiveActivityState?)
    /// `content "<field>" "<value>"`: a member of its last `content-state` (dots reach into
    /// objects), compared as text (a number as written in JSON).
    case content(field: String, value: String)
    /// `alert "<text>"`: one of its updates (or its start) carried this alert.
    case alert(String)
}
