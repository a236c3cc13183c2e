import PushSimKernel
import PushSimNetwork
import PushSimServices

/// Whether the app's App ID has APNs' Broadcast capability (Citations §1.20), the switch a team
/// turns on in its developer account before it can use broadcast channels:
///
/// | Request | Does |
/// |---|---|
/// | `GET /_pushsim/apns/broadcast` | `{"enabled": true\|false}` |
/// | `POST /_pushsim/apns/broadcast {"enabled": false}` | turns it off: the app's channel management calls and broadcasts answer 400 `FeatureNotEnabled`; `true` turns it on again |
///
/// Channels made before stay; they answer again once it is on. A reset builds the world again
/// as it started: on, or the served scenario's `apns broadcast disabled`.
extension ControlAPI {
    /// `GET /_pushsim/apns/broadcast`.
    func apnsBroadcastJSON() -> JSONValue {
        let simulation = state.simulation
        return .object([("enabled", .bool(!simulation.apns.configuration.appsWithoutBroadcast.contains(simulation.identity.app.bundleID)))])
    }

    /// `POST /_pushsim/apns/broadcast`: 400 unless the body is `{"enabled": true|false}`.
    func setAPNsBroadcast(_ request: WireRequest) -> HTTPResponse {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return refusal.response
        case .success(let b): body = b
        }
        guard case .bool(let enabled)? = body["enabled"] else {
            return ServerAnswer.error(400, #"Send {"enabled": false} to turn the app's Broadcast capability off, {"enabled": true} to turn it on."#)
        }
        let simulation = state.simulation
        let app = simulation.identity.app.bundleID
        if enabled {
            simulation.apns.configuration.appsWithoutBroadcast.remove(app)
        } else {
            simulation.apns.configuration.appsWithoutBroadcast.insert(app)
        }
        return ServerAnswer.json(200, apnsBroadcastJSON())
    }
}
