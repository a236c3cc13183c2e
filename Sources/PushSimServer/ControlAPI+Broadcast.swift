import PushSimKernel
import PushSimNetwork
import PushSimDevices

/// Live Activities on APNs broadcast channels through the control API (iOS 18; Citations §1.20),
/// the same step as the scenario language's `start activity on channel "<name>"`, here with APNs'
/// own channel id (a provider creates the channel on the served channel management API and gets
/// the id in `apns-channel-id`):
///
/// | Request | Effect |
/// |---|---|
/// | `POST /_pushsim/devices/{name}/start-activity {"channel":"<id>","contentState":{…}?}` | the app starts a Live Activity on the channel, which subscribes the device (an iPhone created with `"os":18` or later) |
///
/// The device's JSON lists its activities as `activities`: `channel`, `contentState` (the JSON it
/// shows), `updates` (broadcasts taken) and `ended`.
extension ControlAPI {
    /// The path word of the action.
    static let startActivityAction = "start-activity"

    /// The step of `start-activity`, from its body; 400 without a channel id or with a content
    /// state that is not a JSON object.
    func activityStep(_ request: WireRequest) -> Result<(label: String, run: (Device) -> Void), ControlRefusal> {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let b): body = b
        }
        guard let id = body["channel"]?.stringValue, !id.isEmpty else {
            return .failure(ControlRefusal(response: ServerAnswer.error(400, #"Say which channel: {"channel":"<the apns-channel-id APNs gave>"}."#)))
        }
        var state = "{}"
        if let given = body["contentState"] {
            guard case .object = given else {
                return .failure(ControlRefusal(response: ServerAnswer.error(400, #""contentState" is a JSON object, e.g. {"score":"0-0"}."#)))
            }
            state = given.serialized()
        }
        return .success((label: "\(Self.startActivityAction) \(jsonString(id))", run: { $0.startActivity(onChannel: id, contentState: state) }))
    }

    /// The device's Live Activities on broadcast channels, for its JSON.
    func activitiesJSON(_ d: Device) -> [(String, JSONValue)] {
        let activities: [JSONValue] = d.broadcastActivities.map { a in
            .object([("channel", .string(a.channel)),
                     ("contentState", (try? JSONParser.parse(Array(a.contentState.utf8))) ?? .object([])),
                     ("updates", .number(JSONNumber(Int64(a.updates)))), ("ended", .bool(a.ended))])
        }
        return [("activities", .array(activities))]
    }
}
