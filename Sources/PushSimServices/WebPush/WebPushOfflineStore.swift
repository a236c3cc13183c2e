import PushSimKernel

/// One accepted message, on its way to a browser or kept for one.
struct WebPushMessage: Equatable {
    /// The vendor's id for it.
    var id: String
    /// The subscription it is for (its token).
    var token: String
    /// The subscription's endpoint, handed to the browser with the message.
    var endpoint: String
    /// Whose service took it.
    var vendor: WebPushVendor
    /// The browser to hand it to.
    var browser: String
    /// The `TTL` honoured, in seconds.
    var ttlSeconds: Int64
    /// Its `Topic`, if any.
    var topic: String?
    /// The headers the browser needs to decrypt it: `Content-Encoding` (and `Encryption`,
    /// `Crypto-Key` for `aesgcm`), as sent.
    var forwardedHeaders: [(String, String)]
    /// The encrypted body, untouched.
    var body: [UInt8]
    /// When the `TTL` runs out.
    var expiresAt: VirtualTime
    /// The causal chain of the send, resumed when a kept message goes out.
    var correlation: String

    static func == (a: WebPushMessage, b: WebPushMessage) -> Bool { a.id == b.id }
}

/// The messages kept for one subscription while its browser is away (RFC 8030 section 5: a push
/// service stores a message until its `TTL` runs out or the user agent comes back), in the order
/// accepted. A message with a `Topic` replaces a kept one with the same topic (section 5.4; autopush
/// documents it, WP-AUTOPUSH-DOCS; Apple "coalesces" them, WP-APPLE). No count limit is modelled:
/// Apple says only that the number kept is limited, the others say nothing.
struct WebPushOfflineStore {
    private(set) var messages: [WebPushMessage] = []

    /// Keeps `message`; returns the kept message it replaced (same topic), if any.
    mutating func keep(_ message: WebPushMessage) -> WebPushMessage? {
        var replaced: WebPushMessage?
        if let topic = message.topic, let i = messages.firstIndex(where: { $0.topic == topic }) {
            replaced = messages.remove(at: i)
        }
        messages.append(message)
        return replaced
    }

    /// Takes every kept message out, in order.
    mutating func drain() -> [WebPushMessage] {
        defer { messages = [] }
        return messages
    }
}
