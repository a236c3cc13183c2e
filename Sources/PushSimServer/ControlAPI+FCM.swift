import PushSimKernel
import PushSimCrypto
import PushSimNetwork
import PushSimServices
import PushSimScenario

/// The Firebase project's APNs auth key, which FCM relays sends to iOS app instances with
/// (Citations §2.9, F-APNS-KEY): what the Firebase console's Cloud Messaging settings hold.
///
/// | Request | Does |
/// |---|---|
/// | `GET /_pushsim/fcm/apns-key` | `{"state","keyId","teamId"}`: `uploaded`, `missing`, `wrong-team` or `own` (a key of your own) |
/// | `POST /_pushsim/fcm/apns-key {"state":"uploaded"\|"missing"\|"wrong-team"}` | the world's Apple key, none, or the world's key entered with team `WRONGTEAM1` |
/// | `POST /_pushsim/fcm/apns-key {"keyId","teamId","p8"}` | a key of your own, as uploading a `.p8` does (APNs must know it: `POST /_pushsim/keys/apns`) |
///
/// With `missing`, a send to an iOS app's FCM token is answered 401 `THIRD_PARTY_AUTH_ERROR`; with
/// `wrong-team` (or a key APNs does not have) APNs refuses FCM's provider tokens with 403
/// `InvalidProviderToken` and FCM answers the same 401. A reset builds the world again with the
/// key it started with: the world's own, or the served scenario's `fcm apns key`.
extension ControlAPI {
    /// `GET /_pushsim/fcm/apns-key`.
    func fcmAPNsKeyJSON() -> JSONValue {
        let simulation = state.simulation
        let key = simulation.fcm.projects.first?.apnsAuthKey
        let known = FCMAPNsKeyState.allCases.first { $0.key(for: simulation.identity) == key }
        return .object([
            "state": .string(known?.rawValue ?? "own"),
            "keyId": key.map { .string($0.keyID) } ?? .null,
            "teamId": key.map { .string($0.teamID) } ?? .null,
        ])
    }

    /// `POST /_pushsim/fcm/apns-key`: a state by name, or a key of your own.
    func setFCMAPNsKey(_ request: WireRequest) -> HTTPResponse {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return refusal.response
        case .success(let b): body = b
        }
        let usage = #"Send {"state":"uploaded"}, {"state":"missing"}, {"state":"wrong-team"} or {"keyId":"ABC123DEFG","teamId":"DEF123GHIJ","p8":"-----BEGIN PRIVATE KEY-----…"}."#
        let simulation = state.simulation
        let key: APNsSigningKey?
        if let text = body["state"]?.stringValue {
            guard let chosen = FCMAPNsKeyState(rawValue: text) else { return ServerAnswer.error(400, "\"state\" is not uploaded, missing or wrong-team. " + usage) }
            key = chosen.key(for: simulation.identity)
        } else {
            guard let keyID = body["keyId"]?.stringValue, !keyID.isEmpty, let teamID = body["teamId"]?.stringValue, !teamID.isEmpty,
                  let pem = body["p8"]?.stringValue else {
                return ServerAnswer.error(400, "Name a \"state\", or give \"keyId\", \"teamId\" and \"p8\". " + usage)
            }
            guard case .p256(let privateKey)? = try? AsymmetricPrivateKey(pem: pem) else {
                return ServerAnswer.error(400, "\"p8\" is not a PEM P-256 private key (an APNs .p8). " + usage)
            }
            key = APNsSigningKey(keyID: keyID, teamID: teamID, privateKey: privateKey)
        }
        for project in simulation.fcm.projects { simulation.fcm.uploadAPNsAuthKey(key, project: project.projectID) }
        return ServerAnswer.json(200, fcmAPNsKeyJSON())
    }
}
