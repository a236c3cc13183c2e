import PushSimKernel
import PushSimNetwork

/// Why the hub could not build a request for a PNS; `retryable` when it may work later
/// (the token endpoint could not be reached). `outcome` is what telemetry counts if it gives up.
struct PNSRequestProblem: Error {
    var reason: String
    var retryable = false
    var outcome: PNSOutcome = .invalidCredentials

    /// The token in `answer`, or nil after passing the matching problem to `then`.
    static func token(_ answer: PNSAccessTokenCache.Answer,
                      _ then: (Result<HTTPRequest, PNSRequestProblem>) -> Void) -> String? {
        switch answer {
        case .token(let t): return t
        case .refused(let why): then(.failure(PNSRequestProblem(reason: why)))
        case .unavailable(let why): then(.failure(PNSRequestProblem(reason: why, retryable: true, outcome: .pnsUnreachable)))
        }
        return nil
    }

    /// The hub holds no credentials for `platform`'s service: every copy is dropped.
    static func noCredentials(_ platform: RegistrationPlatform) -> PNSRequestProblem {
        PNSRequestProblem(reason: "the hub has no \(platform.rawValue) credentials")
    }
}

/// What one copy carries: the body, the PNS headers, and (FCM v1) the message members.
struct CopyPayload {
    var body: [UInt8]
    var headers: [(String, String)]
    var fcmMessageTail: String?
}

extension NotificationHub {
    /// The payload of one copy: the sender's for a native send; for a template send the target's
    /// template rendered with the property bag, and its headers (NH-TPL).
    func copyPayload(_ n: HubNotification, _ t: SendTarget) -> Result<CopyPayload, PNSRequestProblem> {
        guard let properties = n.properties else {
            return .success(CopyPayload(body: n.payload, headers: n.forwardedHeaders, fcmMessageTail: n.fcmMessageTail))
        }
        guard let template = t.template else {
            return .failure(PNSRequestProblem(reason: "the target has no template", outcome: .invalidPayload))
        }
        let rendered: (body: [UInt8], headers: [(String, String)])
        switch template.render(properties) {
        case .failure(let problem): return .failure(problem)
        case .success(let r): rendered = r
        }
        var tail: String?
        if let adapter = t.platform.traits.adapter {
            switch adapter.renderedTemplateTail(rendered.body) {
            case .failure(let problem): return .failure(problem)
            case .success(let shared): tail = shared
            }
        }
        return .success(CopyPayload(body: rendered.body, headers: rendered.headers, fcmMessageTail: tail))
    }

    /// How far a copy's PNS request could be built without waiting: built (or refused), or
    /// waiting for an FCM or WNS access token the hub does not hold yet.
    enum PNSRequestPreparation {
        case ready(Result<HTTPRequest, PNSRequestProblem>)
        case needsAccessToken(CopyPayload)
    }

    /// Builds the PNS request for one copy now if nothing has to be fetched first (APNs, whose
    /// provider token the hub makes itself; FCM and WNS with a cached access token). A fan-out
    /// takes this path for all but its first copies, with no closure per copy.
    func preparePNSRequest(_ n: HubNotification, _ t: SendTarget, world: World) -> PNSRequestPreparation {
        let copy: CopyPayload
        switch copyPayload(n, t) {
        case .failure(let problem): return .ready(.failure(problem))
        case .success(let c): copy = c
        }
        guard let adapter = t.platform.traits.adapter else {   // retired: refused by pnsRequest
            return .ready(pnsRequest(copy, n, t, accessToken: "", world: world))
        }
        switch adapter.accessToken(self, now: world.now) {
        case .notNeeded: return .ready(adapter.request(copy, n, t, accessToken: "", hub: self, world: world))
        case .cached(let token): return .ready(adapter.request(copy, n, t, accessToken: token, hub: self, world: world))
        case .toFetch: return .needsAccessToken(copy)
        }
    }

    /// Fetches the access token a prepared copy waits for (or waits for the fetch in progress),
    /// then builds its request.
    func fetchAccessToken(for copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, world: World,
                          then: @escaping (Result<HTTPRequest, PNSRequestProblem>) -> Void) {
        guard let adapter = t.platform.traits.adapter else {   // no access token to fetch
            return then(pnsRequest(copy, n, t, accessToken: "", world: world))
        }
        adapter.fetchAccessToken(self, world: world) { [self] answer in
            guard let token = PNSRequestProblem.token(answer, then) else { return }
            then(pnsRequest(copy, n, t, accessToken: token, world: world))
        }
    }

    /// The request for one copy, built by its platform's adapter (``PNSAdapter``) with the access
    /// token (empty when none is needed); a retired platform's copies are refused.
    private func pnsRequest(_ copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, accessToken token: String,
                            world: World) -> Result<HTTPRequest, PNSRequestProblem> {
        guard let adapter = t.platform.traits.adapter else {
            return .failure(PNSRequestProblem(reason: "\(t.platform.rawValue) is retired", outcome: .pnsError))
        }
        return adapter.request(copy, n, t, accessToken: token, hub: self, world: world)
    }

    /// The headers of one copy: built by `build` for a template send (they are the target's); for
    /// a native send, built once per PNS and credential and shared by its copies
    /// (``PNSHeaderMemo``), so per copy an adapter only makes the path, body or URL.
    func copyHeaders(_ n: HubNotification, _ t: SendTarget, credential: String, build: () -> HTTPHeaders) -> HTTPHeaders {
        n.properties == nil ? pnsHeaders.headers(n, t.platform, credential: credential, build: build) : build()
    }
}
