import PushSimKernel
import PushSimNetwork
import PushSimDevices

/// The user's notification settings through the control API, the same steps as the scenario
/// language's (`deny notifications`, `allow notifications [provisionally]`, `disable|enable
/// channel "<id>"`), run through ``ControlAPI/perform(_:on:status:step:)`` like every device action:
///
/// | Request | Effect |
/// |---|---|
/// | `POST /_pushsim/devices/{name}/deny-notifications` | the user turns the app's notifications off (or will answer Don't Allow) |
/// | `POST /_pushsim/devices/{name}/allow-notifications` | the user turns them on (or will answer Allow) |
/// | `POST /_pushsim/devices/{name}/allow-notifications-provisionally` | the iOS app asks for provisional authorization |
/// | `POST /_pushsim/devices/{name}/disable-channel {"channel":"<id>"}` | the user turns an Android channel off |
/// | `POST /_pushsim/devices/{name}/enable-channel {"channel":"<id>"}` | and on again |
///
/// The device's JSON gives `notifications` permission as `permission` and the channels turned off.
extension ControlAPI {
    /// The permission actions that need no body, by path word.
    static var permissionActions: [String: (Device) -> Void] {
        ["deny-notifications": { $0.denyNotifications() }, "allow-notifications": { $0.allowNotifications() },
         "allow-notifications-provisionally": { $0.allowNotificationsProvisionally() }]
    }
    /// The channel actions, by path word: whether each turns the channel on.
    static let channelActions: [String: Bool] = ["disable-channel": false, "enable-channel": true]
    /// Their names, for the answer to an unknown action.
    static let permissionActionNames = (permissionActions.keys.sorted() + channelActions.keys.sorted()).joined(separator: ", ")

    /// The step of a channel action, from its body `{"channel":"<id>"}`; 400 without a channel id.
    func channelStep(_ request: WireRequest, enabled: Bool) -> Result<(label: String, run: (Device) -> Void), ControlRefusal> {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let b): body = b
        }
        guard let id = body["channel"]?.stringValue, !id.isEmpty else {
            return .failure(ControlRefusal(response: ServerAnswer.error(400, #"Say which channel: {"channel":"<id>"}, e.g. "fcm_fallback_notification_channel"."#)))
        }
        let verb = enabled ? "enable-channel" : "disable-channel"
        return .success((label: "\(verb) \(jsonString(id))", run: { $0.setNotificationChannel(id, enabled: enabled) }))
    }

    /// The device's notification settings for its JSON, after its other fields: `permission`
    /// (a ``NotificationPermission``), `disabledChannels` (sorted) and `suppressed` (how many
    /// notifications it kept off screen).
    func permissionJSON(_ d: Device) -> [(String, JSONValue)] {
        let channels: [JSONValue] = d.notificationSettings.disabledChannels.map { JSONValue.string($0) }
        return [("permission", JSONValue.string(d.notificationSettings.status.rawValue)),
                ("disabledChannels", JSONValue.array(channels)),
                ("suppressed", JSONValue.number(JSONNumber(Int64(d.suppressed.count))))]
    }
}
