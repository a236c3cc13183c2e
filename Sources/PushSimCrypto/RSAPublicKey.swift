/// An RSA public key `(n, e)`, and the check of RSASSA-PKCS1-v1_5 signatures with SHA-256
/// (RFC 8017, 8.2.2; RS256 in JOSE, RFC 7518 3.3): what Google's token endpoint checks a
/// service account's OAuth assertion with.
public struct RSAPublicKey: Equatable, Sendable {
    /// The modulus `n`, big-endian, without leading zeros.
    public let modulus: [UInt8]
    /// The public exponent `e`, big-endian, without leading zeros.
    public let exponent: [UInt8]
    let arithmetic: RSAModulusArithmetic

    /// The key `(n, e)` from big-endian bytes (leading zeros allowed). Refused unless `n` is odd
    /// and 512 to 8192 bits, and `e` odd, at least 3, below `n` (RFC 8017, 3.1) and below 2⁶⁴.
    /// The two upper bounds are PushSim's: they keep a hostile key from making one check cost
    /// seconds, and no push credential comes near them (Google's keys are 2048 bits, e = 65537).
    public init(modulus: [UInt8], exponent: [UInt8]) throws {
        let n = Array(modulus.drop { $0 == 0 }), e = Array(exponent.drop { $0 == 0 })
        guard (64...1024).contains(n.count), let arithmetic = RSAModulusArithmetic(modulus: n[...]), arithmetic.bitCount >= 512 else {
            throw CryptoError.unsupportedKey("an RSA modulus must be odd and 512 to 8192 bits")
        }
        guard let last = e.last, last & 1 == 1, e.count > 1 || last >= 3, e.count <= 8,
              let eWords = arithmetic.number(e[...]), arithmetic.isReduced(eWords) else {
            throw CryptoError.unsupportedKey("an RSA exponent must be odd, at least 3, below n and below 2⁶⁴")
        }
        self.modulus = n
        self.exponent = e
        self.arithmetic = arithmetic
    }

    /// Keys are equal when `n` and `e` are.
    public static func == (a: RSAPublicKey, b: RSAPublicKey) -> Bool { a.modulus == b.modulus && a.exponent == b.exponent }

    /// The modulus' size in bits (2048 for a Google service account's key).
    public var modulusBitCount: Int { arithmetic.bitCount }

    /// Whether `signature` is the RSASSA-PKCS1-v1_5 signature with SHA-256 of `message` under
    /// this key (RFC 8017, 8.2.2): exactly `k` bytes, below `n`, and `s^e mod n` must equal the
    /// encoding `0x00 0x01 FF…FF 0x00 || DigestInfo(SHA-256(message))` byte for byte (the
    /// comparison 8.2.2 step 4 asks for, not a parse of the padding, so no variant slips in).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        let k = arithmetic.byteCount
        guard signature.count == k, let s = arithmetic.number(signature[...]), arithmetic.isReduced(s),
              let e = arithmetic.number(exponent[...]),
              let expected = PKCS1Encoding.sha256DigestInfoBlock(SHA256.hash(message), length: k) else { return false }
        return RSAModulusArithmetic.bytes(arithmetic.fastPower(s, e), count: k) == expected
    }
}

/// EMSA-PKCS1-v1_5 with SHA-256 (RFC 8017, 9.2).
enum PKCS1Encoding {
    /// The DER of `DigestInfo { AlgorithmIdentifier { id-sha256, NULL }, OCTET STRING (32) }`
    /// without its last 32 bytes (RFC 8017, 9.2, note 1).
    static let sha256DigestInfoPrefix: [UInt8] = [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                                  0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]

    /// `0x00 0x01 PS 0x00 T` of `length` bytes with `PS` all `0xFF`; nil when `length` leaves
    /// fewer than 8 bytes of padding ("intended encoded message length too short").
    static func sha256DigestInfoBlock(_ digest: [UInt8], length: Int) -> [UInt8]? {
        let t = sha256DigestInfoPrefix + digest
        guard length >= t.count + 11 else { return nil }
        return [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - t.count - 3) + [0x00] + t
    }
}
