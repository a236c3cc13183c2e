/// An RSA private key `(n, e, d)` with its primes and CRT values: what a Google service account's
/// JSON holds (PKCS#8 around PKCS#1's `RSAPrivateKey`), and what signs RS256 assertions
/// (RSASSA-PKCS1-v1_5 with SHA-256, RFC 8017 8.2.1; deterministic, as PKCS#1 v1.5 is).
///
/// Signs by the Chinese remainder theorem when the key's CRT values allow (`RSACRTFastPath`), else
/// with the plain `s = m^d mod n`; not constant time (a simulator's tool, a few milliseconds for
/// 2048 bits in a release build, `MontgomeryPowerFastPath` doing the powers).
public struct RSAPrivateKey: Sendable, Equatable {
    /// The matching public key `(n, e)`.
    public let publicKey: RSAPublicKey
    /// The private exponent `d` as words of the modulus' arithmetic.
    private let privateExponent: [UInt64]
    /// `d`, `p`, `q`, `dP`, `dQ` and `qInv` (RFC 8017, A.1.2), big-endian, as read or made: kept
    /// to write the key back (``pkcs1DERRepresentation``).
    let components: Components
    /// The CRT form of the key, when its values are usable (see `RSACRTFastPath`).
    private let crt: RSACRTFastPath?

    /// The private values of RFC 8017's `RSAPrivateKey` after `n` and `e`, big-endian magnitudes.
    struct Components: Sendable, Equatable {
        var d: [UInt8], p: [UInt8], q: [UInt8], dP: [UInt8], dQ: [UInt8], qInv: [UInt8]
    }

    /// Reads PKCS#1's `RSAPrivateKey` (RFC 8017, A.1.2): version 0, then `n`, `e`, `d`, `p`, `q`,
    /// `dP`, `dQ`, `qInv`; multi-prime keys (version 1) are refused.
    public init(pkcs1 der: [UInt8]) throws {
        var sequence = try DERReader.onlySequence(der, "RSA private key")
        guard try sequence.readSmallInteger() == 0 else { throw CryptoError.unsupportedKey("multi-prime RSA keys (version 1)") }
        let n = try sequence.readUnsignedInteger()
        let e = try sequence.readUnsignedInteger()
        var values: [[UInt8]] = []
        for _ in 0..<6 { values.append(Array(try sequence.readUnsignedInteger())) }   // d, p, q, dP, dQ, qInv
        try sequence.expectEnd("after qInv")
        try self.init(modulus: Array(n), exponent: Array(e),
                      components: Components(d: values[0], p: values[1], q: values[2], dP: values[3], dQ: values[4], qInv: values[5]))
    }

    /// The key from its parts; refused unless `(n, e)` is a key ``RSAPublicKey`` takes and `d`
    /// is in 1 … n − 1.
    init(modulus: [UInt8], exponent: [UInt8], components: Components) throws {
        publicKey = try RSAPublicKey(modulus: modulus, exponent: exponent)
        let d = components.d
        guard let exponent = publicKey.arithmetic.number(d[...]), !d.allSatisfy({ $0 == 0 }), publicKey.arithmetic.isReduced(exponent) else {
            throw CryptoError.malformedDER("the private exponent d must be in 1 … n − 1")
        }
        privateExponent = exponent
        self.components = components
        crt = RSACRTFastPath(modulus: publicKey.arithmetic.modulus, components: components)
    }

    /// Keys are equal when all their numbers are.
    public static func == (a: RSAPrivateKey, b: RSAPrivateKey) -> Bool { a.publicKey == b.publicKey && a.components == b.components }

    /// The RSASSA-PKCS1-v1_5 signature with SHA-256 of `message` (RFC 8017, 8.2.1): `k` bytes.
    public func signature(for message: [UInt8]) -> [UInt8] {
        let arithmetic = publicKey.arithmetic
        let k = arithmetic.byteCount
        // k ≥ 64 bytes (the key was checked at 512 bits or more), so the encoding always fits.
        guard let encoded = PKCS1Encoding.sha256DigestInfoBlock(SHA256.hash(message), length: k),
              let m = arithmetic.number(encoded[...]) else { return [] }
        if let crt {
            // Checked against the public key (17 multiplications for e = 65537): CRT values that
            // do not fit `d` give a wrong signature, and the plain power is used instead.
            let signature = RSAModulusArithmetic.bytes(crt.power(m), count: k)
            if publicKey.isValidSignature(signature, for: message) { return signature }
        }
        return RSAModulusArithmetic.bytes(arithmetic.fastPower(m, privateExponent), count: k)
    }
}
