import PushSimKernel
import PushSimNetwork

/// The credentials the hub presents to each PNS, one slot per service (``PNSAdapter``), obtained
/// and renewed the way a real provider does; each service's adapter says how:
/// - APNs: a provider token (JWT, ES256) made locally and renewed every 50 minutes
///   (``HubConfiguration/apnsProviderTokenRenewal``), inside APNs' 20-to-60-minute window (A-JWT;
///   ``APNsAdapter``);
/// - FCM: an OAuth 2 access token from `oauth2.googleapis.com` for a signed service-account
///   assertion (F-MIG; ``FCMAdapter``), renewed 5 minutes before it expires;
/// - WNS: an access token from `login.live.com` for the package SID and secret (W-OVR; ``WNSAdapter``).
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
    /// The token of each service, by its adapter (``PNSAdapter``'s raw value).
    private var cached = [Cached?](repeating: nil, count: PNSAdapter.allCases.count)
    /// Callers waiting for a service's token fetch, each resumed in its own causal chain.
    private var waiters = [[(chain: String, resume: (Answer) -> Void)]](repeating: [], count: PNSAdapter.allCases.count)

    /// The cached token for `service` if it is still good at `now`.
    func cachedToken(_ service: PNSAdapter, at now: VirtualTime) -> String? {
        cached[service.rawValue].flatMap { now < $0.expiresAt ? $0.token : nil }
    }

    /// Whether a copy to `service` waits for an access token the hub fetches: not when the hub has
    /// no credentials for it (the request is refused then), the cached one while it is good, else
    /// one to fetch.
    func state(_ service: PNSAdapter, hasCredentials: Bool, at now: VirtualTime) -> PNSAccessTokenState {
        guard hasCredentials else { return .notNeeded }
        return cachedToken(service, at: now).map { .cached($0) } ?? .toFetch
    }

    /// Keeps `token` for `service` until `expiresAt` (a token the hub made itself: APNs' provider token).
    mutating func keep(_ service: PNSAdapter, _ token: String, until expiresAt: VirtualTime) {
        cached[service.rawValue] = Cached(token: token, expiresAt: expiresAt)
    }

    /// Drops `service`'s token, which the service called stale: the next copy gets a new one.
    mutating func forget(_ service: PNSAdapter) { cached[service.rawValue] = nil }

    /// Answers from the cache, or posts `form` to the token endpoint (once for all waiters: the
    /// form is only built for the first) and caches `access_token` until 5 minutes before
    /// `expires_in` runs out.
    static func fetch(_ hub: NotificationHub, _ service: PNSAdapter, authority: String, path: String,
                      form: @autoclosure () -> String, world: World, then: @escaping (Answer) -> Void) {
        let slot = service.rawValue
        if let cached = hub.pnsTokens.cached[slot], world.now < cached.expiresAt { return then(.token(cached.token)) }
        hub.pnsTokens.waiters[slot].append((world.correlation, then))
        guard hub.pnsTokens.waiters[slot].count == 1 else { return }
        let request = HTTPRequest(method: "POST", authority: authority, path: path,
                                  headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array(form().utf8))
        world.call(request, from: NotificationHub.name) { result in
            let answer: Answer
            if let r = result.response, r.status == 200, let json = try? JSONParser.parse(r.body),
               let t = json["access_token"]?.stringValue, let life = json["expires_in"]?.int64Value {
                answer = .token(t)
                hub.pnsTokens.cached[slot] = Cached(token: t, expiresAt: world.now + .seconds(max(0, life - 300)))
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
            let queued = hub.pnsTokens.waiters[slot]
            hub.pnsTokens.waiters[slot] = []
            for w in queued { world.inCorrelation(w.chain) { w.resume(answer) } }
        }
    }
}
