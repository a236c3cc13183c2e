import PushSimKernel
import PushSimCrypto
import PushSimNetwork

/// How the hub talks to APNs: a provider token it makes itself (no token endpoint), requests
/// `POST /3/device/<token>` with `apns-topic` and `apns-push-type`, and answers read by their
/// `reason` (A-RESP).
enum APNsAdapter: PNSServiceAdapter {
    static var service: PushServiceDescriptor { .apns }

    /// An APNs payload must be a JSON object: the send page's 400 for a "bad message format"
    /// (https://learn.microsoft.com/en-us/rest/api/notificationhubs/send-apns-native-notification), given
    /// when the send is made (.NET SDK issue #194, "The supplied notification payload is invalid.").
    /// ``InvalidAPNsPayload`` has the sources and the setting. Copies share nothing further.
    static func readNativeSend(_ request: HTTPRequest, hub: NotificationHub) -> Result<String?, HubRefusal> {
        if hub.configuration.invalidAPNsPayload == .refused && !NotificationHub.isJSONObject(request.body) {
            return .failure(HubRefusal(status: 400, detail: NotificationHub.invalidPayload))
        }
        return .success(nil)
    }

    /// `apns-expiration` (Unix seconds) from `ServiceBusNotification-Apns-Expiry` (``ApnsExpiryHeader``);
    /// a time before 1970 as 0, "expired: try once, keep nothing".
    static func derivedHeaders(_ request: HTTPRequest) -> Result<[(String, String)], HubRefusal> {
        guard let expiry = request.headers[ApnsExpiryHeader.name] else { return .success([]) }
        guard let seconds = ApnsExpiryHeader.unixSeconds(expiry) else {
            return .failure(HubRefusal(status: 400, detail: "The \(ApnsExpiryHeader.name) header '\(expiry)' is not a date."))
        }
        return .success([("apns-expiration", String(max(0, seconds)))])
    }

    /// Nothing: an APNs template renders the whole payload.
    static func renderedTemplateTail(_ body: [UInt8]) -> Result<String?, PNSRequestProblem> { .success(nil) }

    /// APNs needs no access token: the provider token is made locally, per request.
    static func accessToken(_ hub: NotificationHub, now: VirtualTime) -> PNSAccessTokenState { .notNeeded }

    /// Never called (``accessToken(_:now:)`` never says `.toFetch`); answers with no token.
    static func fetchAccessToken(_ hub: NotificationHub, world: World, then: @escaping (PNSAccessTokenCache.Answer) -> Void) {
        then(.token(""))
    }

    /// The cached provider token (JWT signed with ES256, RFC 7518 §3.4), or a new one minted now and kept for
    /// ``HubConfiguration/apnsProviderTokenRenewal``, inside APNs' 20-to-60-minute window (A-JWT).
    static func providerToken(_ hub: NotificationHub, _ c: APNsCredential, world: World) -> String {
        if let token = hub.pnsTokens.cachedToken(.apns, at: world.now) { return token }
        let renewal = hub.configuration.apnsProviderTokenRenewal
        let jwt = JSONWebToken.apnsProviderToken(keyID: c.keyID, teamID: c.teamID, issuedAt: world.anchor.unixSeconds(world.now),
                                                 signingKey: c.privateKey)
        hub.pnsTokens.keep(.apns, jwt, until: world.now + renewal)
        world.record(layer: "hub", host: NotificationHub.name, kind: .hubProviderToken,
                     [.kid: .string(c.keyID), .iat: .int(world.anchor.unixSeconds(world.now)), .renewAfter: "\(renewal)"])
        return jwt
    }

    /// `POST /3/device/<token>` to the credential's endpoint with the provider token, the bundle id
    /// as `apns-topic`, `apns-push-type: alert` unless the sender gave one, and the sender's
    /// `apns-*` headers.
    static func request(_ copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, accessToken: String,
                        hub: NotificationHub, world: World) -> Result<HTTPRequest, PNSRequestProblem> {
        guard let c = hub.configuration.apns else { return .failure(.noCredentials(t.platform)) }
        let jwt = providerToken(hub, c, world: world)
        let h = hub.copyHeaders(n, t, credential: jwt) {
            var h = HTTPHeaders([("authorization", "bearer " + jwt), ("apns-topic", c.bundleID)])
            if !copy.headers.contains(where: { sameFieldName($0.0, "apns-push-type") }) { h.add("apns-push-type", "alert") }
            for (k, v) in copy.headers { h.add(k.lowercased(), v) }
            return h
        }
        // Tokens go in lower case.
        return .success(HTTPRequest(method: "POST", authority: c.endpoint, path: String.concatenating("/3/device/", asciiLowercased: t.handle),
                                    headers: h, body: copy.body))
    }

    /// 410: the token is gone (with its `timestamp`); 400 `BadDeviceToken`: never valid; 403
    /// `ExpiredProviderToken`: renew; 429 `TooManyRequests`, 500, 503: retry.
    static func verdict(_ response: HTTPResponse, json: JSONValue?, retryAfter: VirtualDuration?, refusal: PNSOutcome) -> PNSVerdict {
        let status = response.status
        let reason = json?["reason"]?.stringValue ?? ""
        switch (status, reason) {
        case (200, _): return .accepted
        case (410, _):
            return .deadHandle(reason: "APNs 410 \(reason)", sinceUnixMilliseconds: json?["timestamp"]?.int64Value, outcome: .expiredChannel)
        case (400, "BadDeviceToken"): return .deadHandle(reason: "APNs 400 BadDeviceToken", sinceUnixMilliseconds: nil, outcome: .badChannel)
        case (403, "ExpiredProviderToken"): return .renewCredentials(reason: "APNs 403 ExpiredProviderToken")
        case (429, "TooManyRequests"): return .retry(reason: "APNs \(status) \(reason)", after: retryAfter, outcome: .throttled)
        case (500, _), (503, _): return .retry(reason: "APNs \(status) \(reason)", after: retryAfter, outcome: .pnsError)
        default: return .refused(reason: "APNs \(status) \(reason)", outcome: refusal)
        }
    }

    /// The `apns-id` header.
    static func messageID(_ response: HTTPResponse) -> String { response.headers["apns-id"] ?? "" }
}

/// The hub's APNs settings (token-based auth): key, team, app and endpoint.
public struct APNsCredential: Sendable, Equatable {
    /// The signing key's 10-character id, the provider token's `kid`.
    public var keyID: String
    /// The developer team id, the provider token's `iss`.
    public var teamID: String
    /// The signing key's private key (what the `.p8` file holds): provider tokens are signed with it.
    public var privateKey: P256PrivateKey
    /// The app's bundle id, sent as `apns-topic`.
    public var bundleID: String
    /// `api.push.apple.com` (production) or `api.sandbox.push.apple.com`.
    public var endpoint: String
    /// Settings for the production endpoint unless `endpoint` says otherwise.
    public init(keyID: String, teamID: String, privateKey: P256PrivateKey, bundleID: String, endpoint: String = "api.push.apple.com") {
        self.keyID = keyID; self.teamID = teamID; self.privateKey = privateKey; self.bundleID = bundleID; self.endpoint = endpoint
    }
}

extension APNsCredential: PNSCredential {
    static var adapter: PNSAdapter { .apns }
}

extension HubConfiguration {
    /// The hub's APNs credentials; nil: every copy for an APNs registration is dropped ("the hub
    /// has no apple credentials").
    public var apns: APNsCredential? {
        get { credentials[APNsCredential.self] }
        set { credentials[APNsCredential.self] = newValue }
    }
}
