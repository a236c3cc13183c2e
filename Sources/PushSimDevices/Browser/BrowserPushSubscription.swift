import PushSimKernel
import PushSimNetwork
import PushSimCrypto

/// A browser's push subscription for one page, as `pushManager.subscribe()` resolves it (W3C
/// Push API, `PushSubscription`; Citations, PUSH-API): the endpoint the push service issued, and
/// the key pair and auth secret the browser made for it (RFC 8291 section 2), which never leave
/// the browser except as the public parts a page hands its application server.
public struct BrowserPushSubscription: Sendable, Equatable {
    /// The push resource URL (RFC 8030 section 4) the application server posts messages to.
    public let endpoint: String
    /// The application server's public key the page subscribed with (65 bytes, uncompressed P-256).
    public let applicationServerKey: [UInt8]
    /// The browser's P-256 key pair for this subscription; its public half is `keys.p256dh`.
    let privateKey: P256PrivateKey
    /// The 16-byte authentication secret, `keys.auth` (RFC 8291 section 3.2).
    public let authSecret: [UInt8]

    /// The endpoint as traces show it: its host and the first characters of the token it ends
    /// with (`fcm.googleapis.com/dxQ8sC1o…`).
    public var label: String {
        let rest = endpoint.dropFirst("https://".count)
        let host = rest.prefix { $0 != "/" }
        var tail = rest.split(separator: "/").last.map(String.init) ?? ""
        if let token = tail.split(separator: "=", maxSplits: 1).dropFirst().first { tail = String(token) }
        return host + "/" + shortToken(tail)
    }

    /// `keys.p256dh`: the public key, 65 bytes uncompressed (`getKey("p256dh")`).
    public var p256dh: [UInt8] { privateKey.publicKey.x963Representation }

    /// Makes the keys of a new subscription from `random` (the browser's seeded stream): a P-256
    /// key (``P256PrivateKey/init(drawingFrom:)``), then 16 bytes of auth secret. The same stream
    /// position always gives the same keys.
    static func makeKeys(random: inout SeededRandom) -> (P256PrivateKey, [UInt8]) {
        let key = P256PrivateKey(drawingFrom: &random)
        return (key, random.bytes(16))
    }

    /// `PushSubscription.toJSON()`: `{"endpoint": …, "expirationTime": null, "keys": {"p256dh": …,
    /// "auth": …}}`, keys in base64url without padding: what a page posts to its application
    /// server, and what `pywebpush` and the other Web Push libraries read.
    public var json: JSONValue {
        .object([("endpoint", .string(endpoint)), ("expirationTime", .null),
                 ("keys", .object([("p256dh", .string(Base64URL.encode(p256dh))), ("auth", .string(Base64URL.encode(authSecret)))]))])
    }

    /// Decrypts a message pushed for this subscription (RFC 8291 `aes128gcm`).
    func decrypt(_ body: [UInt8]) throws -> [UInt8] {
        try WebPushEncryption.decrypt(body, userAgentPrivateKey: privateKey, authSecret: authSecret)
    }

    /// Decrypts a message pushed in the `aesgcm` draft coding, its salt (and record size) read
    /// from `encryption` and the sender's public key from the `dh` of `cryptoKey`.
    func decryptDraft(_ body: [UInt8], encryption: String?, cryptoKey: String?) throws -> [UInt8] {
        func item(_ header: String?, _ key: String, in name: String) throws -> String {
            guard let header, let value = WebPushParameterHeader.items(header)?[key] else {
                throw CryptoError.malformedContent("no \(key) in the \(name) header")
            }
            return value
        }
        func bytes(_ text: String, _ what: String) throws -> [UInt8] {
            guard let bytes = Base64URL.decode(String(text.filter { $0 != "=" })) else {
                throw CryptoError.malformedContent("\(what) is not base64url")
            }
            return bytes
        }
        let salt = try bytes(try item(encryption, "salt", in: "Encryption"), "the salt")
        let sender = try P256PublicKey(x963Representation: try bytes(try item(cryptoKey, "dh", in: "Crypto-Key"), "dh"))
        var recordSize = DraftWebPushEncryption.defaultRecordSize
        if let rs = encryption.flatMap({ WebPushParameterHeader.items($0)?["rs"] }) {
            guard let n = Int(rs), n > 2 else { throw CryptoError.malformedContent("rs=\(rs) is not a record size") }
            recordSize = n
        }
        return try DraftWebPushEncryption.decrypt(body, userAgentPrivateKey: privateKey, authSecret: authSecret, salt: salt,
                                                  senderPublicKey: sender, recordSize: recordSize)
    }
}
