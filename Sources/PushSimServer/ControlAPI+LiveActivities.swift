import PushSimKernel
import PushSimNetwork
import PushSimDevices

/// An iPhone's Live Activities through the control API (Citations §1.14–§1.17), the same steps as
/// the scenario language's, run through ``ControlAPI/perform(_:on:status:step:)`` like every device
/// action. The device must be made with `"os": 16` or later (`"os": 17` for push-to-start), e.g.
/// `POST /_pushsim/devices {"name":"ann-iphone","platform":"ios","os":18}`.
///
/// | Request | Effect |
/// |---|---|
/// | `POST /_pushsim/devices/{name}/observe-push-to-start {"attributesType":"<Type>"}` | the app observes the type's push-to-start token |
/// | `POST /_pushsim/devices/{name}/rotate-push-to-start {"attributesType":"<Type>"}` | the system replaces it |
/// | `POST /_pushsim/devices/{name}/start-live-activity {"attributesType":"<Type>","contentState":{…},"attributes":{…},"staleAfter":"10m","channel":"<id>"}` | the app starts one in the foreground; with `channel` (the `apns-channel-id` APNs gave; `"os":18` or later) it listens on that broadcast channel instead of taking an update token |
/// | `POST /_pushsim/devices/{name}/end-live-activity {"attributesType":"<Type>","dismissAfter":"5m"}` | the app ends its newest running one (both members optional) |
/// | `POST /_pushsim/devices/{name}/rotate-live-activity-token {"attributesType":"<Type>"}` | the system replaces its newest activity's update token (type optional) |
/// | `POST /_pushsim/devices/{name}/disable-live-activities`, `…/enable-live-activities` | the user's switch in Settings |
///
/// The device's JSON gives `liveActivities` (each activity's id, type, `state` now, content,
/// update token, broadcast `channel` (null for none), `updates` taken and alerts) and `pushToStartTokens` (type → token), which a test reads to send
/// to APNs itself.
extension ControlAPI {
    /// The Live Activity actions, by path word.
    static let liveActivityActionNames = ["observe-push-to-start", "rotate-push-to-start", "start-live-activity", "end-live-activity",
                                          "rotate-live-activity-token", "disable-live-activities", "enable-live-activities"]

    /// The step of a Live Activity action from its body; 400 naming the member that is wrong.
    func liveActivityStep(_ request: WireRequest, action: String) -> Result<(label: String, run: (Device) -> Void), ControlRefusal> {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let b): body = b
        }
        func refuse(_ text: String) -> Result<(label: String, run: (Device) -> Void), ControlRefusal> {
            .failure(ControlRefusal(response: ServerAnswer.error(400, text)))
        }
        func duration(_ member: String) -> Result<VirtualDuration?, ControlRefusal> {
            guard let text = body[member]?.stringValue else { return .success(nil) }
            guard let d = VirtualDuration.parse(Substring(text)), d.microseconds >= 0 else {
                return .failure(ControlRefusal(response: ServerAnswer.error(400, "'\(text)' is not a duration for \"\(member)\": write digits and a unit, e.g. 10m.")))
            }
            return .success(d)
        }
        let type = body["attributesType"]?.stringValue
        let now = state.world.now
        switch action {
        case "observe-push-to-start", "rotate-push-to-start":
            guard let type, !type.isEmpty else { return refuse(#"Say which ActivityAttributes type: {"attributesType":"<Type>"}."#) }
            let rotate = action == "rotate-push-to-start"
            return .success((label: "\(action) \(jsonString(type))",
                             run: { rotate ? $0.rotatePushToStartToken(attributesType: type) : $0.observePushToStartToken(attributesType: type) }))
        case "start-live-activity":
            guard let type, !type.isEmpty else { return refuse(#"Say which ActivityAttributes type: {"attributesType":"<Type>","contentState":{…}}."#) }
            guard let state = body["contentState"], state.objectMembers != nil else { return refuse(#""contentState" must be a JSON object."#) }
            let attributes = body["attributes"] ?? .object([])
            guard attributes.objectMembers != nil else { return refuse(#""attributes" must be a JSON object."#) }
            let channel = body["channel"]?.stringValue
            if body["channel"] != nil, channel?.isEmpty != false {
                return refuse(#""channel" is the apns-channel-id APNs gave when the channel was created, a string."#)
            }
            switch duration("staleAfter") {
            case .failure(let refusal): return .failure(refusal)
            case .success(let stale):
                return .success((label: "\(action) \(jsonString(type))", run: {
                    $0.startLiveActivity(attributesType: type, attributes: attributes, contentState: state, staleDate: stale.map { now + $0 },
                                         channel: channel)
                }))
            }
        case "end-live-activity":
            switch duration("dismissAfter") {
            case .failure(let refusal): return .failure(refusal)
            case .success(let dismiss):
                return .success((label: action, run: { $0.endLiveActivity(attributesType: type, dismissalDate: dismiss.map { now + $0 }) }))
            }
        case "rotate-live-activity-token":
            return .success((label: action, run: { $0.rotateLiveActivityToken(attributesType: type) }))
        default:
            let on = action == "enable-live-activities"
            return .success((label: action, run: { $0.setLiveActivitiesEnabled(on) }))
        }
    }

    /// The device's Live Activities for its JSON: `liveActivities` in the order they started, and
    /// `pushToStartTokens` by attributes type (null while APNs has not answered).
    func liveActivityJSON(_ d: Device) -> [(String, JSONValue)] {
        let now = state.world.now
        let activities: [JSONValue] = d.liveActivities.activities.map { a in
            .object([("id", .string(a.id)), ("attributesType", .string(a.attributesType)), ("state", .string(a.state(at: now).rawValue)),
                     ("contentState", a.contentState), ("updateToken", a.updateToken.map { .string($0) } ?? .null),
                     ("channel", a.channel.map { .string($0) } ?? .null), ("updates", .number(JSONNumber(Int64(a.updates)))),
                     ("alerts", .array(a.alerts.map { .string($0) }))])
        }
        let tokens: [(String, JSONValue)] = d.liveActivities.pushToStartTokens.map { ($0.attributesType, $0.token.map { .string($0) } ?? .null) }
        return [("liveActivities", .array(activities)), ("pushToStartTokens", .object(tokens))]
    }
}
