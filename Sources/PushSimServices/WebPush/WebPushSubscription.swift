import PushSimKernel
import PushSimNetwork

/// One push subscription as the push service keeps it (RFC 8030 section 4; W3C Push API): the
/// endpoint it handed out, whose browser it is, the application server key it was made with,
/// and whether it still works.
///
/// The browser's own half of the subscription, its P-256 `p256dh` key and 16-byte `auth` secret
/// (RFC 8291 section 2), never reaches the push service: the browser keeps them to decrypt what
/// arrives, and a page hands them to its application server along with ``endpoint``.
public struct WebPushSubscription: Sendable, Equatable {
    /// The push resource URL the browser hands out (`PushSubscription.endpoint`).
    public let endpoint: String
    /// The part of ``endpoint`` that names the subscription to the service.
    public let token: String
    /// Whose push service issued it.
    public let vendor: WebPushVendor
    /// The application server key the page passed to `subscribe()`: 65 bytes, an uncompressed
    /// P-256 point; nil for a Firefox subscription made without one (a `v1` endpoint).
    public let applicationServerKey: [UInt8]?
    /// The host name of the browser that subscribed: where messages are pushed.
    public let browser: String
    /// When the service issued it.
    public let createdAt: VirtualTime
    /// The last sign of life: subscribed, the browser reconnected, or a message was delivered.
    public internal(set) var lastActiveAt: VirtualTime
    /// When the browser gave it up (`unsubscribe()`, permission revoked), if it did.
    public internal(set) var unsubscribedAt: VirtualTime?

    /// When the service forgets it for want of its browser (``WebPushVendor/inactivityLimit``),
    /// counted from the last sign of life; nil for never.
    public var expiresAt: VirtualTime? { vendor.inactivityLimit.map { lastActiveAt + $0 } }

    /// Whether it still takes messages at `time`: not given up and not expired.
    public func isLive(at time: VirtualTime) -> Bool { unsubscribedAt == nil && !hasExpired(at: time) }

    /// The endpoint as traces show it: its host and the token's first characters
    /// (`web.push.apple.com/QAMi-nVK…`).
    public var label: String {
        let host = endpoint.dropFirst("https://".count).prefix { $0 != "/" }
        return host + "/" + shortToken(token)
    }

    /// Whether it expired for want of its browser by `time`.
    public func hasExpired(at time: VirtualTime) -> Bool { expiresAt.map { time >= $0 } ?? false }
}

/// The subscriptions a service has issued, in the order issued, found by token. Given-up and
/// expired ones are kept, so that later messages to them get the vendor's "gone" answer.
struct WebPushRegistry {
    private(set) var all: [WebPushSubscription] = []
    private var indexByToken: [String: Int] = [:]   // looked up only, never iterated

    /// The subscription named by `token` (as its vendor's endpoint carries it), if issued.
    subscript(token: String) -> WebPushSubscription? { indexByToken[token].map { all[$0] } }

    /// Keeps a new subscription.
    mutating func add(_ subscription: WebPushSubscription) {
        indexByToken[subscription.token] = all.count
        all.append(subscription)
    }

    /// Changes the subscription named by `token`, if issued.
    mutating func update(_ token: String, _ change: (inout WebPushSubscription) -> Void) {
        guard let i = indexByToken[token] else { return }
        change(&all[i])
    }

    /// The subscription whose endpoint is `endpoint`, if issued.
    func subscription(endpoint: String) -> WebPushSubscription? { all.first { $0.endpoint == endpoint } }

    /// Subscriptions of `browser`, in the order issued.
    func subscriptions(of browser: String) -> [WebPushSubscription] { all.filter { $0.browser == browser } }
}
