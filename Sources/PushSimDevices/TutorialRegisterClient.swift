import PushSimKernel
import PushSimNetwork

/// The tutorial's `RegisterClient`, as written (NH-IOS; Citations §T step 3):
/// 1. use the registration id in local storage, or `POST /api/register?handle=` and store the
///    id from the quoted reply (first and last character stripped);
/// 2. `PUT /api/register/<id>` with `{"Platform", "Handle", "Tags": []}`;
/// 3. on 410, run the whole routine once more — which reads the same stored id again, because
///    nothing ever removes it (defect a).
/// The iOS handle is the token's upper-case hex, as `[token description]` gave it before iOS 13.
struct TutorialRegisterClient {
    let device: Device

    func register(handle: String, retry: Bool) {
        guard let token = Self.tokenString(handle, on: device) else {
            // NSURL cannot be built from "{length=32,bytes=0x…}": the request is never sent.
            device.record(.appRegistrationFailed, [.step: "create-id", .defect: "h",
                .why: "the token taken from [deviceToken description] is not hex on iOS \(device.osVersion), so the request URL cannot be built"])
            return
        }
        retrieveOrRequestRegistrationID(token) { id in
            guard let id else { return }
            upsert(id: id, token: token) { status in
                switch status {
                case 200?:
                    device.record(.appRegistered, [.registration: .string(id)])
                case 410? where retry:
                    device.record(.appRetry, [.why: "410 on upsert: run the routine again", .storedID: .string(id), .defect: "a"])
                    register(handle: handle, retry: false)
                default:
                    device.record(.appRegistrationFailed, [.status: .string(status.map(String.init) ?? "no response")])
                }
            }
        }
    }

    /// The handle string the tutorial's code makes: on iOS, `[token description]` with `<>` and
    /// spaces removed, upper-cased. Before iOS 13 that is the token's hex; from iOS 13 the
    /// description is `{length = 32, bytes = 0x… … }`, which makes no usable URL (nil here).
    static func tokenString(_ handle: String, on device: Device) -> String? {
        guard device.platform == .ios else { return handle }
        return device.osVersion < 13 ? handle.uppercased() : nil
    }

    private func retrieveOrRequestRegistrationID(_ token: String, then: @escaping (String?) -> Void) {
        if let stored = device.storage[Device.registrationIDKey] { return then(stored) }
        device.callBackend(.createID, "POST", "/api/register", query: [("handle", token)]) { result in
            guard let r = result.response, r.status == 200, r.body.count >= 2 else {
                device.record(.appRegistrationFailed, [.step: "create-id", .result: .string(result.summary)])
                return then(nil)
            }
            // "remove quotes": the body is a JSON string; the app drops its first and last character.
            let id = String(decoding: r.body.dropFirst().dropLast(), as: UTF8.self)
            device.storage[Device.registrationIDKey] = id
            then(id)
        }
    }

    private func upsert(id: String, token: String, then: @escaping (Int?) -> Void) {
        let tags = device.requestedTags.isEmpty ? "[\n\n  ]" : "[\n    " + device.requestedTags.map(jsonString).joined(separator: ",\n    ") + "\n  ]"
        let body = "{\n  \"Platform\" : \(jsonString(device.platform.registrationPlatform)),\n  \"Handle\" : \(jsonString(token)),\n  \"Tags\" : \(tags)\n}"
        device.callBackend(.register, "PUT", "/api/register/\(id)", contentType: "application/json", body: body) { result in
            then(result.status)
        }
    }
}

/// The registration logic Microsoft's guidance recommends (NH-DN743807; Citations §T
/// "What the guidance recommends instead"): keep the id; with none stored, get one; upsert;
/// on 410 forget the stored id and start over from "create id" (at most `restartsLeft` times);
/// on 403 for extra tags it asked for, register without them;
/// retry calls that failed for a passing reason (``AppRetry``) while the same user is logged in.
struct RecommendedRegisterClient {
    let device: Device

    /// Registers; `done` runs once the routine has ended, registered or given up.
    func register(handle: String, restartsLeft: Int, done: @escaping () -> Void) {
        let login = device.authorization
        let stillWanted = { [device] in device.authorization == login && device.handle == handle }
        let token = device.platform == .ios ? handle.uppercased() : handle
        let proceed: (String) -> Void = { id in
            let tags = device.requestedTags.map(jsonString).joined(separator: ",")
            let body = "{\"Platform\":\(jsonString(device.platform.registrationPlatform)),\"Handle\":\(jsonString(token)),\"Tags\":[\(tags)]}"
            device.callBackendRetrying(.register, "PUT", "/api/register/\(id)", contentType: "application/json", body: body,
                                       authorization: login, stillWanted: stillWanted) { result in
                switch result.status {
                case 200? where device.authorization != login:
                    // The user logged out while this registration was on its way (its answer, or the
                    // logout's DELETE, may even have been overtaken): take it back.
                    device.record(.appRetry, [.why: "logged out while registering: unregister", .registration: .string(id)])
                    device.storage[Device.pendingUnregistrationKey] = id + " " + (login ?? "")
                    RecommendedClientLogic.unregisterPending(on: device)
                    done()
                case 200?:
                    device.record(.appRegistered, [.registration: .string(id)])
                    done()
                case 410? where restartsLeft > 0:
                    device.storage[Device.registrationIDKey] = nil
                    device.record(.appRetry, [.why: "410 on upsert: forget the id and start over", .forgottenID: .string(id)])
                    register(handle: handle, restartsLeft: restartsLeft - 1, done: done)
                case 403? where !device.requestedTags.isEmpty:
                    // The backend refused the extra tags: register for the user's own notifications.
                    device.record(.appRetry, [.why: "403 for the extra tags: register without them", .tags: .string(device.requestedTags.joined(separator: ","))])
                    device.requestedTags = []
                    register(handle: handle, restartsLeft: restartsLeft, done: done)
                default:
                    device.record(.appRegistrationFailed, [.result: .string(result.summary)])
                    done()
                }
            }
        }
        if let stored = device.storage[Device.registrationIDKey] { return proceed(stored) }
        device.callBackendRetrying(.createID, "POST", "/api/register", query: [("handle", token)], authorization: login,
                                   stillWanted: stillWanted) { result in
            guard let r = result.response, r.status == 200, let json = try? JSONParser.parse(r.body), let id = json.stringValue else {
                device.record(.appRegistrationFailed, [.step: "create-id", .result: .string(result.summary)])
                return done()
            }
            guard stillWanted() else {
                // Logged out, or a new handle, meanwhile: this id is not wanted any more.
                device.record(.appIgnored, [.action: "register", .why: "the login or the handle changed while asking for an id"])
                return done()
            }
            device.storage[Device.registrationIDKey] = id
            proceed(id)
        }
    }
}
