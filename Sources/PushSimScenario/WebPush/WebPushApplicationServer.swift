import PushSimKernel
import PushSimNetwork
import PushSimCrypto
import PushSimServices
import PushSimDevices

/// A site's application server in a scenario (`app-server shop`): it holds a VAPID key pair
/// (RFC 8292) made from the world's seeded stream, hands its public key to pages as their
/// `applicationServerKey`, and sends Web Push messages to browsers' subscriptions as a Web Push
/// library does (WP-PYWEBPUSH's `webpush()`, Citations §9.9): the payload encrypted for the subscription (RFC 8291
/// `aes128gcm`, a fresh sender key pair and salt per message), `TTL`, optional `Topic` and
/// `Urgency` (RFC 8030 section 5), and a VAPID `Authorization` signed with its key.
///
/// A page posts its subscription to its server once `subscribe()` resolves (``learn(_:of:)``);
/// the server keeps the last one per browser, so that after an unsubscribe or a cleared profile
/// it still sends to the old endpoint and is answered 404 or 410, as a real server is until it
/// deletes the subscription.
public final class WebPushApplicationServer: Host {
    /// Its host name in the world (and its name in the scenario).
    public let name: String
    /// The VAPID `sub` claim: a contact for the push service's operator.
    public let subject: String
    /// The VAPID key pair; its public key is the pages' `applicationServerKey`.
    public let vapidKey: P256PrivateKey
    /// Each message it posted, with its answer, in the order they ended.
    public private(set) var calls: [AppCallRecord] = []
    /// The subscriptions it learned from pages, by browser name (looked up only).
    private var known: [String: BrowserPushSubscription] = [:]
    private var random: SeededRandom
    private unowned let world: World

    /// An application server named `name` with `subject` as its VAPID contact; its keys come from
    /// the world's `app-server:<name>` stream.
    public init(world: World, name: String, subject: String = "mailto:push@example.com") {
        self.world = world
        self.name = name
        self.subject = subject
        random = world.randomStream("app-server:" + name)
        vapidKey = P256PrivateKey(drawingFrom: &random)
        world.register(self, name: name)
    }

    /// What a message says besides its text (RFC 8030 section 5).
    public struct MessageOptions: Equatable, Sendable {
        /// `TTL`, in seconds: how long the push service may keep the message for an offline browser.
        public var ttlSeconds: Int
        /// `Topic`: a newer kept message with the same topic replaces the older (section 5.4).
        public var topic: String?
        /// `Urgency`: `very-low`, `low`, `normal` or `high` (section 5.3).
        public var urgency: String?
        /// Sign the token with another key than the one `k=` names: a forged token.
        public var forged: Bool
        /// A message kept up to `ttlSeconds` (default 4 weeks, the Node `web-push` library's
        /// default; `pywebpush` sends 0 unless told: Citations §9.9).
        public init(ttlSeconds: Int = 2_419_200, topic: String? = nil, urgency: String? = nil, forged: Bool = false) {
            self.ttlSeconds = ttlSeconds; self.topic = topic; self.urgency = urgency; self.forged = forged
        }
    }

    /// What the page posts to its server once `subscribe()` resolved: `subscription` of `browser`.
    public func learn(_ subscription: BrowserPushSubscription, of browser: String) { known[browser] = subscription }

    /// Sends `text` to the last subscription of `browser` this server learned. Without any, the
    /// call is recorded as failed with no status.
    public func push(_ text: String, to browser: Browser, options: MessageOptions = MessageOptions()) {
        let sentAt = world.now
        guard let subscription = known[browser.name] else {
            world.record(layer: "site", host: name, kind: .appServerPushFailed, [.to: .string(browser.name), .why: "no subscription known"])
            return calls.append(.make(operation: .push, sentAt: sentAt, completedAt: sentAt, status: nil, failure: "no subscription known"))
        }
        guard let request = request(text, for: subscription, options: options) else {
            world.record(layer: "site", host: name, kind: .appServerPushFailed, [.to: .string(browser.name), .why: "cannot encrypt"])
            return calls.append(.make(operation: .push, sentAt: sentAt, completedAt: sentAt, status: nil, failure: "cannot encrypt"))
        }
        world.record(layer: "site", host: name, kind: .appServerPush,
                     [.to: .string(browser.name), .ttl: .int(options.ttlSeconds), .topic: .string(options.topic ?? "-"),
                      .forged: .bool(options.forged)])
        world.call(request, from: name) { [self] result in
            calls.append(.make(operation: .push, sentAt: sentAt, completedAt: world.now, status: result.status,
                               failure: result.response == nil ? result.summary : nil))
        }
    }

    /// The `POST <endpoint>` of `text` for `subscription`, or nil when its keys cannot be used.
    func request(_ text: String, for subscription: BrowserPushSubscription, options: MessageOptions) -> HTTPRequest? {
        let sender = P256PrivateKey(drawingFrom: &random)
        let salt = random.bytes(16)
        guard let p256dh = try? P256PublicKey(x963Representation: subscription.p256dh),
              let body = try? WebPushEncryption.encrypt(Array(text.utf8), userAgentPublicKey: p256dh, authSecret: subscription.authSecret,
                                                        applicationServerPrivateKey: sender, salt: salt) else { return nil }
        let expiresAt = world.anchor.unixSeconds(world.now) + 12 * 3600
        let signer = options.forged ? P256PrivateKey(drawingFrom: &random) : vapidKey
        var headers = HTTPHeaders([("TTL", String(options.ttlSeconds)), ("Content-Encoding", "aes128gcm"),
                                   ("Content-Type", "application/octet-stream"),
                                   ("Authorization", VAPIDSigner.authorization(endpoint: subscription.endpoint, signingKey: signer,
                                                                               expiresAt: expiresAt, subject: subject,
                                                                               claimedKey: vapidKey.publicKey))])
        if let topic = options.topic { headers.add("Topic", topic) }
        if let urgency = options.urgency { headers.add("Urgency", urgency) }
        return HTTPRequest(method: "POST", url: subscription.endpoint, headers: headers, body: body)
    }

    /// Not a server anything in the world calls: every request is 404.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        world.respond(to: exchange, with: HTTPResponse(status: 404))
    }

    /// Nothing: its calls are its record, not unfinished work.
    public func leftovers(world: World) -> [Leftover] { [] }
}
