/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188), as a
/// push message body carries it: one record, the application server's public key in the header.
///
/// ```
/// header   = salt (16) || rs (uint32) || idlen (1) = 65 || keyid = as_public (65 bytes)
/// record   = AES-128-GCM(CEK, NONCE, plaintext || 0x02 || zero padding) || tag (16)
/// ecdh     = ECDH(ua_private, as_public)  =  ECDH(as_private, ua_public)
/// IKM      = HKDF(salt: auth_secret, ikm: ecdh, info: "WebPush: info" || 0x00 || ua_public || as_public, 32)
/// CEK      = HKDF(salt: salt, ikm: IKM, info: "Content-Encoding: aes128gcm" || 0x00, 16)
/// NONCE    = HKDF(salt: salt, ikm: IKM, info: "Content-Encoding: nonce" || 0x00, 12)
/// ```
///
/// The sender's key pair and salt are the caller's (random in real life; chosen, and so
/// deterministic, in the simulation).
public enum WebPushEncryption {
    /// The header's fixed part: salt, record size and key id length.
    static let fixedHeaderLength = 21
    /// RFC 8188, 2: a record size below 18 is invalid (one byte of content, the delimiter, the tag).
    static let minimumRecordSize: UInt32 = 18

    /// The content key and nonce of one message (RFC 8291, 3.3–3.4; RFC 8188, 2.2–2.3).
    struct ContentKeys: Equatable {
        let inputKeyingMaterial: [UInt8]
        let contentEncryptionKey: [UInt8]
        let nonce: [UInt8]
    }

    /// Derives the keys from the ECDH secret, the subscription's auth secret, both public keys and the salt.
    static func contentKeys(sharedSecret: [UInt8], authSecret: [UInt8], userAgentPublicKey: P256PublicKey,
                            applicationServerPublicKey: P256PublicKey, salt: [UInt8]) throws -> ContentKeys {
        let keyInfo = Array("WebPush: info".utf8) + [0x00] + userAgentPublicKey.x963Representation
            + applicationServerPublicKey.x963Representation
        let ikm = try HKDF.deriveKey(inputKeyingMaterial: sharedSecret, salt: authSecret, info: keyInfo, length: 32)
        let prk = HKDF.extract(salt: salt, inputKeyingMaterial: ikm)
        return ContentKeys(inputKeyingMaterial: ikm,
                           contentEncryptionKey: try HKDF.expand(pseudorandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0x00], length: 16),
                           nonce: try HKDF.expand(pseudorandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0x00], length: 12))
    }

    /// Decrypts a push message body as the user agent does (RFC 8291, 3.4 and 4): reads the
    /// header, derives the keys with the subscription's private key and 16-byte auth secret,
    /// opens the one record, checks and strips the padding (its delimiter must be 0x02).
    public static func decrypt(_ body: [UInt8], userAgentPrivateKey: P256PrivateKey, authSecret: [UInt8]) throws -> [UInt8] {
        guard authSecret.count == 16 else { throw CryptoError.invalidLength("a Web Push auth secret is 16 bytes, not \(authSecret.count)") }
        guard body.count >= fixedHeaderLength else {
            throw CryptoError.malformedContent("\(body.count) bytes is shorter than the 21-byte header")
        }
        let salt = Array(body[0..<16])
        let recordSize = body[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let keyIDLength = Int(body[20])
        guard recordSize >= minimumRecordSize else { throw CryptoError.malformedContent("a record size of \(recordSize) (at least 18)") }
        guard keyIDLength == 65 else {
            throw CryptoError.malformedContent("the key id is the sender's 65-byte public key, not \(keyIDLength) bytes (RFC 8291, 4)")
        }
        guard body.count >= fixedHeaderLength + keyIDLength + 17 else {
            throw CryptoError.malformedContent("no record after the header (at least a delimiter and a 16-byte tag)")
        }
        let senderKey = try P256PublicKey(x963Representation: Array(body[21..<86]))
        let record = Array(body[86...])
        guard record.count <= Int(recordSize) else {
            throw CryptoError.malformedContent("a \(record.count)-byte record is more than one record of \(recordSize) (RFC 8291, 4: one record)")
        }
        let keys = try contentKeys(sharedSecret: try userAgentPrivateKey.sharedSecret(with: senderKey), authSecret: authSecret,
                                   userAgentPublicKey: userAgentPrivateKey.publicKey, applicationServerPublicKey: senderKey, salt: salt)
        let padded = try AES128GCM(key: keys.contentEncryptionKey)
            .open(Array(record.dropLast(16)), tag: Array(record.suffix(16)), nonce: keys.nonce)
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }) else {
            throw CryptoError.malformedContent("the record is all padding, with no delimiter")
        }
        guard padded[delimiter] == 0x02 else {
            throw CryptoError.malformedContent("the padding delimiter is 0x\(String(padded[delimiter], radix: 16)), not 0x02 (RFC 8291, 4)")
        }
        return Array(padded[..<delimiter])
    }

    /// Encrypts `plaintext` as the application server does (RFC 8291, 3), with its key pair and
    /// salt given, `paddingLength` zero bytes after the delimiter, one record of `recordSize`.
    public static func encrypt(_ plaintext: [UInt8], userAgentPublicKey: P256PublicKey, authSecret: [UInt8],
                               applicationServerPrivateKey: P256PrivateKey, salt: [UInt8],
                               recordSize: UInt32 = 4096, paddingLength: Int = 0) throws -> [UInt8] {
        guard authSecret.count == 16 else { throw CryptoError.invalidLength("a Web Push auth secret is 16 bytes, not \(authSecret.count)") }
        guard salt.count == 16 else { throw CryptoError.invalidLength("an aes128gcm salt is 16 bytes, not \(salt.count)") }
        guard paddingLength >= 0, plaintext.count + 1 + paddingLength + 16 <= Int(recordSize), recordSize >= minimumRecordSize else {
            throw CryptoError.invalidLength("the plaintext, delimiter, padding and tag do not fit one record of \(recordSize) bytes")
        }
        let senderKey = applicationServerPrivateKey.publicKey
        let keys = try contentKeys(sharedSecret: try applicationServerPrivateKey.sharedSecret(with: userAgentPublicKey), authSecret: authSecret,
                                   userAgentPublicKey: userAgentPublicKey, applicationServerPublicKey: senderKey, salt: salt)
        let sealed = try AES128GCM(key: keys.contentEncryptionKey)
            .seal(plaintext + [0x02] + [UInt8](repeating: 0, count: paddingLength), nonce: keys.nonce)
        let recordSizeBytes = (0..<4).map { UInt8(truncatingIfNeeded: recordSize >> UInt32(24 - 8 * $0)) }
        return salt + recordSizeBytes + [65] + senderKey.x963Representation + sealed.ciphertext + sealed.tag
    }
}
