import PushSimKernel
import PushSimNetwork
import PushSimCrypto

/// A simulated web browser (a device of platform `browser`) with one page of PushSim's sample
/// site open and its service worker installed: the notification permission of the site's origin,
/// at most one push subscription, and what the service worker showed.
///
/// It does what a real browser does for a page that calls `pushManager.subscribe()` (W3C Push
/// API; Citations, PUSH-API):
/// 1. checks the notification permission, asking the user when it is `default`
///    (``WebNotificationPermission``); anything but `granted` rejects with `NotAllowedError`;
/// 2. asks its vendor's push service for a subscription, in the world, over `WebPushChannel`
///    (`POST /subscribe` on `webpush`, with the application server key), as a real browser asks
///    its push service over its own connection; a refusal rejects with `AbortError`;
/// 3. makes the subscription's P-256 key pair (`p256dh`) and 16-byte `auth` secret from the
///    world's seeded stream for this browser (RFC 8291 section 2), so a run is repeatable.
///
/// Pushes arrive at `/push` (see `Browser+Push.swift`): each payload is decrypted for real (RFC
/// 8291 `aes128gcm` with the subscription's private key and auth secret) and shown by the
/// service worker (``WebPushShownText``); one that cannot be decrypted is dropped and traced,
/// and the push event never fires, as in Chrome.
public final class Browser: Host {
    /// Its host name in the world, e.g. `bob-chrome`.
    public let name: String
    /// Which browser it is, which decides its push service.
    public let vendor: BrowserVendor
    /// The site's notification permission now.
    public private(set) var permission: WebNotificationPermission
    /// What the user answers when the site asks while the permission is `default`.
    public let promptAnswer: PermissionPromptAnswer
    /// The page's push subscription, nil while there is none (never subscribed, unsubscribed, or
    /// the profile was cleared).
    public internal(set) var subscription: BrowserPushSubscription?
    /// Every notification the service worker showed, in order.
    public internal(set) var inbox: [ShownNotification] = []
    /// The outcome of each `subscribe()` the page called, in order: nil when it resolved, else
    /// the `DOMException` name it rejected with (`NotAllowedError`, `AbortError`, …).
    public private(set) var subscribeOutcomes: [String?] = []

    /// The world's seeded stream for this browser's keys (`browser:<name>`).
    private var random: SeededRandom
    /// Bumped when a subscription is given up or the profile cleared, so that an answer to an
    /// earlier `subscribe()` is ignored.
    private var generation = 0
    /// Unowned: the world owns its hosts (see ``Device``).
    unowned let world: World

    /// A browser named `name` of `vendor`, with the site's permission `permission` (default
    /// `default`) and the user answering a prompt with `promptAnswer` (default allow).
    public init(world: World, name: String, vendor: BrowserVendor, permission: WebNotificationPermission = .default,
                promptAnswer: PermissionPromptAnswer = .allow) {
        self.world = world
        self.name = name
        self.vendor = vendor
        self.permission = permission
        self.promptAnswer = promptAnswer
        random = world.randomStream("browser:" + name)
        world.register(self, name: name)
    }

    /// Records a trace event of this browser (layer `browser`).
    func record(_ kind: TraceKind, _ fields: @autoclosure () -> KeyValuePairs<TraceFieldName, TraceValue> = [:]) {
        world.record(layer: "browser", host: name, kind: kind, fields())
    }

    // MARK: The page's calls

    /// `pushManager.subscribe({userVisibleOnly: true, applicationServerKey})`: see the type's
    /// steps. A page already subscribed with the same key gets its subscription back (nothing
    /// is sent); with another key the call rejects with `InvalidStateError` (W3C Push API).
    /// `then` runs with the subscription once it resolves: where the page posts it to its
    /// application server.
    public func subscribe(applicationServerKey: [UInt8], then: ((BrowserPushSubscription) -> Void)? = nil) {
        guard (try? P256PublicKey(x963Representation: applicationServerKey)) != nil, applicationServerKey.count == 65 else {
            return rejectSubscribe("InvalidAccessError", why: "the applicationServerKey is not an uncompressed P-256 public key")
        }
        if permission == .default {
            permission = promptAnswer == .allow ? .granted : .denied
            record(.browserPermissionAsked, [.permission: .string(permission.rawValue)])
        }
        guard permission == .granted else {
            return rejectSubscribe("NotAllowedError", why: "notification permission is \(permission.rawValue)")
        }
        if let subscription {
            guard subscription.applicationServerKey == applicationServerKey else {
                return rejectSubscribe("InvalidStateError", why: "already subscribed with another applicationServerKey")
            }
            subscribeOutcomes.append(nil)
            record(.browserSubscribed, [.subscriptionEndpoint: .string(subscription.label), .why: "already subscribed"])
            then?(subscription)
            return
        }
        let ask = WebPushSubscribeRequest(vendor: vendor.rawValue, applicationServerKey: Base64URL.encode(applicationServerKey))
        let request = HTTPRequest(method: "POST", authority: WebPushChannel.host, path: WebPushChannel.subscribePath, body: ask.body)
        let generation = self.generation
        world.call(request, from: name) { [self] result in
            guard generation == self.generation else { return }
            guard let r = result.response, r.status == 201, let answer = WebPushEndpointBody(body: r.body) else {
                return rejectSubscribe("AbortError", why: "the push service answered \(result.summary)")
            }
            let (key, auth) = BrowserPushSubscription.makeKeys(random: &random)
            let made = BrowserPushSubscription(endpoint: answer.endpoint, applicationServerKey: applicationServerKey,
                                               privateKey: key, authSecret: auth)
            subscription = made
            subscribeOutcomes.append(nil)
            record(.browserSubscribed, [.subscriptionEndpoint: .string(made.label)])
            then?(made)
        }
    }

    private func rejectSubscribe(_ exception: String, why: String) {
        subscribeOutcomes.append(exception)
        record(.browserSubscribeFailed, [.error: .string(exception), .why: .string(why)])
    }

    /// `PushSubscription.unsubscribe()`: the browser forgets the subscription and tells its push
    /// service (`POST /unsubscribe`), which refuses later messages to the endpoint (404 or 410,
    /// per vendor). Ignored (and traced) with no subscription.
    public func unsubscribe() {
        guard let subscription else { return record(.browserIgnored, [.action: "unsubscribe", .why: "no push subscription"]) }
        self.subscription = nil
        generation += 1
        record(.browserUnsubscribed, [.subscriptionEndpoint: .string(subscription.label)])
        let request = HTTPRequest(method: "POST", authority: WebPushChannel.host, path: WebPushChannel.unsubscribePath,
                                  body: WebPushEndpointBody(endpoint: subscription.endpoint).body())
        world.call(request, from: name) { _ in }
    }

    /// The user clears the browser's site data ("Clear browsing data" with cookies and site data,
    /// or the profile reset): the service worker, its subscription and keys, and the site's
    /// permission go (back to `default`). The push service is not told: it learns the
    /// subscription is gone when its next message finds no one holding it.
    public func clearProfile() {
        let had = subscription != nil
        subscription = nil
        permission = .default
        generation += 1
        record(.browserProfileCleared, [.why: had ? "the subscription and its keys are gone; the push service is not told" : "no subscription"])
    }

    /// The browser loses its network connection: its push service keeps messages for it.
    public func goOffline() { world.setOnline(name, false) }

    /// The browser is back online: it reconnects to its push service (`POST /connect`), which
    /// sends what it kept.
    public func goOnline() {
        world.setOnline(name, true)
        let request = HTTPRequest(method: "POST", authority: WebPushChannel.host, path: WebPushChannel.connectPath)
        world.call(request, from: name) { [self] result in record(.deviceReconnected, [.result: .string(result.summary)]) }
    }

    /// Nothing: what a browser holds is its state, not unfinished work.
    public func leftovers(world: World) -> [Leftover] { [] }
}
