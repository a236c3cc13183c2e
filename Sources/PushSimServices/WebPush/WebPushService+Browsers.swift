import PushSimKernel
import PushSimNetwork
import PushSimCrypto

/// Why the service refuses a subscription.
public enum WebPushSubscribeError: Error, Equatable, Sendable {
    /// The vendor asks for an application server key and none was given (Chrome, Safari, Edge:
    /// ``WebPushVendor/requiresApplicationServerKey``).
    case applicationServerKeyRequired
    /// The key is not 65 bytes of an uncompressed P-256 point (the browser's `subscribe()` refuses
    /// it with `InvalidAccessError`, W3C Push API).
    case invalidApplicationServerKey

    /// The words of the channel's 400.
    public var message: String {
        switch self {
        case .applicationServerKeyRequired: return "this push service needs an applicationServerKey"
        case .invalidApplicationServerKey: return "the applicationServerKey is not an uncompressed P-256 public key"
        }
    }
}

extension WebPushService {
    /// Issues a new subscription for `browser` (its host name: where messages go) with `vendor`'s
    /// push service, bound to `applicationServerKey` (65 bytes, uncompressed P-256) when given.
    /// What `WebPushChannel`'s `POST /subscribe` does; tests and the control API call it directly.
    @discardableResult
    public func subscribe(browser: String, vendor: WebPushVendor, applicationServerKey: [UInt8]?,
                          world: World) -> Result<WebPushSubscription, WebPushSubscribeError> {
        if let key = applicationServerKey {
            guard key.count == 65, key[0] == 0x04, (try? P256PublicKey(x963Representation: key)) != nil else {
                return .failure(.invalidApplicationServerKey)
            }
        } else if vendor.requiresApplicationServerKey {
            return .failure(.applicationServerKeyRequired)
        }
        let (token, endpoint) = WebPushEndpoints.make(vendor, keyed: applicationServerKey != nil, random: &random)
        let subscription = WebPushSubscription(endpoint: endpoint, token: token, vendor: vendor, applicationServerKey: applicationServerKey,
                                               browser: browser, createdAt: world.now, lastActiveAt: world.now)
        registry.add(subscription)
        world.record(layer: Self.name, host: Self.name, kind: .webPushSubscribed,
                     [.vendor: .string(vendor.rawValue), .device: .string(browser), .webPushEndpoint: .string(subscription.label)])
        return .success(subscription)
    }

    /// Gives up the subscription whose endpoint is `endpoint` (`PushSubscription.unsubscribe()`):
    /// messages to it are refused as gone from now on. False for an endpoint never issued.
    @discardableResult
    public func unsubscribe(endpoint: String, world: World) -> Bool {
        guard let subscription = registry.subscription(endpoint: endpoint) else { return false }
        giveUp(subscription.token, why: "the browser unsubscribed", world: world)
        return true
    }

    /// `WebPushChannel`: `POST /subscribe`, `/unsubscribe`, `/connect` from a browser.
    func handleBrowser(_ request: HTTPRequest, exchange: Exchange, world: World) {
        func answer(_ status: Int, _ body: [UInt8] = []) {
            world.respond(to: exchange, with: HTTPResponse(status: status, headers: body.isEmpty ? [:] : ["content-type": "application/json"], body: body))
        }
        func error(_ text: String) -> [UInt8] { JSONValue.object([("error", .string(text))]).serializedBytes() }
        guard request.method == "POST" else { return answer(405) }
        switch request.path {
        case WebPushChannel.subscribePath:
            guard let ask = WebPushSubscribeRequest(body: request.body), let vendor = WebPushVendor(rawValue: ask.vendor) else {
                return answer(400, error("malformed subscribe request"))
            }
            var key: [UInt8]?
            if let text = ask.applicationServerKey {
                guard let bytes = Base64URL.decode(text) else { return answer(400, error(WebPushSubscribeError.invalidApplicationServerKey.message)) }
                key = bytes
            }
            switch subscribe(browser: exchange.caller, vendor: vendor, applicationServerKey: key, world: world) {
            case .failure(let e): answer(400, error(e.message))
            case .success(let s): answer(201, WebPushEndpointBody(endpoint: s.endpoint).body(withExpirationTime: true))
            }
        case WebPushChannel.unsubscribePath:
            guard let ask = WebPushEndpointBody(body: request.body), let s = registry.subscription(endpoint: ask.endpoint),
                  s.browser == exchange.caller else { return answer(404) }
            giveUp(s.token, why: "the browser unsubscribed", world: world)
            answer(200)
        case WebPushChannel.connectPath:
            answer(200)
            for s in registry.subscriptions(of: exchange.caller) where s.isLive(at: world.now) {
                registry.update(s.token) { $0.lastActiveAt = world.now }
            }
            sendKept(to: exchange.caller, world: world)
        default:
            answer(404)
        }
    }
}
