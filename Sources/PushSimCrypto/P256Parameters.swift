/// The curve P-256 (secp256r1, prime256v1): `y² = x³ − 3x + b` over the prime field of `p`, with
/// the base point `G` of prime order `n` (FIPS 186-4, appendix D.1.2.3; SEC 2, section 2.4.2).
enum P256 {
    /// `b`, the curve's constant.
    static let b = UInt256(0x3bce3c3e27d2604b, 0x651d06b0cc53b0f6, 0xb3ebbd55769886bc, 0x5ac635d8aa3a93e7)
    /// The base point's `x`.
    static let gx = UInt256(0xf4a13945d898c296, 0x77037d812deb33a0, 0xf8bce6e563a440f2, 0x6b17d1f2e12c4247)
    /// The base point's `y`.
    static let gy = UInt256(0xcbb6406837bf51f5, 0x2bce33576b315ece, 0x8ee7eb4a7c0f9e16, 0x4fe342e2fe1a7f9b)
}

/// The field prime of P-256, `p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1`; coordinates live modulo it.
enum P256Prime: PrimeModulus {
    static var modulus: UInt256 { UInt256(0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001) }
    static var negativeInverse: UInt64 { 1 }
    static var rSquared: UInt256 { UInt256(0x0000000000000003, 0xfffffffbffffffff, 0xfffffffffffffffe, 0x00000004fffffffd) }
    static var montgomeryOne: UInt256 { UInt256(0x0000000000000001, 0xffffffff00000000, 0xffffffffffffffff, 0x00000000fffffffe) }
}

/// The order `n` of P-256's base point; scalars (private keys, ECDSA's `r`, `s`, `k`) live modulo it.
enum P256Order: PrimeModulus {
    static var modulus: UInt256 { UInt256(0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000) }
    static var negativeInverse: UInt64 { 0xccd1c8aaee00bc4f }
    static var rSquared: UInt256 { UInt256(0x83244c95be79eea2, 0x4699799c49bd6fa6, 0x2845b2392b6bec59, 0x66e12d94f3d95620) }
    static var montgomeryOne: UInt256 { UInt256(0x0c46353d039cdaaf, 0x4319055258e8617b, 0x0000000000000000, 0x00000000ffffffff) }
}

/// A coordinate of a P-256 point: a number modulo `p`.
typealias P256Coordinate = FieldElement<P256Prime>
/// A P-256 scalar: a number modulo `n`.
typealias P256Scalar = FieldElement<P256Order>
