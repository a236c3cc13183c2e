import PushSimKernel

/// The link between the Web Push service and the browsers it serves: how a browser subscribes,
/// unsubscribes and reconnects, and how the service hands it a message. It lives in the network
/// layer, below both, as ``DeviceChannel`` does for the native services, so that browsers and the
/// push service meet only here and on the wire.
///
/// A real browser reaches its vendor's push service over a private connection (Chrome and Edge
/// through their operating system's push channel, Firefox over autopush's WebSocket, Safari through
/// APNs). PushSim replaces them all with one small HTTP-shaped protocol on the service's own host
/// name, ``host``, so that the push protocol an application server speaks (RFC 8030) stays exactly
/// the public one:
///
/// | request (browser → service) | body | answer |
/// |---|---|---|
/// | `POST /subscribe` | `{"vendor": "chrome"\|"firefox"\|"safari"\|"edge", "applicationServerKey": <base64url 65-byte key> or absent}` | `201 {"endpoint": …, "expirationTime": null}`; `400 {"error": …}` |
/// | `POST /unsubscribe` | `{"endpoint": …}` | `200`; `404` for an endpoint the service does not know |
/// | `POST /connect` | – | `200`; the service then sends what it kept for this browser |
///
/// | request (service → browser) | headers | answer |
/// |---|---|---|
/// | `POST /push` | `x-pushsim-service: webpush`, `x-pushsim-handle: <endpoint>`, `x-pushsim-app: <vendor>`, `x-pushsim-message: <message id>`, and the sender's `Content-Encoding` (and `Encryption`, `Crypto-Key` for `aesgcm`); body = the encrypted payload, untouched | `200` handed to the service worker; `410` the browser no longer holds this subscription |
///
/// The caller's host name is the browser: the service pushes to the host that subscribed. The
/// p256dh key and auth secret a page reads from `PushSubscription.getKey()` stay in the browser,
/// which needs them to decrypt; the service never sees them (RFC 8291 section 2).
package enum WebPushChannel {
    /// The service's host name in the world, where browsers subscribe: `webpush`.
    public static let host = "webpush"
    /// Where a browser subscribes: `POST /subscribe`.
    public static let subscribePath = "/subscribe"
    /// Where a browser gives a subscription up: `POST /unsubscribe`.
    public static let unsubscribePath = "/unsubscribe"
    /// Where a browser reconnects: `POST /connect`; the service then sends what it kept for it.
    public static let connectPath = "/connect"
    /// The name in `x-pushsim-service` of the service's pushes: `webpush`.
    public static let serviceName = "webpush"
}

/// A browser's `POST /subscribe`: which vendor's push service it uses, and the application
/// server key the page passed to `pushManager.subscribe()` (W3C Push API; RFC 8292 section 3.2).
package struct WebPushSubscribeRequest: Sendable, Equatable {
    /// `chrome`, `firefox`, `safari` or `edge`.
    public var vendor: String
    /// The application server's public key, base64url (65 bytes, uncompressed P-256), or nil
    /// when the page gave none.
    public var applicationServerKey: String?

    /// A request for `vendor`, bound to `applicationServerKey` when there is one.
    public init(vendor: String, applicationServerKey: String?) {
        self.vendor = vendor
        self.applicationServerKey = applicationServerKey
    }

    /// Reads a body: nil unless it is a JSON object with a string `vendor`; an
    /// `applicationServerKey` that is not a string counts as absent.
    public init?(body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), let vendor = json["vendor"]?.stringValue else { return nil }
        self.init(vendor: vendor, applicationServerKey: json["applicationServerKey"]?.stringValue)
    }

    /// The JSON body: `{"vendor":…}` and, when there is a key, `"applicationServerKey":…`.
    public var body: [UInt8] {
        var members: [(String, JSONValue)] = [("vendor", .string(vendor))]
        if let applicationServerKey { members.append(("applicationServerKey", .string(applicationServerKey))) }
        return JSONValue.object(members).serializedBytes()
    }
}

/// The service's answer to a subscribe, or a browser's `POST /unsubscribe`: the endpoint, as
/// `PushSubscription.endpoint` holds it.
package struct WebPushEndpointBody: Sendable, Equatable {
    /// The push resource URL an application server posts messages to (RFC 8030 section 4).
    public var endpoint: String

    /// The body naming `endpoint`.
    public init(endpoint: String) { self.endpoint = endpoint }

    /// Reads `{"endpoint": …}`; nil unless `endpoint` is a string.
    public init?(body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), let endpoint = json["endpoint"]?.stringValue else { return nil }
        self.endpoint = endpoint
    }

    /// `{"endpoint":…}`, or with `"expirationTime":null` as a subscribe's answer (the W3C
    /// `PushSubscriptionJSON` members a page reads).
    public func body(withExpirationTime: Bool = false) -> [UInt8] {
        var members: [(String, JSONValue)] = [("endpoint", .string(endpoint))]
        if withExpirationTime { members.append(("expirationTime", .null)) }
        return JSONValue.object(members).serializedBytes()
    }
}
