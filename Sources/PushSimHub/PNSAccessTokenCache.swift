import PushSimKernel
import PushSimNetwork

/// The credentials the hub presents to each PNS, obtained and renewed the way a real provider does:
/// - APNs: a provider token (JWT, ES256 simulated) made locally and renewed every 50 minutes
///   (``HubConfiguration/apnsProviderTokenRenewal``), inside APNs' 20-to-60-minute window (A-JWT);
/// - FCM: an OAuth 2 access token from `oauth2.googleapis.com` for a signed service-account
///   assertion (F-MIG), renewed 5 minutes before it expires;
/// - WNS: an access token from `login.live.com` for the package SID and secret (W-OVR).
/// Callers waiting while a token is being fetched are queued and answered in order.
struct PNSAccessTokenCache {
    /// What a token request came to: a token, a refusal of the hub's credentials (the endpoint
    /// answered, but not with a token), or no usable answer (transport failure, 408, 429, 5xx),
    /// which the hub treats like a PNS outage and retries.
    enum Answer: Equatable {
        case token(String)
        case refused(String)
        case unavailable(String)
    }

    struct Cached { var token: String; var expiresAt: VirtualTime }
    private var apns: Cached?
    private var fcm: Cached?
    private var wns: Cached?
    /// Callers waiting for a token fetch, each resumed in its own causal chain.
    private var fcmWaiters: [(chain: String, resume: (Answer) -> Void)] = []
    private var wnsWaiters: [(chain: String, resume: (Answer) -> Void)] = []

    /// The cached provider token, or a new one minted now and kept for `renewal`.
    mutating func apnsToken(_ c: APNsCredential, renewal: VirtualDuration, world: World) -> String {
        if let a = apns, world.now < a.expiresAt { return a.token }
        let jwt = JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string(c.keyID))]),
                                    claims: .object([("iss", .string(c.teamID)), ("iat", .number(JSONNumber(world.anchor.unixSeconds(world.now))))]),
                                    secret: c.secret)
        apns = Cached(token: jwt, expiresAt: world.now + renewal)
        world.record(layer: "hub", host: NotificationHub.name, kind: .hubProviderToken,
                     [.kid: .string(c.keyID), .iat: .int(world.anchor.unixSeconds(world.now)), .renewAfter: "\(renewal)"])
        return jwt
    }

    /// The cached FCM access token if it is still good at `now`.
    func cachedFCMToken(at now: VirtualTime) -> String? { fcm.flatMap { now < $0.expiresAt ? $0.token : nil } }
    /// The cached WNS access token if it is still good at `now`.
    func cachedWNSToken(at now: VirtualTime) -> String? { wns.flatMap { now < $0.expiresAt ? $0.token : nil } }

    mutating func forget(_ platform: RegistrationPlatform) {
        switch platform {
        case .apple: apns = nil
        case .fcmV1: fcm = nil
        case .windows: wns = nil
        default: break
        }
    }

    /// The FCM access token, fetched first if needed.
    static func fcmToken(_ hub: NotificationHub, _ c: FCMCredential, world: World, then: @escaping (Answer) -> Void) {
        fetch(hub, slot: \.fcm, waiters: \.fcmWaiters, authority: "oauth2.googleapis.com", path: "/token",
              form: fcmForm(c, now: world.anchor.unixSeconds(world.now)), world: world, then: then)
    }

    /// The token request's form: a service-account assertion for the messaging scope (F-MIG).
    private static func fcmForm(_ c: FCMCredential, now: Int64) -> String {
        let assertion = JSONWebToken.make(
            header: .object([("alg", .string("RS256")), ("typ", .string("JWT"))]),
            claims: .object([("iss", .string(c.serviceAccount)), ("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
                             ("aud", .string("https://oauth2.googleapis.com/token")),
                             ("iat", .number(JSONNumber(now))), ("exp", .number(JSONNumber(now + 3_600)))]),
            secret: c.secret)
        return "grant_type=\(percentEncode("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(assertion)"
    }

    /// The WNS access token, fetched first if needed.
    static func wnsToken(_ hub: NotificationHub, _ c: WNSCredential, world: World, then: @escaping (Answer) -> Void) {
        fetch(hub, slot: \.wns, waiters: \.wnsWaiters, authority: "login.live.com", path: "/accesstoken.srf",
              form: "grant_type=client_credentials&client_id=\(percentEncode(c.packageSID))&client_secret=\(percentEncode(c.secret))&scope=notify.windows.com",
              world: world, then: then)
    }

    /// Answers from the cache, or posts `form` to the token endpoint (once for all waiters: the
    /// form is only built for the first) and caches `access_token` until 5 minutes before
    /// `expires_in` runs out.
    private static func fetch(_ hub: NotificationHub, slot: WritableKeyPath<PNSAccessTokenCache, Cached?>,
                              waiters: WritableKeyPath<PNSAccessTokenCache, [(chain: String, resume: (Answer) -> Void)]>,
                              authority: String, path: String, form: @autoclosure () -> String, world: World,
                              then: @escaping (Answer) -> Void) {
        if let cached = hub.pnsTokens[keyPath: slot], world.now < cached.expiresAt { return then(.token(cached.token)) }
        hub.pnsTokens[keyPath: waiters].append((world.correlation, then))
        guard hub.pnsTokens[keyPath: waiters].count == 1 else { return }
        let request = HTTPRequest(method: "POST", authority: authority, path: path,
                                  headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array(form().utf8))
        world.call(request, from: NotificationHub.name) { result in
            let answer: Answer
            if let r = result.response, r.status == 200, let json = try? JSONParser.parse(r.body),
               let t = json["access_token"]?.stringValue, let life = json["expires_in"]?.int64Value {
                answer = .token(t)
                hub.pnsTokens[keyPath: slot] = Cached(token: t, expiresAt: world.now + .seconds(max(0, life - 300)))
            } else {
                world.record(layer: "hub", host: NotificationHub.name, kind: .hubPNSAuthFailed,
                             [.endpoint: .string(authority), .result: .string(result.summary)])
                switch result.status {
                case nil, 408?, 429?, 500?, 502?, 503?, 504?:
                    answer = .unavailable("the PNS token endpoint could not be reached (\(result.summary))")
                default:
                    answer = .refused("the PNS token endpoint refused the hub's credentials")
                }
            }
            let queued = hub.pnsTokens[keyPath: waiters]
            hub.pnsTokens[keyPath: waiters] = []
            for w in queued { world.inCorrelation(w.chain) { w.resume(answer) } }
        }
    }
}
