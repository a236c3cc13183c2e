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
        let rendered = template.render(properties)
        var tail: String?
        if t.platform == .fcmV1 {
            guard let fcm = Self.fcmTail(rendered.body) else {
                return .failure(PNSRequestProblem(reason: "the rendered fcmv1 template has no message object", outcome: .invalidPayload))
            }
            tail = fcm
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
        let token: String?
        switch t.platform {
        case .fcmV1: token = configuration.fcm == nil ? nil : pnsTokens.cachedFCMToken(at: world.now)
        case .windows: token = configuration.wns == nil ? nil : pnsTokens.cachedWNSToken(at: world.now)
        case .apple, .gcm, .mpns: token = nil   // APNs: a provider token made locally; retired ones: none
        }
        if token == nil && (t.platform == .fcmV1 && configuration.fcm != nil || t.platform == .windows && configuration.wns != nil) {
            return .needsAccessToken(copy)
        }
        return .ready(pnsRequest(copy, n, t, accessToken: token ?? "", world: world))
    }

    /// Fetches the access token a prepared copy waits for (or waits for the fetch in progress),
    /// then builds its request.
    func fetchAccessToken(for copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, world: World,
                          then: @escaping (Result<HTTPRequest, PNSRequestProblem>) -> Void) {
        let fetched: (PNSAccessTokenCache.Answer) -> Void = { [self] answer in
            guard let token = PNSRequestProblem.token(answer, then) else { return }
            then(pnsRequest(copy, n, t, accessToken: token, world: world))
        }
        switch t.platform {
        case .fcmV1: PNSAccessTokenCache.fcmToken(self, configuration.fcm!, world: world, then: fetched)
        case .windows: PNSAccessTokenCache.wnsToken(self, configuration.wns!, world: world, then: fetched)
        case .apple, .gcm, .mpns: then(pnsRequest(copy, n, t, accessToken: "", world: world))   // no access token to fetch
        }
    }

    /// The request for one copy, given the FCM or WNS access token (ignored for APNs). The headers
    /// of a native send's copies are built once per PNS (``PNSHeaderMemo``); per copy, only the
    /// path (APNs), body (FCM) or URL (WNS) is made.
    private func pnsRequest(_ copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, accessToken token: String,
                            world: World) -> Result<HTTPRequest, PNSRequestProblem> {
        var noCredentials: PNSRequestProblem { PNSRequestProblem(reason: "the hub has no \(t.platform.rawValue) credentials") }
        func headers(credential: String, _ build: () -> HTTPHeaders) -> HTTPHeaders {
            n.properties == nil ? pnsHeaders.headers(n, t.platform, credential: credential, build: build) : build()
        }
        switch t.platform {
        case .apple:
            guard let c = configuration.apns else { return .failure(noCredentials) }
            let jwt = pnsTokens.apnsToken(c, renewal: configuration.apnsProviderTokenRenewal, world: world)
            let h = headers(credential: jwt) {
                var h = HTTPHeaders([("authorization", "bearer " + jwt), ("apns-topic", c.bundleID)])
                if !copy.headers.contains(where: { sameFieldName($0.0, "apns-push-type") }) { h.add("apns-push-type", "alert") }
                for (k, v) in copy.headers { h.add(k.lowercased(), v) }
                return h
            }
            // Tokens go in lower case (handles are usually written so already: no copy then).
            let handle = t.handle.containsByte(where: { $0 &- UInt8(ascii: "A") < 26 || $0 >= 0x80 }) ? t.handle.asciiLowercased() : t.handle
            return .success(HTTPRequest(method: "POST", authority: c.endpoint, path: String.concatenating("/3/device/", handle), headers: h, body: copy.body))
        case .fcmV1:
            guard let c = configuration.fcm else { return .failure(noCredentials) }
            guard let tail = copy.fcmMessageTail else {
                return .failure(PNSRequestProblem(reason: "the fcmv1 payload has no message object", outcome: .invalidPayload))
            }
            let h = headers(credential: token) { ["Authorization": "Bearer \(token)", "Content-Type": "application/json"] }
            return .success(HTTPRequest(method: "POST", authority: "fcm.googleapis.com", path: c.sendPath,
                                        headers: h, body: Self.fcmBody(token: t.handle, tail: tail)))
        case .windows:
            guard configuration.wns != nil else { return .failure(noCredentials) }
            let h = headers(credential: token) {
                let type = copy.headers.first(where: { sameFieldName($0.0, "x-wns-type") })?.1 ?? "wns/toast"
                var h = HTTPHeaders([("Authorization", "Bearer \(token)"),
                                     ("Content-Type", type == "wns/raw" ? "application/octet-stream" : "text/xml")])
                for (k, v) in copy.headers { h.add(k, v) }
                return h
            }
            guard let request = HTTPRequest(method: "POST", url: t.handle, headers: h, body: copy.body) else {
                return .failure(PNSRequestProblem(reason: "the channel URI is not an absolute URL", outcome: .badChannel))
            }
            return .success(request)
        case .gcm, .mpns:
            return .failure(PNSRequestProblem(reason: "\(t.platform.rawValue) is retired", outcome: .pnsError))
        }
    }

    /// `{"message":{"token":"<token>",<tail>}}`: the hub puts the target's token into the message
    /// (the sender leaves it out).
    static func fcmBody(token: String, tail: String) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(fcmBodyHead.count + token.utf8.count + tail.utf8.count + 8)
        body += fcmBodyHead
        if token.containsByte(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            var quoted = ""
            appendJSONString(token, to: &quoted)
            body.appendUTF8(quoted)
        } else { // tokens need no escapes: bytes as they are
            body.append(UInt8(ascii: "\""))
            body.appendUTF8(token)
            body.append(UInt8(ascii: "\""))
        }
        if !tail.isEmpty { body.append(UInt8(ascii: ",")) }
        body.appendUTF8(tail)
        body.append(UInt8(ascii: "}"))
        body.append(UInt8(ascii: "}"))
        return body
    }

    private static let fcmBodyHead = Array(#"{"message":{"token":"#.utf8)
}
