/// An ECDSA signature on P-256: the pair `(r, s)`, each in 1 … n − 1.
///
/// Two encodings are in use: JOSE's raw `r || s`, 64 bytes (RFC 7518, 3.4: an ES256 JWT such as
/// an APNs provider token or a VAPID token), and the DER `SEQUENCE { INTEGER r, INTEGER s }` of
/// X.509 and most libraries (RFC 3279, 2.2.3). A client that sends one where the other is due is
/// a classic cause of `InvalidProviderToken` / `BadJwtToken`, so both readers are strict.
public struct P256Signature: Equatable, Sendable {
    let r: UInt256
    let s: UInt256

    init(r: UInt256, s: UInt256) {
        self.r = r
        self.s = s
    }

    /// Reads JOSE's `r || s`: exactly 64 bytes, each half a number in 1 … n − 1.
    public init(rawRepresentation bytes: [UInt8]) throws {
        guard bytes.count == 64 else {
            throw CryptoError.malformedSignature("an ES256 signature is 64 bytes (r || s), not \(bytes.count)")
        }
        try self.init(checkingR: UInt256(bigEndian: bytes[0..<32]), s: UInt256(bigEndian: bytes[32..<64]))
    }

    /// Reads the DER form `SEQUENCE { INTEGER r, INTEGER s }`, nothing after it.
    public init(derRepresentation bytes: [UInt8]) throws {
        var sequence = try DERReader.onlySequence(bytes, "signature")
        let r = try sequence.readUnsignedInteger()
        let s = try sequence.readUnsignedInteger()
        try sequence.expectEnd("after r and s")
        try self.init(checkingR: UInt256(bigEndian: r), s: UInt256(bigEndian: s))
    }

    private init(checkingR r: UInt256?, s: UInt256?) throws {
        guard let r, let s, !r.isZero, !s.isZero, P256Scalar.isReduced(r), P256Scalar.isReduced(s) else {
            throw CryptoError.malformedSignature("r and s must be in 1 … n − 1")
        }
        self.init(r: r, s: s)
    }

    /// JOSE's `r || s`, 64 bytes.
    public var rawRepresentation: [UInt8] { r.bigEndianBytes + s.bigEndianBytes }

    /// The DER `SEQUENCE { INTEGER r, INTEGER s }`.
    public var derRepresentation: [UInt8] {
        DERWriter.sequence(DERWriter.unsignedInteger(r.bigEndianBytes) + DERWriter.unsignedInteger(s.bigEndianBytes))
    }
}

extension P256PrivateKey {
    /// The ECDSA signature of `message` with SHA-256 (FIPS 186-4, 6.4; ES256 in JOSE), its nonce
    /// from RFC 6979, so the same key and message always sign the same.
    public func signature(for message: [UInt8]) -> P256Signature {
        signature(forDigest: SHA256.hash(message))
    }

    /// The ECDSA signature of a 32-byte SHA-256 `digest`.
    func signature(forDigest digest: [UInt8]) -> P256Signature {
        let z = P256Scalar(RFC6979Nonce.reduce(UInt256(bigEndian: digest) ?? .zero))
        let d = P256Scalar(scalar)
        var nonces = RFC6979Nonce(privateKey: scalar, digest: digest)
        while true {
            let k = nonces.next()
            guard let point = P256.multiplyBase(k).affine else { continue }
            let r = RFC6979Nonce.reduce(point.x.value)
            if r.isZero { continue }
            let s = (P256Scalar(k).inverse * (z + P256Scalar(r) * d)).value
            if s.isZero { continue }
            return P256Signature(r: r, s: s)
        }
    }
}

extension P256PublicKey {
    /// Whether `signature` is this key's ECDSA signature of `message` with SHA-256 (FIPS 186-4, 6.4.2).
    public func isValidSignature(_ signature: P256Signature, for message: [UInt8]) -> Bool {
        isValidSignature(signature, forDigest: SHA256.hash(message))
    }

    /// Whether `signature` is this key's signature of a 32-byte digest: with `w = s⁻¹`,
    /// the `x` of `(z·w)·G + (r·w)·Q`, reduced mod n, must equal `r`.
    func isValidSignature(_ signature: P256Signature, forDigest digest: [UInt8]) -> Bool {
        let z = P256Scalar(RFC6979Nonce.reduce(UInt256(bigEndian: digest) ?? .zero))
        let w = P256Scalar(signature.s).inverse
        let u1 = (z * w).value
        let u2 = (P256Scalar(signature.r) * w).value
        let sum = P256.multiplyBase(u1).adding(P256WindowFastPath.multiply(P256JacobianPoint(point), by: u2))
        guard let x = sum.affine?.x.value else { return false }
        return RFC6979Nonce.reduce(x) == signature.r
    }
}
