import PushSimKernel
import PushSimCrypto
import PushSimNetwork
import PushSimServices

/// What the crypto toolkit reads from strangers: a Web Push message body (RFC 8291's
/// `aes128gcm`, which a browser decrypts), a VAPID `Authorization` header (RFC 8292, which every
/// push service verifies), and the key files and objects a user hands `pushsim serve` (PEM,
/// PKCS#8, SubjectPublicKeyInfo, JWK). A malformed one must be refused with an error, never
/// crash; a key that reads must be written back and read again to the same key.
public enum CryptoSurfaces {
    /// The browser's side of the `aes128gcm` corpus: its key pair and auth secret, fixed.
    static let browser = (key: try! P256PrivateKey(derivedFrom: Array("fuzz browser".utf8)),
                          auth: Array("sixteen-byte-key".utf8))
    /// The application server's VAPID and encryption key, fixed.
    static let server = try! P256PrivateKey(derivedFrom: Array("fuzz application server".utf8))

    /// Bytes into `WebPushEncryption.decrypt` with the fixed browser's keys: the header (salt,
    /// record size, key id), the sender's point, the record and its tag. A browser drops what it
    /// cannot decrypt (the push event never fires).
    public static let aes128gcm = FuzzSurface(
        name: "aes128gcm", summary: "bytes into WebPushEncryption.decrypt, as a browser decrypts a push (RFC 8291; refused, never a crash)",
        corpus: [
            try! WebPushEncryption.encrypt(Array(#"{"title":"Score","body":"2-1"}"#.utf8), userAgentPublicKey: browser.key.publicKey,
                                           authSecret: browser.auth, applicationServerPrivateKey: server, salt: Array("salt-sixteen-byt".utf8)),
            try! WebPushEncryption.encrypt([], userAgentPublicKey: browser.key.publicKey, authSecret: browser.auth,
                                           applicationServerPrivateKey: server, salt: Array(repeating: 7, count: 16), recordSize: 18,
                                           paddingLength: 1),
        ]) { bytes in
        do {
            let plaintext = try WebPushEncryption.decrypt(bytes, userAgentPrivateKey: browser.key, authSecret: browser.auth)
            return plaintext.isEmpty ? "ok-empty" : "ok"
        } catch {
            return "refused:" + CodecSurfaces.errorKind("\(error)")
        }
    }

    /// The origin and instant the `vapid` surface's tokens are judged at.
    static let vapidOrigin = "https://updates.push.services.mozilla.com"
    static let vapidNow: Int64 = 1_767_225_600

    /// A token for the corpus, signed with ``server``.
    static func vapidToken(_ claims: [(String, JSONValue)]) -> String {
        JSONWebToken.make(header: .object([("typ", .string("JWT")), ("alg", .string("ES256"))]), claims: .object(claims), signingKey: server)
    }

    /// Text into `VAPIDAuthorization.read` and `VAPIDVerification.verify`: the first line is the
    /// `Authorization` value, a second line the `Crypto-Key` value (the drafts' form). Judged as
    /// autopush judges (60 s of leeway) and with the subject checked, as Apple checks it.
    public static let vapid = FuzzSurface(
        name: "vapid", summary: "Authorization (and Crypto-Key) text into the VAPID reader and ES256 verification (RFC 8292: 401/403 when refused)",
        corpus: [
            "vapid t=\(vapidToken([("aud", .string(vapidOrigin)), ("exp", .number(JSONNumber(vapidNow + 3_600))), ("sub", .string("mailto:ops@example.com"))])), k=\(Base64URL.encode(server.publicKey.x963Representation))",
            "WebPush \(vapidToken([("aud", .string(vapidOrigin)), ("exp", .number(JSONNumber(vapidNow + 90_000)))]))\np256ecdsa=\(Base64URL.encode(server.publicKey.x963Representation))",
            "vapid t=a.b.c; k=BAAA",
        ].map { Array($0.utf8) },
        prefersText: true) { bytes in
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        var headers = HTTPHeaders([("Authorization", String(lines[0]))])
        if lines.count > 1 { headers.add("Crypto-Key", String(lines[1])) }
        switch VAPIDAuthorization.read(headers) {
        case .failure(let problem): return "unread:\(problem)"
        case .success(let authorization):
            let verifier = VAPIDVerification(origin: vapidOrigin, now: vapidNow, expiryLeeway: 60, judgesSubject: true)
            switch verifier.verify(authorization) {
            case .success: return "verified"
            case .failure(let failure): return "refused:" + outcomeLabel("\(failure)")
            }
        }
    }

    /// Text into the key readers `pushsim serve` uses for a user's keys: a JSON object as a JWK,
    /// PEM text as a private key (PKCS#8, SEC 1, PKCS#1) or a public one (SubjectPublicKeyInfo),
    /// anything else as DER of either. What reads is written again and must read to the same key.
    public static let keys = FuzzSurface(
        name: "keys", summary: "PEM, DER and JWK text into the key readers (serve's registered keys: 400 naming the field)",
        corpus: [
            AsymmetricPrivateKey.p256(server).pkcs8PEMRepresentation,
            AsymmetricPublicKey.p256(server.publicKey).pemRepresentation,
            #"{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(server.publicKey.x))","y":"\#(Base64URL.encode(server.publicKey.y))"}"#,
            #"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#,
        ].map { Array($0.utf8) },
        prefersText: true) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("{") {
            guard let object = try? JSONParser.parse(bytes), let members = object.objectMembers else { return "jwk:not-json" }
            let strings = Dictionary(members.compactMap { name, value in value.stringValue.map { (name, $0) } }, uniquingKeysWith: { first, _ in first })
            do { return "jwk:" + roundTrip(try AsymmetricPublicKey(jwkMembers: strings)) } catch { return "jwk:refused:" + CodecSurfaces.errorKind("\(error)") }
        }
        if text.contains("-----BEGIN") {
            if let key = try? AsymmetricPrivateKey(pem: text) { return "pem:private:" + roundTrip(key) }
            do { return "pem:public:" + roundTrip(try AsymmetricPublicKey(pem: text)) } catch { return "pem:refused:" + CodecSurfaces.errorKind("\(error)") }
        }
        if let key = try? AsymmetricPrivateKey(pkcs8: bytes) { return "der:private:" + roundTrip(key) }
        do { return "der:public:" + roundTrip(try AsymmetricPublicKey(subjectPublicKeyInfo: bytes)) } catch { return "der:refused:" + CodecSurfaces.errorKind("\(error)") }
    }

    /// `ok` when `key` written as PEM reads back to itself.
    static func roundTrip(_ key: AsymmetricPrivateKey) -> String {
        (try? AsymmetricPrivateKey(pem: key.pkcs8PEMRepresentation)) == key ? kind(key.publicKey) : "roundtrip-differs"
    }

    /// `ok` when `key` written as PEM reads back to itself.
    static func roundTrip(_ key: AsymmetricPublicKey) -> String {
        (try? AsymmetricPublicKey(pem: key.pemRepresentation)) == key ? kind(key) : "roundtrip-differs"
    }

    static func kind(_ key: AsymmetricPublicKey) -> String {
        switch key {
        case .p256: return "p256"
        case .rsa: return "rsa"
        }
    }
}
