import PushSimKernel
import PushSimNetwork
import PushSimServices

/// The control API's Web Push operations: what a browser would do, for an application server
/// under test (pywebpush, web-push) to have endpoints to post to without a browser (see
/// `ControlAPI+Browsers.swift` for simulated ones). A message to a subscription whose browser is
/// no host of the world is kept for it, as for a browser that is away, until its `TTL` runs out.
///
/// | Request | Does |
/// |---|---|
/// | `POST /_pushsim/webpush/subscriptions {"vendor":"chrome"\|"firefox"\|"safari"\|"edge","applicationServerKey":<base64url>?,"browser":<name>?}` | 201: a new subscription: `endpoint`, `vendor`, `browser`, `expirationTime` (null) |
/// | `GET /_pushsim/webpush/subscriptions` | every subscription: endpoint, vendor, browser, live, the ids of the messages kept for it |
/// | `DELETE /_pushsim/webpush/subscriptions?endpoint=<endpoint>` | the browser unsubscribes: later messages get the vendor's "gone" |
///
/// An endpoint names the vendor's real host (`https://updates.push.services.mozilla.com/…`): post
/// to it through the server with that `Host` header, or to the server's own URL with the same
/// path (`WebPushService.loopbackHost`); either way the VAPID `aud` must be the real origin.
extension ControlAPI {
    func webPush(_ request: WireRequest, query: [(String, String)]) -> HTTPResponse {
        let service = state.simulation.webPush
        switch request.method {
        case "POST":
            let body: JSONValue
            switch Self.jsonBody(request) {
            case .failure(let refusal): return refusal.response
            case .success(let b): body = b
            }
            guard let vendor = body["vendor"]?.stringValue.flatMap(WebPushVendor.init(rawValue:)) else {
                return ServerAnswer.error(400, "A subscription needs a \"vendor\": chrome, firefox, safari or edge.")
            }
            var key: [UInt8]?
            if let text = body["applicationServerKey"]?.stringValue {
                guard let bytes = Base64URL.decode(text) else { return ServerAnswer.error(400, "\"applicationServerKey\" is not base64url.") }
                key = bytes
            }
            let browser = body["browser"]?.stringValue ?? "browser"
            switch service.subscribe(browser: browser, vendor: vendor, applicationServerKey: key, world: state.world) {
            case .failure(let e): return ServerAnswer.error(400, e.message)
            case .success(let s): return ServerAnswer.json(201, subscriptionJSON(s, service: service))
            }
        case "GET":
            return ServerAnswer.json(200, .object([("subscriptions", .array(service.subscriptions.map { subscriptionJSON($0, service: service) }))]))
        case "DELETE":
            guard let endpoint = query.first(where: { $0.0 == "endpoint" })?.1 else {
                return ServerAnswer.error(400, "Name the subscription: ?endpoint=<its endpoint, percent-encoded>.")
            }
            guard service.unsubscribe(endpoint: endpoint, world: state.world) else {
                return ServerAnswer.error(404, "No subscription has the endpoint '\(endpoint)'.")
            }
            return ServerAnswer.json(200, .object([("unsubscribed", .string(endpoint))]))
        default:
            return ServerAnswer.error(405, "\(request.method) is not allowed on \(request.path); use POST, GET or DELETE.")
        }
    }

    private func subscriptionJSON(_ s: WebPushSubscription, service: WebPushService) -> JSONValue {
        .object([("endpoint", .string(s.endpoint)), ("vendor", .string(s.vendor.rawValue)), ("browser", .string(s.browser)),
                 ("expirationTime", .null), ("live", .bool(s.isLive(at: state.world.now))),
                 ("kept", .array(service.keptMessageIDs(endpoint: s.endpoint).map(JSONValue.string)))])
    }
}
