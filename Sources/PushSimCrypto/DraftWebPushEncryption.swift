/// Message encryption for Web Push in the older `aesgcm` content coding: the one of
/// draft-ietf-webpush-encryption-04 and draft-ietf-httpbis-encryption-encoding-03, which Chrome,
/// Firefox and pywebpush still accept beside RFC 8291's `aes128gcm` (Citations §9.4, WP-DRAFT-ENC).
/// The keys travel in headers, not in the body: `Encryption: salt=<base64url>[; rs=<n>]` and
/// `Crypto-Key: dh=<base64url of the sender's public key>`.
///
/// ```
/// ecdh     = ECDH(ua_private, as_public)  =  ECDH(as_private, ua_public)
/// IKM      = HKDF(salt: auth_secret, ikm: ecdh, info: "Content-Encoding: auth" || 0x00, 32)
/// context  = "P-256" || 0x00 || 0x0041 || ua_public || 0x0041 || as_public
/// CEK      = HKDF(salt: salt, ikm: IKM, info: "Content-Encoding: aesgcm" || 0x00 || context, 16)
/// NONCE    = HKDF(salt: salt, ikm: IKM, info: "Content-Encoding: nonce" || 0x00 || context, 12)
/// record i = AES-128-GCM(CEK, NONCE xor i, pad length (uint16) || pad zeros || data) || tag (16)
/// ```
///
/// Each record holds at most `rs` bytes before its 16-byte tag, and the last one fewer than `rs`
/// (a body whose length is a whole number of `rs + 16` records was cut short). The record
/// number `i` is XORed into the nonce's last eight bytes, big-endian.
public enum DraftWebPushEncryption {
    /// The record size when `Encryption` names none: 4096 bytes.
    public static let defaultRecordSize = 4096
    /// The bytes of each record's padding length.
    static let paddingLengthSize = 2

    /// Derives the content key and nonce from the ECDH secret, the subscription's auth secret,
    /// both public keys and the salt.
    static func contentKeys(sharedSecret: [UInt8], authSecret: [UInt8], userAgentPublicKey: P256PublicKey,
                            applicationServerPublicKey: P256PublicKey, salt: [UInt8]) throws -> (key: [UInt8], nonce: [UInt8]) {
        let ikm = try HKDF.deriveKey(inputKeyingMaterial: sharedSecret, salt: authSecret,
                                     info: Array("Content-Encoding: auth".utf8) + [0x00], length: 32)
        let context = Array("P-256".utf8) + [0x00, 0x00, 0x41] + userAgentPublicKey.x963Representation
            + [0x00, 0x41] + applicationServerPublicKey.x963Representation
        let prk = HKDF.extract(salt: salt, inputKeyingMaterial: ikm)
        return (try HKDF.expand(pseudorandomKey: prk, info: Array("Content-Encoding: aesgcm".utf8) + [0x00] + context, length: 16),
                try HKDF.expand(pseudorandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0x00] + context, length: 12))
    }

    /// The nonce of record `number`: the base nonce with `number` XORed into its last eight bytes.
    static func nonce(_ base: [UInt8], record number: UInt64) -> [UInt8] {
        var nonce = base
        for i in 0..<8 { nonce[4 + i] ^= UInt8(truncatingIfNeeded: number >> UInt64(56 - 8 * i)) }
        return nonce
    }

    /// Decrypts a push message body as the user agent does: derives the keys from its private key,
    /// 16-byte auth secret, the 16-byte `salt` and the sender's public key (`dh`), opens each
    /// record and strips its padding (a padding length past the record, or padding that is not
    /// zero, is refused).
    public static func decrypt(_ body: [UInt8], userAgentPrivateKey: P256PrivateKey, authSecret: [UInt8], salt: [UInt8],
                               senderPublicKey: P256PublicKey, recordSize: Int = defaultRecordSize) throws -> [UInt8] {
        guard authSecret.count == 16 else { throw CryptoError.invalidLength("a Web Push auth secret is 16 bytes, not \(authSecret.count)") }
        guard salt.count == 16 else { throw CryptoError.invalidLength("an aesgcm salt is 16 bytes, not \(salt.count)") }
        guard recordSize > paddingLengthSize else { throw CryptoError.malformedContent("a record size of \(recordSize) (more than 2)") }
        let chunk = recordSize + 16
        guard !body.isEmpty, body.count % chunk != 0 else {
            throw CryptoError.malformedContent("\(body.count) bytes: the last record must be shorter than \(chunk) bytes (truncated)")
        }
        let keys = try contentKeys(sharedSecret: try userAgentPrivateKey.sharedSecret(with: senderPublicKey), authSecret: authSecret,
                                   userAgentPublicKey: userAgentPrivateKey.publicKey, applicationServerPublicKey: senderPublicKey, salt: salt)
        let cipher = try AES128GCM(key: keys.key)
        var plaintext: [UInt8] = []
        var number: UInt64 = 0
        for start in stride(from: 0, to: body.count, by: chunk) {
            let record = Array(body[start..<min(start + chunk, body.count)])
            guard record.count > 16 + paddingLengthSize - 1 else { throw CryptoError.malformedContent("a record shorter than its tag and padding length") }
            let padded = try cipher.open(Array(record.dropLast(16)), tag: Array(record.suffix(16)), nonce: nonce(keys.nonce, record: number))
            plaintext += try unpad(padded)
            number += 1
        }
        return plaintext
    }

    /// One record's data: after the two-byte padding length and that many zero bytes.
    static func unpad(_ padded: [UInt8]) throws -> [UInt8] {
        guard padded.count >= paddingLengthSize else { throw CryptoError.malformedContent("a record without its padding length") }
        let padding = Int(padded[0]) << 8 | Int(padded[1])
        guard paddingLengthSize + padding <= padded.count else {
            throw CryptoError.malformedContent("a padding length of \(padding) is longer than the record")
        }
        guard padded[paddingLengthSize..<(paddingLengthSize + padding)].allSatisfy({ $0 == 0 }) else {
            throw CryptoError.malformedContent("padding that is not all zero")
        }
        return Array(padded[(paddingLengthSize + padding)...])
    }

    /// Encrypts `plaintext` as an application server does, with its key pair and salt given and
    /// `paddingLength` zero bytes before the data, in one record, which must be shorter than
    /// `recordSize` (the usual case: 4096 bytes is more than a push message holds).
    public static func encrypt(_ plaintext: [UInt8], userAgentPublicKey: P256PublicKey, authSecret: [UInt8],
                               applicationServerPrivateKey: P256PrivateKey, salt: [UInt8],
                               recordSize: Int = defaultRecordSize, paddingLength: Int = 0) throws -> [UInt8] {
        guard authSecret.count == 16 else { throw CryptoError.invalidLength("a Web Push auth secret is 16 bytes, not \(authSecret.count)") }
        guard salt.count == 16 else { throw CryptoError.invalidLength("an aesgcm salt is 16 bytes, not \(salt.count)") }
        guard (0...0xffff).contains(paddingLength), paddingLengthSize + paddingLength + plaintext.count < recordSize else {
            throw CryptoError.invalidLength("the padding length, padding and plaintext do not fit one record shorter than \(recordSize) bytes")
        }
        let keys = try contentKeys(sharedSecret: try applicationServerPrivateKey.sharedSecret(with: userAgentPublicKey), authSecret: authSecret,
                                   userAgentPublicKey: userAgentPublicKey, applicationServerPublicKey: applicationServerPrivateKey.publicKey,
                                   salt: salt)
        let padded = [UInt8(paddingLength >> 8), UInt8(paddingLength & 0xff)] + [UInt8](repeating: 0, count: paddingLength) + plaintext
        let sealed = try AES128GCM(key: keys.key).seal(padded, nonce: nonce(keys.nonce, record: 0))
        return sealed.ciphertext + sealed.tag
    }
}
