import PushSimKernel
import PushSimNetwork
import PushSimDevices

/// A device's newest Live Activity (of a type) as a probe read it at `time`: a copy, so later
/// updates do not change what was seen.
struct LiveActivitySnapshot {
    var activity: LiveActivity?
    var time: VirtualTime

    /// The newest activity of `attributesType` (any when nil) on `device`, now.
    init(device: Device?, attributesType: String?, now: VirtualTime) {
        activity = device?.liveActivities.newest(attributesType)
        time = now
    }
}

extension ExpectationCheck {
    /// Judges `expect <device> live activity ["<Type>"] …` against `seen`: whether it held, and
    /// what was there in words.
    static func liveActivity(_ check: LiveActivityCheck, seen: LiveActivitySnapshot, device: String, attributesType: String?) -> (Bool, String) {
        let what = "\(device)'s " + (attributesType.map { "\($0) " } ?? "") + "Live Activity"
        guard let activity = seen.activity else {
            return (check == .state(nil), "\(device) had no \(attributesType.map { "\($0) " } ?? "")Live Activity at \(seen.time)")
        }
        let state = activity.state(at: seen.time)
        switch check {
        case .state(let expected):
            return (expected == state, "\(what) was \(state.rawValue) at \(seen.time)")
        case .content(let field, let value):
            let found = ExchangeCondition.lookUp(field, in: activity.contentState)
            let text = found.map { $0.stringValue ?? $0.serialized() }
            return (text == value, "\(what)'s content-state was \(activity.contentState.serialized()) at \(seen.time)")
        case .alert(let text):
            let alerts = activity.alerts.map(jsonString).joined(separator: ", ")
            return (activity.alerts.contains(text), "\(what) carried \(activity.alerts.isEmpty ? "no alert" : "the alerts \(alerts)")")
        }
    }
}
