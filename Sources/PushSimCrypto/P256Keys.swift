import PushSimKernel

/// A P-256 public key: a point of the curve, checked on reading (SEC 1, 3.2.2.1). What a Web Push
/// subscription's `p256dh` holds, what verifies an APNs provider token (ES256), what a VAPID
/// `k=` names.
public struct P256PublicKey: Equatable, Sendable {
    let point: P256AffinePoint

    init(point: P256AffinePoint) { self.point = point }

    /// Reads the uncompressed X9.62 / SEC 1 form, `0x04 || x || y` (65 bytes).
    public init(x963Representation bytes: [UInt8]) throws {
        point = try P256AffinePoint(uncompressed: bytes)
    }

    /// Reads the two coordinates, 32 big-endian bytes each (a JWK's `x` and `y`, RFC 7518 6.2.1.2).
    public init(x: [UInt8], y: [UInt8]) throws {
        guard x.count == 32, y.count == 32 else {
            throw CryptoError.invalidPoint("P-256 coordinates are 32 bytes each, not \(x.count) and \(y.count)")
        }
        guard let xValue = UInt256(bigEndian: x), let yValue = UInt256(bigEndian: y) else {
            throw CryptoError.invalidPoint("unreadable coordinates")
        }
        point = try P256AffinePoint(x: xValue, y: yValue)
    }

    /// The uncompressed form, `0x04 || x || y` (65 bytes).
    public var x963Representation: [UInt8] { point.uncompressed }

    /// The `x` coordinate, 32 big-endian bytes.
    public var x: [UInt8] { point.x.value.bigEndianBytes }

    /// The `y` coordinate, 32 big-endian bytes.
    public var y: [UInt8] { point.y.value.bigEndianBytes }
}

/// A P-256 private key: a scalar `d` in 1 … n − 1, and its public key `d·G`.
///
/// Signs with ECDSA and SHA-256 (FIPS 186-4, 6.4) using RFC 6979's deterministic nonces, so the
/// same key and message always give the same signature (the simulation is deterministic); agrees
/// on a shared secret with ECDH (SEC 1, 3.3.1).
public struct P256PrivateKey: Sendable {
    /// `d`.
    let scalar: UInt256
    /// `d·G`.
    public let publicKey: P256PublicKey

    /// Reads `d` as 32 big-endian bytes (SEC 1's private key octet string; a JWK's `d`); refused
    /// unless 1 ≤ d < n.
    public init(rawRepresentation bytes: [UInt8]) throws {
        guard bytes.count == 32 else {
            throw CryptoError.invalidScalar("a P-256 private key is 32 bytes, not \(bytes.count)")
        }
        guard let d = UInt256(bigEndian: bytes), !d.isZero, P256Scalar.isReduced(d) else {
            throw CryptoError.invalidScalar("a P-256 private key must be in 1 … n − 1")
        }
        scalar = d
        guard let point = P256.multiplyBase(d).affine else {
            throw CryptoError.invalidScalar("d·G is the point at infinity")
        }
        publicKey = P256PublicKey(point: point)
    }

    /// `d` as 32 big-endian bytes.
    public var rawRepresentation: [UInt8] { scalar.bigEndianBytes }

    /// A key made deterministically from `seed`: `d` is the first of `HKDF-SHA256(seed, salt
    /// "PushSim P-256 key", info = attempt number)` (RFC 5869, 32 bytes each) that lies in 1 … n − 1
    /// (FIPS 186-4, B.4.2's rejection of out-of-range candidates). The same seed always gives the same key.
    public init(derivedFrom seed: [UInt8]) throws {
        for attempt in 0..<UInt8(64) {
            let candidate = try HKDF.deriveKey(inputKeyingMaterial: seed, salt: Array("PushSim P-256 key".utf8), info: [attempt], length: 32)
            if let key = try? P256PrivateKey(rawRepresentation: candidate) {
                self = key
                return
            }
        }
        throw CryptoError.invalidScalar("no P-256 key in range for this seed")
    }

    /// A key drawn from `random`: a 32-byte seed (`SeededRandom.bytes(_:)`) for
    /// ``init(derivedFrom:)``; a seed none of whose 64 candidates lies in range, which practically
    /// never happens, is followed by the next 32 bytes. The same stream position always gives the same key.
    public init(drawingFrom random: inout SeededRandom) {
        while true {
            if let key = try? P256PrivateKey(derivedFrom: random.bytes(32)) {
                self = key
                return
            }
        }
    }
}

extension P256PrivateKey: Equatable {
    /// Keys are equal when their scalars are.
    public static func == (a: P256PrivateKey, b: P256PrivateKey) -> Bool { a.scalar == b.scalar }
}

extension P256 {
    /// `k·G`.
    static func multiplyBase(_ k: UInt256) -> P256JacobianPoint { P256BaseTableFastPath.multiply(k) }
}
