import PushSimKernel
import PushSimNetwork

extension WebPushService {
    /// Hands `message` to its browser over `WebPushChannel`: `POST /push` on the browser's host,
    /// the endpoint as its handle, the vendor as its app, and the sender's coding headers.
    func deliver(_ message: WebPushMessage, world: World) {
        world.pushToDevice(service: Self.name, device: message.browser, handle: message.endpoint, app: message.vendor.rawValue,
                           message: message.id, headers: message.forwardedHeaders, payload: message.body,
                           replyTo: self, tag: pushes.add(message))
    }

    /// A browser answered a push (or could not be reached).
    public func receive(_ result: CallResult, tag: UInt64, world: World) {
        let message = pushes.take(tag)
        switch DeviceAnswer(result) {
        case .shown:
            registry.update(message.token) { $0.lastActiveAt = world.now }
            world.record(layer: Self.name, host: Self.name, kind: .webPushDelivered,
                         [.webPushMessageID: .string(message.id), .device: .string(message.browser)])
        case .handleGone:
            giveUp(message.token, why: "the browser no longer holds the subscription", world: world)
            world.record(layer: Self.name, host: Self.name, kind: .notificationDropped,
                         [.webPushMessageID: .string(message.id), .reason: "the browser no longer holds the subscription"])
        case .unreachable:
            keep(message, world: world)
        }
    }

    /// Keeps a message its browser could not take, until its `TTL` runs out: `TTL: 0` means now
    /// or never (RFC 8030 section 5.2; autopush drops it, WP-AUTOPUSH `routers/webpush.rs`), and a
    /// kept message with the same `Topic` gives way (section 5.4).
    func keep(_ message: WebPushMessage, world: World) {
        guard message.ttlSeconds > 0 else {
            world.record(layer: Self.name, host: Self.name, kind: .webPushExpired,
                         [.webPushMessageID: .string(message.id), .ttl: 0, .reason: "the browser is away and the TTL is 0"])
            return
        }
        guard registry[message.token]?.isLive(at: world.now) == true else {
            world.record(layer: Self.name, host: Self.name, kind: .notificationDropped,
                         [.webPushMessageID: .string(message.id), .reason: "the subscription is gone"])
            return
        }
        var store = kept[message.token] ?? WebPushOfflineStore()
        if let replaced = store.keep(message) {
            world.record(layer: Self.name, host: Self.name, kind: .webPushReplaced,
                         [.webPushMessageID: .string(replaced.id), .replacedBy: .string(message.id), .topic: .string(message.topic ?? "")])
        }
        kept[message.token] = store
        world.record(layer: Self.name, host: Self.name, kind: .webPushStored,
                     [.webPushMessageID: .string(message.id), .device: .string(message.browser), .pending: .int(store.messages.count)])
    }

    /// Sends a reconnected browser what was kept for its live subscriptions, in order; a message
    /// whose `TTL` ran out meanwhile is dropped instead (`webpush.expired`).
    func sendKept(to browser: String, world: World) {
        for subscription in registry.subscriptions(of: browser) {
            guard var store = kept.removeValue(forKey: subscription.token) else { continue }
            for message in store.drain() {
                world.inCorrelation(message.correlation) {
                    if !subscription.isLive(at: world.now) {
                        world.record(layer: Self.name, host: Self.name, kind: .notificationDropped,
                                     [.webPushMessageID: .string(message.id), .reason: "the subscription expired while the browser was away"])
                    } else if message.expiresAt <= world.now {
                        world.record(layer: Self.name, host: Self.name, kind: .webPushExpired,
                                     [.webPushMessageID: .string(message.id), .ttl: .int(message.ttlSeconds),
                                      .reason: "the TTL ran out while the browser was away"])
                    } else {
                        deliver(message, world: world)
                    }
                }
            }
        }
    }

    /// Marks the subscription named by `token` given up now, and lets go of what was kept for it.
    func giveUp(_ token: String, why: String, world: World) {
        guard let subscription = registry[token], subscription.unsubscribedAt == nil else { return }
        registry.update(token) { $0.unsubscribedAt = world.now }
        world.record(layer: Self.name, host: Self.name, kind: .webPushUnsubscribed,
                     [.webPushEndpoint: .string(subscription.label), .device: .string(subscription.browser), .why: .string(why)])
        for message in kept.removeValue(forKey: token)?.messages ?? [] {
            world.record(layer: Self.name, host: Self.name, kind: .notificationDropped,
                         [.webPushMessageID: .string(message.id), .reason: "the subscription was given up"])
        }
    }
}
