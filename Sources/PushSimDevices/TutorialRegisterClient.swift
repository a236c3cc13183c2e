import PushSimKernel
import PushSimNetwork

/// The tutorial's `RegisterClient`, as written (NH-IOS; tutorial-system.md step 3):
/// 1. use the registration id in local storage, or `POST /api/register?handle=` and store the
///    id from the quoted reply (first and last character stripped);
/// 2. `PUT /api/register/<id>` with `{"Platform", "Handle", "Tags": []}`;
/// 3. on 410, run the whole routine once more — which reads the same stored id again, because
///    nothing ever removes it (defect a).
/// The iOS handle is the token's upper-case hex, as `[token description]` gave it before iOS 13.
struct TutorialRegisterClient {
    let device: Device

    func register(handle: String, retry: Bool) {
        let token = device.platform == .ios ? handle.uppercased() : handle
        retrieveOrRequestRegistrationID(token) { id in
            guard let id else { return }
            upsert(id: id, token: token) { status in
                switch status {
                case 200?:
                    device.record("app.registered", ["registration": id])
                case 410? where retry:
                    device.record("app.retry", ["why": "410 on upsert: run the routine again", "stored-id": id, "defect": "a"])
                    register(handle: handle, retry: false)
                default:
                    device.record("app.registration-failed", ["status": status.map(String.init) ?? "no response"])
                }
            }
        }
    }

    private func retrieveOrRequestRegistrationID(_ token: String, then: @escaping (String?) -> Void) {
        if let stored = device.storage[Device.registrationIDKey] { return then(stored) }
        device.callBackend(.createID, "POST", "/api/register", query: [("handle", token)]) { result in
            guard let r = result.response, r.status == 200, r.body.count >= 2 else {
                device.record("app.registration-failed", ["step": "create-id", "result": result.summary])
                return then(nil)
            }
            // "remove quotes": the body is a JSON string; the app drops its first and last character.
            let id = String(decoding: r.body.dropFirst().dropLast(), as: UTF8.self)
            device.storage[Device.registrationIDKey] = id
            then(id)
        }
    }

    private func upsert(id: String, token: String, then: @escaping (Int?) -> Void) {
        let body = "{\n  \"Platform\" : \(jsonString(device.platform.registrationPlatform)),\n  \"Handle\" : \(jsonString(token)),\n  \"Tags\" : [\n\n  ]\n}"
        device.callBackend(.register, "PUT", "/api/register/\(id)", contentType: "application/json", body: body) { result in
            then(result.status)
        }
    }
}

/// The registration logic Microsoft's guidance recommends (NH-DN743807; tutorial-system.md
/// "What the guidance recommends instead"): keep the id; with none stored, get one; upsert;
/// on 410 forget the stored id and start over from "create id" (at most `restartsLeft` times).
struct RecommendedRegisterClient {
    let device: Device

    func register(handle: String, restartsLeft: Int) {
        let token = device.platform == .ios ? handle.uppercased() : handle
        let proceed: (String) -> Void = { id in
            let body = "{\"Platform\":\(jsonString(device.platform.registrationPlatform)),\"Handle\":\(jsonString(token)),\"Tags\":[]}"
            device.callBackend(.register, "PUT", "/api/register/\(id)", contentType: "application/json", body: body) { result in
                switch result.status {
                case 200?:
                    device.record("app.registered", ["registration": id])
                case 410? where restartsLeft > 0:
                    device.storage[Device.registrationIDKey] = nil
                    device.record("app.retry", ["why": "410 on upsert: forget the id and start over", "forgotten-id": id])
                    register(handle: handle, restartsLeft: restartsLeft - 1)
                default:
                    device.record("app.registration-failed", ["result": result.summary])
                }
            }
        }
        if let stored = device.storage[Device.registrationIDKey] { return proceed(stored) }
        device.callBackend(.createID, "POST", "/api/register", query: [("handle", token)]) { result in
            guard let r = result.response, r.status == 200, let json = try? JSONParser.parse(r.body), let id = json.stringValue else {
                return device.record("app.registration-failed", ["step": "create-id", "result": result.summary])
            }
            device.storage[Device.registrationIDKey] = id
            proceed(id)
        }
    }
}
