/// An RSA private key `(n, e, d)`: what a Google service account's JSON holds (PKCS#8 around
/// PKCS#1's `RSAPrivateKey`), and what signs RS256 assertions (RSASSA-PKCS1-v1_5 with SHA-256,
/// RFC 8017 8.2.1; deterministic, as PKCS#1 v1.5 is).
///
/// Signs with the plain `s = m^d mod n` (no Chinese remainder speed-up, not constant time: a
/// simulator's tool, some milliseconds for 2048 bits).
public struct RSAPrivateKey: Sendable {
    /// The matching public key `(n, e)`.
    public let publicKey: RSAPublicKey
    /// The private exponent `d` as words of the modulus' arithmetic.
    private let privateExponent: [UInt64]

    /// Reads PKCS#1's `RSAPrivateKey` (RFC 8017, A.1.2): version 0, then `n`, `e`, `d`, `p`, `q`,
    /// `dP`, `dQ`, `qInv`; multi-prime keys (version 1) are refused.
    public init(pkcs1 der: [UInt8]) throws {
        var sequence = try DERReader.onlySequence(der, "RSA private key")
        guard try sequence.readSmallInteger() == 0 else { throw CryptoError.unsupportedKey("multi-prime RSA keys (version 1)") }
        let n = try sequence.readUnsignedInteger()
        let e = try sequence.readUnsignedInteger()
        let d = try sequence.readUnsignedInteger()
        for _ in 0..<5 { _ = try sequence.readUnsignedInteger() }   // p, q, dP, dQ, qInv: not used
        try sequence.expectEnd("after qInv")
        publicKey = try RSAPublicKey(modulus: Array(n), exponent: Array(e))
        guard let exponent = publicKey.arithmetic.number(d), !d.allSatisfy({ $0 == 0 }), publicKey.arithmetic.isReduced(exponent) else {
            throw CryptoError.malformedDER("the private exponent d must be in 1 … n − 1")
        }
        privateExponent = exponent
    }

    /// The RSASSA-PKCS1-v1_5 signature with SHA-256 of `message` (RFC 8017, 8.2.1): `k` bytes.
    public func signature(for message: [UInt8]) -> [UInt8] {
        let arithmetic = publicKey.arithmetic
        let k = arithmetic.byteCount
        // k ≥ 64 bytes (the key was checked at 512 bits or more), so the encoding always fits.
        guard let encoded = PKCS1Encoding.sha256DigestInfoBlock(SHA256.hash(message), length: k),
              let m = arithmetic.number(encoded[...]) else { return [] }
        return RSAModulusArithmetic.bytes(arithmetic.power(m, privateExponent), count: k)
    }
}
