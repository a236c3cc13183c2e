import PushSimKernel
import PushSimNetwork

/// How the hub talks to WNS: an access token from `login.live.com` for the package SID and secret
/// (W-OVR), requests `POST` to the channel URI with `X-WNS-Type` and the sender's `X-WNS-*`
/// headers, and answers read by status and `X-WNS-Error-Description`.
enum WNSAdapter: PNSServiceAdapter {
    static var service: PushServiceDescriptor { .wns }

    /// A native WNS send needs its `X-WNS-Type`. Copies share nothing further.
    static func readNativeSend(_ request: HTTPRequest, hub: NotificationHub) -> Result<String?, HubRefusal> {
        if request.headers["X-WNS-Type"] == nil {
            return .failure(HubRefusal(status: 400, detail: "The X-WNS-Type header is required for windows notifications."))
        }
        return .success(nil)
    }

    /// Nothing: a WNS template renders the whole payload (its headers come with the template).
    static func renderedTemplateTail(_ body: [UInt8]) -> Result<String?, PNSRequestProblem> { .success(nil) }

    /// The cached access token; none cached: fetch one. No credentials: none needed (the request
    /// is refused).
    static func accessToken(_ hub: NotificationHub, now: VirtualTime) -> PNSAccessTokenState {
        hub.pnsTokens.state(.wns, hasCredentials: hub.configuration.credentials.has(.wns), at: now)
    }

    /// The WNS access token, fetched first if needed.
    static func fetchAccessToken(_ hub: NotificationHub, world: World, then: @escaping (PNSAccessTokenCache.Answer) -> Void) {
        let c = hub.configuration.wns!
        PNSAccessTokenCache.fetch(hub, .wns, authority: "login.live.com", path: "/accesstoken.srf",
                                  form: "grant_type=client_credentials&client_id=\(percentEncode(c.packageSID))&client_secret=\(percentEncode(c.secret))&scope=notify.windows.com",
                                  world: world, then: then)
    }

    /// `POST` to the channel URI with the access token, `Content-Type` by `X-WNS-Type`
    /// (`wns/toast` unless given; `wns/raw` is octets), and the copy's headers.
    static func request(_ copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, accessToken token: String,
                        hub: NotificationHub, world: World) -> Result<HTTPRequest, PNSRequestProblem> {
        guard hub.configuration.credentials.has(.wns) else { return .failure(.noCredentials(t.platform)) }
        let h = hub.copyHeaders(n, t, credential: token) {
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
    }

    /// 410: the channel is gone; 404: never valid; 401: renew; 406 (throttled), 500, 503: retry.
    static func verdict(_ response: HTTPResponse, json: JSONValue?, retryAfter: VirtualDuration?, refusal: PNSOutcome) -> PNSVerdict {
        let status = response.status
        let detail = response.headers["X-WNS-Error-Description"] ?? ""
        switch status {
        case 200: return .accepted
        case 404, 410:
            return .deadHandle(reason: "WNS \(status) \(detail)", sinceUnixMilliseconds: nil, outcome: status == 410 ? .expiredChannel : .badChannel)
        case 401: return .renewCredentials(reason: "WNS 401")
        case 406: return .retry(reason: "WNS \(status) \(detail)", after: retryAfter, outcome: .throttled)
        case 500, 503: return .retry(reason: "WNS \(status) \(detail)", after: retryAfter, outcome: .pnsError)
        default: return .refused(reason: "WNS \(status) \(detail)", outcome: refusal)
        }
    }

    /// The `X-WNS-Msg-ID` header.
    static func messageID(_ response: HTTPResponse) -> String { response.headers["X-WNS-Msg-ID"] ?? "" }
}

/// The hub's WNS settings: the app's Package SID and secret.
public struct WNSCredential: Sendable, Equatable {
    /// `ms-app://S-1-15-2-…`, the client id of the hub's WNS token requests.
    public var packageSID: String
    /// The app's client secret.
    public var secret: String
    /// Settings for one Windows app.
    public init(packageSID: String, secret: String) { self.packageSID = packageSID; self.secret = secret }
}

extension WNSCredential: PNSCredential {
    static var adapter: PNSAdapter { .wns }
}

extension HubConfiguration {
    /// The hub's WNS credentials; nil: copies for WNS registrations are dropped.
    public var wns: WNSCredential? {
        get { credentials[WNSCredential.self] }
        set { credentials[WNSCredential.self] = newValue }
    }
}
