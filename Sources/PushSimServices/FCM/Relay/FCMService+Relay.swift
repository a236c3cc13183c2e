import PushSimKernel
import PushSimNetwork

/// The FCM → APNs relay (Citations §2.9): a send to an iOS app instance's FCM token goes on to
/// APNs, in the world, as an APNs provider request FCM makes with the project's uploaded APNs
/// auth key (F-APNS-KEY), and FCM answers the sender with APNs' verdict.
///
/// - No key uploaded: 401 `THIRD_PARTY_AUTH_ERROR` at once, APNs not asked.
/// - A key APNs refuses (a wrong team id, a key Apple does not have): APNs answers 403
///   `InvalidProviderToken`, FCM answers 401 `THIRD_PARTY_AUTH_ERROR` (F-ERR, FA-NODE-3215).
/// - APNs' 410 `Unregistered` or 400 `BadDeviceToken`: 404 `UNREGISTERED`, and FCM drops the FCM
///   token (and its topics), as it does when an Android app is gone (F-ERR: the token "is no
///   longer valid").
/// - Other refusals: 429 `QUOTA_EXCEEDED` for APNs' 429, 503 `UNAVAILABLE` for its 5xx or no
///   answer, 400 `INVALID_ARGUMENT` for the rest (PushSim's mapping: FCM does not document one; §7).
///
/// A message with `apns.live_activity_token` goes to that token instead of the app's device token
/// (F-LIVE; §2.10); APNs' 410 for it (`ExpiredToken`, the activity is gone) is answered 404
/// `UNREGISTERED` like the rest, but the FCM token stays: only the Live Activity is gone.
///
/// A dry run (`validate_only`) is checked by FCM alone and never reaches APNs. What APNs does with
/// the push afterwards (keeping it for an offline phone, learning the app is gone) is APNs' own.
extension FCMService {
    /// How long FCM uses one APNs provider token before it signs another: 50 minutes, inside APNs'
    /// window of 20 to 60 minutes (A-JWT). Google does not say; PushSim takes the hub's default.
    static let relayProviderTokenRenewal = VirtualDuration.minutes(50)

    /// The answer FCM gives for APNs' answer to a relayed message: nil when APNs took it (200).
    public static func relayError(apnsStatus status: Int, reason: String) -> FCMError? {
        switch (status, reason) {
        case (200, _): return nil
        case (403, _): return .thirdPartyAuthError
        case (410, _), (400, "BadDeviceToken"): return .unregistered
        case (429, _): return .quotaExceeded
        case (500..., _): return .unavailable
        default: return .invalidArgument("Request contains an invalid argument.")
        }
    }

    /// Sets the APNs auth key of the project named `project` (its id or number), as uploading a
    /// `.p8` key with its key id and team id in the Firebase console's Cloud Messaging settings
    /// does (F-APNS-KEY); nil removes it. Every entry of the project gets it (one per service
    /// account allowed to send). False when no such project exists.
    @discardableResult
    public func uploadAPNsAuthKey(_ key: APNsSigningKey?, project: String) -> Bool {
        let entries = projects.indices.filter { projects[$0].projectID == project || projects[$0].projectNumber == project }
        for index in entries { projects[index].apnsAuthKey = key }
        return !entries.isEmpty
    }

    /// The APNs device token an iOS app instance bound `token` to, if it did.
    public func apnsBinding(of token: String) -> FCMAPNsBinding? { apnsBindings[token] }

    /// A send to one iOS app instance's token: relayed, and the sender answered with the outcome.
    func acceptRelayed(_ message: FCMMessage, token: String, binding: FCMAPNsBinding, device: String, project: FCMProject,
                       reply: Reply, world: World) {
        let (name, body) = successBody(project: project.projectID, milliseconds: world.anchor.unixMilliseconds(world.now))
        relay(message, name: name, token: token, binding: binding, device: device, project: project, world: world) { error in
            if let error {
                world.record(layer: "fcm", host: Self.name, kind: .fcmRejected,
                             [.status: .int(error.httpStatus), .error: .string(error.errorCode ?? error.status)])
                return reply.send(error.response, world: world)
            }
            world.record(layer: "fcm", host: Self.name, kind: .fcmAccepted,
                         [Self.messageIDField: .string(name), .device: .string(device), .validateOnly: false])
            reply.send(HTTPResponse(status: 200, headers: Self.jsonContentType, body: body), world: world)
        }
    }

    /// Relays one message named `name` for `token` to APNs; `then` gets FCM's verdict (nil: APNs took it).
    func relay(_ message: FCMMessage, name: String, token: String, binding: FCMAPNsBinding, device: String, project: FCMProject,
               world: World, then: @escaping (FCMError?) -> Void) {
        func failed(_ error: FCMError, _ why: String) {
            world.record(layer: "fcm", host: Self.name, kind: .fcmRelayFailed,
                         [Self.messageIDField: .string(name), .device: .string(device), .status: .int(error.httpStatus),
                          .error: .string(error.errorCode ?? error.status), .why: .string(why)])
            then(error)
        }
        guard let key = project.apnsAuthKey, let jwt = relayProviderToken(project: project, key: key, world: world) else {
            return failed(.thirdPartyAuthError, "no APNs auth key uploaded for the project")
        }
        guard let root = try? JSONParser.parse(message.devicePayload) else { return failed(.internalError, "the message does not parse") }
        let messageID = name.split(separator: "/").last.map(String.init) ?? name
        let translated = FCMAPNsTranslation.request(message: root, bundleID: binding.bundleID, messageID: messageID,
                                                    unixSeconds: world.anchor.unixSeconds(world.now))
        var headers = HTTPHeaders([("authorization", "bearer " + jwt)])
        for (field, value) in translated.headers { headers.add(field, value) }
        let host = binding.sandbox ? APNsService.sandboxHost : APNsService.productionHost
        let liveActivityToken = root["apns"]?["live_activity_token"]?.stringValue
        let apnsToken = liveActivityToken ?? binding.apnsToken
        world.record(layer: "fcm", host: Self.name, kind: .fcmRelayed,
                     [Self.messageIDField: .string(name), .device: .string(device), .authority: .string(host),
                      .token: .string(shortToken(apnsToken))])
        let request = HTTPRequest(method: "POST", authority: host, path: "/3/device/" + apnsToken, headers: headers, body: translated.payload)
        world.call(request, from: Self.name) { [self] result in
            guard let response = result.response else { return failed(.unavailable, "APNs did not answer: \(result.summary)") }
            let reason = (try? JSONParser.parse(response.body))?["reason"]?.stringValue ?? ""
            guard let error = Self.relayError(apnsStatus: response.status, reason: reason) else {
                issued.touch(token, at: world.now)
                return then(nil)
            }
            if error == .unregistered, liveActivityToken == nil, issued[token]?.invalidatedAt == nil {
                issued.invalidate(token, at: world.now)
                world.record(layer: "fcm", host: Self.name, kind: .fcmTokenInvalidated,
                             [.token: .string(shortToken(token)), .device: .string(device), .why: .string("APNs answered \(response.status) \(reason)")])
                dropTopics(of: token, why: "APNs no longer knows its device token", world: world)
            }
            failed(error, "APNs answered \(response.status) \(reason)")
        }
    }

    /// The provider token FCM signs with `key` (ES256, `kid` the key id, `iss` the team id, A-JWT),
    /// kept per project and key for ``relayProviderTokenRenewal``, so that a key uploaded again
    /// (after another was tried) goes on with its token instead of a new one, which APNs would
    /// refuse within 20 minutes (429 `TooManyProviderTokenUpdates`); nil for a key without its
    /// private half.
    private func relayProviderToken(project: FCMProject, key: APNsSigningKey, world: World) -> String? {
        let slot = project.projectNumber + "|" + key.keyID + "|" + key.teamID
        if let kept = relayProviderTokens[slot], kept.key == key, world.now < kept.renewAt { return kept.jwt }
        guard let privateKey = key.privateKey else { return nil }
        let jwt = JSONWebToken.apnsProviderToken(keyID: key.keyID, teamID: key.teamID, issuedAt: world.anchor.unixSeconds(world.now),
                                                 signingKey: privateKey)
        relayProviderTokens[slot] = (jwt, key, world.now + Self.relayProviderTokenRenewal)
        return jwt
    }
}
