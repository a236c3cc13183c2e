/// The deterministic ECDSA nonces of RFC 6979 (section 3.2) for P-256 with SHA-256: `k` drawn
/// from an HMAC-SHA256 DRBG seeded with the private key and the message digest, so a signature
/// needs no randomness and is the same every run.
///
/// With the group order's and the hash's lengths both 256 bits, `bits2int` is the plain
/// big-endian reading and one HMAC output is one candidate.
struct RFC6979Nonce {
    private var key: [UInt8]
    private var value: [UInt8]

    /// The generator for private key `d` and message digest `digest` (32 bytes), through steps
    /// 3.2 b–f.
    init(privateKey d: UInt256, digest: [UInt8]) {
        let reducedDigest = RFC6979Nonce.reduce(UInt256(bigEndian: digest) ?? .zero)
        let seed = d.bigEndianBytes + reducedDigest.bigEndianBytes
        value = [UInt8](repeating: 0x01, count: 32)
        key = [UInt8](repeating: 0x00, count: 32)
        key = HMACSHA256.authenticationCode(value + [0x00] + seed, key: key)
        value = HMACSHA256.authenticationCode(value, key: key)
        key = HMACSHA256.authenticationCode(value + [0x01] + seed, key: key)
        value = HMACSHA256.authenticationCode(value, key: key)
    }

    /// The next candidate `k` in 1 … n − 1 (step 3.2 h; a candidate out of range, or one the
    /// caller refused, moves the generator on as the RFC says).
    mutating func next() -> UInt256 {
        while true {
            value = HMACSHA256.authenticationCode(value, key: key)
            let candidate = UInt256(bigEndian: value) ?? .zero
            reseed()
            if !candidate.isZero && P256Scalar.isReduced(candidate) { return candidate }
        }
    }

    /// `K = HMAC_K(V || 0x00)`, `V = HMAC_K(V)`: what the RFC does after each refused candidate.
    /// Done after every candidate, which changes nothing for the first one returned.
    private mutating func reseed() {
        key = HMACSHA256.authenticationCode(value + [0x00], key: key)
        value = HMACSHA256.authenticationCode(value, key: key)
    }

    /// `z mod n` for a 256-bit `z` (below 2n, so at most one subtraction).
    static func reduce(_ z: UInt256) -> UInt256 {
        P256Scalar.isReduced(z) ? z : z.subtractingReportingBorrow(P256Order.modulus).difference
    }
}
