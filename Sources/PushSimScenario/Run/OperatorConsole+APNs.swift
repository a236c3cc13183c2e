import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices

/// Sends straight to APNs (`operator send apns "<payload>" to live activity token of <device>`):
/// what a backend does for ActivityKit pushes, which go to a Live Activity token, not through
/// the hub. It signs an ES256 provider token with the team's key (A-JWT) and keeps it 50 minutes
/// (APNs refuses a new one within 20, `TooManyProviderTokenUpdates`, and one older than 60),
/// then posts to `api.push.apple.com` `/3/device/<token>` with `apns-push-type: liveactivity`,
/// `apns-topic: <bundle id>.push-type.liveactivity` and `apns-priority: 10` unless the step's
/// headers give their own (A-LA-PUSH). The answer is recorded as a `send` call.
extension OperatorConsole {
    /// How long the operator uses one provider token.
    static let apnsProviderTokenRenewal = VirtualDuration.minutes(50)

    /// Sends `payload` to `token` for the app `bundleID`, signed with `key`; `headers` (lower-cased
    /// `apns-*` names) come first and win over the defaults. A push-to-start's `input-push-channel`
    /// may name a channel the operator created by its name in the file: APNs' id is put in its place.
    public func sendToAPNs(payload: String, token: String, headers: [(String, String)], key: APNsSigningKey, bundleID: String) {
        world.record(layer: "operator", host: Self.name, kind: .operatorSend, [.format: "apns", .target: .string(shortToken(token))])
        let sentAt = world.now
        var fields = HTTPHeaders([("authorization", "bearer " + providerToken(key))])
        let given = headers.map { ($0.0.lowercased(), $0.1) }
        for (name, value) in given { fields.add(name, value) }
        func has(_ name: String) -> Bool { given.contains { $0.0 == name } }
        if !has("apns-push-type") { fields.add("apns-push-type", APNsPushType.liveactivity.rawValue) }
        if !has("apns-topic") { fields.add("apns-topic", bundleID + (APNsPushType.liveactivity.topicSuffix ?? "")) }
        if !has("apns-priority") { fields.add("apns-priority", "10") }
        let request = HTTPRequest(method: "POST", authority: APNsService.productionHost, path: "/3/device/" + token,
                                  headers: fields, body: Array(withChannelIDs(payload).utf8))
        world.call(request, from: Self.name) { [self] result in
            recordCall(AppCallRecord.make(operation: .send, sentAt: sentAt, completedAt: world.now, status: result.status,
                                          failure: result.status == nil ? result.summary : nil))
            world.record(layer: "operator", host: Self.name, kind: .operatorResult, [.result: .string(result.status.map(String.init) ?? "no HTTP answer")])
        }
    }

    /// `body` (an FCM v1 request) with `message.apns.live_activity_token` set to `token` (F-LIVE).
    static func withLiveActivityToken(_ body: String, _ token: String) -> String {
        guard let root = try? JSONParser.parse(Array(body.utf8)), var message = root["message"]?.objectMembers else { return body }
        var apns = message.first { $0.0 == "apns" }?.1.objectMembers ?? []
        apns.removeAll { $0.0 == "live_activity_token" }
        apns.insert(("live_activity_token", .string(token)), at: 0)
        message.removeAll { $0.0 == "apns" }
        message.append(("apns", .object(apns)))
        let members = (root.objectMembers ?? []).map { $0.0 == "message" ? ("message", JSONValue.object(message)) : $0 }
        return JSONValue.object(members).serialized()
    }

    /// The team's provider token for every operator call to APNs (sends, Live Activity pushes,
    /// broadcast channels), signed anew every ``apnsProviderTokenRenewal`` (APNs accepts one for
    /// an hour, §1.6).
    func providerToken(_ key: APNsSigningKey) -> String {
        if let cached = apnsProviderToken, world.now < cached.renewAt { return cached.token }
        guard let privateKey = key.privateKey else { return "" }
        let token = JSONWebToken.apnsProviderToken(keyID: key.keyID, teamID: key.teamID, issuedAt: world.anchor.unixSeconds(world.now),
                                                   signingKey: privateKey)
        apnsProviderToken = (token, world.now + Self.apnsProviderTokenRenewal)
        return token
    }
}
