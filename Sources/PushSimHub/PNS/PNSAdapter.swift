import PushSimKernel
import PushSimNetwork

/// How the hub talks to one push service: whether a copy waits for an access token and how that
/// token is fetched, how a copy's request is built, and how the service's answer is read (its
/// verdict and its id for an accepted message). One adapter per service, each in its own file
/// (``APNsAdapter``, ``FCMAdapter``, ``WNSAdapter``, ``WebPushAdapter``); the hub reaches them through ``PNSAdapter``.
protocol PNSServiceAdapter {
    /// The push service the adapter talks to.
    static var service: PushServiceDescriptor { get }
    /// Checks a native send to this service (once per send, after its format, size and tags) and
    /// returns the part of its body every copy shares, if the service has one (FCM's message
    /// members, ``CopyPayload/fcmMessageTail``); a refusal is the send's 400.
    static func readNativeSend(_ request: HTTPRequest, hub: NotificationHub) -> Result<String?, HubRefusal>
    /// The service's headers the hub makes from a native send's own `ServiceBusNotification-*`
    /// headers (APNs' `apns-expiration` from `ServiceBusNotification-Apns-Expiry`); every copy
    /// carries them unless the send gives the header itself. A value the hub cannot read is 400.
    static func derivedHeaders(_ request: HTTPRequest) -> Result<[(String, String)], HubRefusal>
    /// The same shared part of a template rendered for one copy, if the service has one.
    static func renderedTemplateTail(_ body: [UInt8]) -> Result<String?, PNSRequestProblem>
    /// Whether a copy's request can be built now: no access token needed (or no credentials, which
    /// ``request(_:_:_:accessToken:hub:world:)`` refuses), a cached one, or one to fetch first.
    static func accessToken(_ hub: NotificationHub, now: VirtualTime) -> PNSAccessTokenState
    /// Fetches the access token (or waits for the fetch in progress); called only after
    /// ``accessToken(_:now:)`` said `.toFetch`.
    static func fetchAccessToken(_ hub: NotificationHub, world: World, then: @escaping (PNSAccessTokenCache.Answer) -> Void)
    /// The request for one copy, given the access token (empty when none is needed).
    static func request(_ copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, accessToken: String,
                        hub: NotificationHub, world: World) -> Result<HTTPRequest, PNSRequestProblem>
    /// What an answer other than 200 means. `json` is its body parsed (nil if not JSON),
    /// `retryAfter` its `Retry-After`, `refusal` the outcome of a refusal the adapter has no
    /// better word for (400 and 413 `InvalidPayload`, 403 `InvalidCredentials`, else `PnsError`).
    static func verdict(_ response: HTTPResponse, json: JSONValue?, retryAfter: VirtualDuration?, refusal: PNSOutcome) -> PNSVerdict
    /// The service's id for an accepted message, from its 200 answer.
    static func messageID(_ response: HTTPResponse) -> String
}

extension PNSServiceAdapter {
    /// None, for a service whose sends carry no such header.
    static func derivedHeaders(_ request: HTTPRequest) -> Result<[(String, String)], HubRefusal> { .success([]) }
}

/// Whether a copy's access token is at hand (see ``PNSServiceAdapter/accessToken(_:now:)``).
enum PNSAccessTokenState {
    /// None is needed (APNs makes its provider token itself), or the hub has no credentials.
    case notNeeded
    /// A cached token, still good.
    case cached(String)
    /// A token must be fetched first.
    case toFetch
}

/// The hub's adapters, one case per push service, chosen by ``RegistrationPlatform``'s table.
/// Static dispatch: each operation is one switch here calling the adapter's static function, so a
/// copy costs no existential and no closure. Its raw value is the service's slot in
/// ``PNSAccessTokenCache``.
enum PNSAdapter: Int, CaseIterable {
    case apns, fcm, wns, webPush

    /// The push service it talks to.
    var service: PushServiceDescriptor {
        switch self {
        case .apns: return APNsAdapter.service
        case .fcm: return FCMAdapter.service
        case .wns: return WNSAdapter.service
        case .webPush: return WebPushAdapter.service
        }
    }

    /// See ``PNSServiceAdapter/readNativeSend(_:hub:)``.
    func readNativeSend(_ request: HTTPRequest, hub: NotificationHub) -> Result<String?, HubRefusal> {
        switch self {
        case .apns: return APNsAdapter.readNativeSend(request, hub: hub)
        case .fcm: return FCMAdapter.readNativeSend(request, hub: hub)
        case .wns: return WNSAdapter.readNativeSend(request, hub: hub)
        case .webPush: return WebPushAdapter.readNativeSend(request, hub: hub)
        }
    }

    /// See ``PNSServiceAdapter/derivedHeaders(_:)``.
    func derivedHeaders(_ request: HTTPRequest) -> Result<[(String, String)], HubRefusal> {
        switch self {
        case .apns: return APNsAdapter.derivedHeaders(request)
        case .fcm: return FCMAdapter.derivedHeaders(request)
        case .wns: return WNSAdapter.derivedHeaders(request)
        case .webPush: return WebPushAdapter.derivedHeaders(request)
        }
    }

    /// See ``PNSServiceAdapter/renderedTemplateTail(_:)``.
    func renderedTemplateTail(_ body: [UInt8]) -> Result<String?, PNSRequestProblem> {
        switch self {
        case .apns: return APNsAdapter.renderedTemplateTail(body)
        case .fcm: return FCMAdapter.renderedTemplateTail(body)
        case .wns: return WNSAdapter.renderedTemplateTail(body)
        case .webPush: return WebPushAdapter.renderedTemplateTail(body)
        }
    }

    /// See ``PNSServiceAdapter/accessToken(_:now:)``.
    func accessToken(_ hub: NotificationHub, now: VirtualTime) -> PNSAccessTokenState {
        switch self {
        case .apns: return APNsAdapter.accessToken(hub, now: now)
        case .fcm: return FCMAdapter.accessToken(hub, now: now)
        case .wns: return WNSAdapter.accessToken(hub, now: now)
        case .webPush: return WebPushAdapter.accessToken(hub, now: now)
        }
    }

    /// See ``PNSServiceAdapter/fetchAccessToken(_:world:then:)``.
    func fetchAccessToken(_ hub: NotificationHub, world: World, then: @escaping (PNSAccessTokenCache.Answer) -> Void) {
        switch self {
        case .apns: APNsAdapter.fetchAccessToken(hub, world: world, then: then)
        case .fcm: FCMAdapter.fetchAccessToken(hub, world: world, then: then)
        case .wns: WNSAdapter.fetchAccessToken(hub, world: world, then: then)
        case .webPush: WebPushAdapter.fetchAccessToken(hub, world: world, then: then)
        }
    }

    /// See ``PNSServiceAdapter/request(_:_:_:accessToken:hub:world:)``.
    func request(_ copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, accessToken: String,
                 hub: NotificationHub, world: World) -> Result<HTTPRequest, PNSRequestProblem> {
        switch self {
        case .apns: return APNsAdapter.request(copy, n, t, accessToken: accessToken, hub: hub, world: world)
        case .fcm: return FCMAdapter.request(copy, n, t, accessToken: accessToken, hub: hub, world: world)
        case .wns: return WNSAdapter.request(copy, n, t, accessToken: accessToken, hub: hub, world: world)
        case .webPush: return WebPushAdapter.request(copy, n, t, accessToken: accessToken, hub: hub, world: world)
        }
    }

    /// See ``PNSServiceAdapter/verdict(_:json:retryAfter:refusal:)``.
    func verdict(_ response: HTTPResponse, json: JSONValue?, retryAfter: VirtualDuration?, refusal: PNSOutcome) -> PNSVerdict {
        switch self {
        case .apns: return APNsAdapter.verdict(response, json: json, retryAfter: retryAfter, refusal: refusal)
        case .fcm: return FCMAdapter.verdict(response, json: json, retryAfter: retryAfter, refusal: refusal)
        case .wns: return WNSAdapter.verdict(response, json: json, retryAfter: retryAfter, refusal: refusal)
        case .webPush: return WebPushAdapter.verdict(response, json: json, retryAfter: retryAfter, refusal: refusal)
        }
    }

    /// See ``PNSServiceAdapter/messageID(_:)``.
    func messageID(_ response: HTTPResponse) -> String {
        switch self {
        case .apns: return APNsAdapter.messageID(response)
        case .fcm: return FCMAdapter.messageID(response)
        case .wns: return WNSAdapter.messageID(response)
        case .webPush: return WebPushAdapter.messageID(response)
        }
    }
}
