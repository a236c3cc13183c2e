import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimServices
import PushSimDevices

/// Sends straight to FCM (`operator send fcm "<body>" to topic|condition …`): what a backend using
/// the Firebase Admin SDK does for topics, which the hub does not offer. It buys an OAuth access
/// token from Google's token endpoint with the project's service account (the same JWT-bearer
/// grant the hub uses, F-MIG), keeps it until five minutes before it runs out, and posts the body
/// to `messages:send` with the target put into `message` (F-SEND, F-TOPIC). The answer is
/// recorded as a `send` call (`expect operator send status 400`).
extension OperatorConsole {
    /// Sends `body` (a v1 request, `{"message":{…}}`) to `target` for the project of `account`.
    public func sendToFCM(body: String, target: FCMSendTarget, account: FCMCredential) {
        world.record(layer: "operator", host: Self.name, kind: .operatorSend, [.format: "fcm", .target: .string(target.label)])
        let sentAt = world.now
        withFCMAccessToken(account) { [self] token in
            guard let token else {
                return recordFCMResult(sentAt, nil, "no access token: Google's token endpoint refused or did not answer")
            }
            let request = HTTPRequest(method: "POST", authority: FCMService.apiHost, path: account.sendPath,
                                      headers: ["content-type": "application/json", "authorization": "Bearer " + token],
                                      body: Self.fcmBody(body, target: target))
            world.call(request, from: Self.name) { [self] result in recordFCMResult(sentAt, result.status, result.status == nil ? result.summary : nil) }
        }
    }

    /// `body` with `topic` or `condition` added to its `message` object (the parser made sure there is one).
    static func fcmBody(_ body: String, target: FCMSendTarget) -> [UInt8] {
        guard let root = try? JSONParser.parse(Array(body.utf8)), case .object(let members) = root else { return Array(body.utf8) }
        let field: (String, JSONValue)
        switch target {
        case .topic(let name): field = ("topic", .string(name))
        case .condition(let text): field = ("condition", .string(text))
        case .token(let token), .tokenOf(let token): field = ("token", .string(token))
        }
        let filled = members.map { key, value -> (String, JSONValue) in
            guard key == "message", case .object(let message) = value else { return (key, value) }
            return (key, .object(message + [field]))
        }
        return JSONValue.object(filled).serializedBytes()
    }

    private func withFCMAccessToken(_ account: FCMCredential, then: @escaping (String?) -> Void) {
        if let cached = fcmAccessToken, world.now < cached.renewAt { return then(cached.token) }
        let form = account.tokenRequestForm(now: world.anchor.unixSeconds(world.now))
        let request = HTTPRequest(method: "POST", authority: FCMService.oauthHost, path: "/token",
                                  headers: ["content-type": "application/x-www-form-urlencoded"], body: Array(form.utf8))
        world.call(request, from: Self.name) { [self] result in
            guard let r = result.response, r.status == 200, let json = try? JSONParser.parse(r.body),
                  let token = json["access_token"]?.stringValue, let life = json["expires_in"]?.int64Value else { return then(nil) }
            fcmAccessToken = (token, world.now + .seconds(max(0, life - 300)))
            then(token)
        }
    }

    private func recordFCMResult(_ sentAt: VirtualTime, _ status: Int?, _ failure: String?) {
        recordCall(AppCallRecord.make(operation: .send, sentAt: sentAt, completedAt: world.now, status: status, failure: failure))
        world.record(layer: "operator", host: Self.name, kind: .operatorResult, [.result: .string(status.map(String.init) ?? "no HTTP answer")])
    }
}
