/// A point of P-256 in affine coordinates `(x, y)`, each in Montgomery form. The point at
/// infinity has no affine form: it is only ever a ``P256JacobianPoint``.
struct P256AffinePoint: Equatable, Sendable {
    var x: P256Coordinate
    var y: P256Coordinate

    /// The base point `G` (FIPS 186-4, D.1.2.3).
    static var generator: P256AffinePoint { P256AffinePoint(x: P256Coordinate(P256.gx), y: P256Coordinate(P256.gy)) }

    /// Whether `y² = x³ − 3x + b` holds (SEC 1, section 3.2.2.1, step 3).
    var isOnCurve: Bool {
        let threeX = x + x + x
        return y.squared == x.squared * x - threeX + P256Coordinate(P256.b)
    }

    /// The point `(x, y)` given as plain numbers; refused when a coordinate is not below `p` or the
    /// point is not on the curve (SEC 1, 3.2.2.1: the partial public-key validation every receiver
    /// of a public key must make, or ECDH leaks the private key to an invalid-curve attack).
    init(x: UInt256, y: UInt256) throws {
        guard P256Coordinate.isReduced(x), P256Coordinate.isReduced(y) else {
            throw CryptoError.invalidPoint("a coordinate is not below the field prime p")
        }
        self.init(x: P256Coordinate(x), y: P256Coordinate(y))
        guard isOnCurve else { throw CryptoError.invalidPoint("the point is not on P-256") }
    }

    init(x: P256Coordinate, y: P256Coordinate) {
        self.x = x
        self.y = y
    }

    /// The uncompressed X9.62 / SEC 1 encoding: `0x04 || x || y`, 65 bytes.
    var uncompressed: [UInt8] { [0x04] + x.value.bigEndianBytes + y.value.bigEndianBytes }

    /// Reads the uncompressed encoding (SEC 1, 2.3.4; what a Web Push `p256dh` holds). The
    /// compressed forms (`0x02`/`0x03`) and the lone `0x00` of the point at infinity are refused:
    /// no key this simulator reads uses them.
    init(uncompressed bytes: [UInt8]) throws {
        guard bytes.count == 65 else {
            throw CryptoError.invalidPoint("an uncompressed P-256 point is 65 bytes, not \(bytes.count)")
        }
        guard bytes[0] == 0x04 else {
            throw CryptoError.invalidPoint("an uncompressed point starts with 0x04, not 0x\(String(bytes[0], radix: 16))")
        }
        guard let x = UInt256(bigEndian: bytes[1..<33]), let y = UInt256(bigEndian: bytes[33..<65]) else {
            throw CryptoError.invalidPoint("unreadable coordinates")
        }
        try self.init(x: x, y: y)
    }
}

/// A point of P-256 in Jacobian coordinates: `(X, Y, Z)` stands for the affine `(X/Z², Y/Z³)`,
/// and `Z = 0` for the point at infinity, so that adding and doubling need no division. The
/// formulas are those of the Explicit-Formulas Database (Bernstein and Lange,
/// hyperelliptic.org/EFD, "g1p/auto-shortw-jacobian-3"): `dbl-2001-b`, `add-2007-bl` and
/// `madd-2007-bl`. Not constant time.
struct P256JacobianPoint: Sendable {
    var x: P256Coordinate
    var y: P256Coordinate
    var z: P256Coordinate

    static var infinity: P256JacobianPoint { P256JacobianPoint(x: .one, y: .one, z: .zero) }

    init(x: P256Coordinate, y: P256Coordinate, z: P256Coordinate) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ point: P256AffinePoint) { self.init(x: point.x, y: point.y, z: .one) }

    var isInfinity: Bool { z.isZero }

    /// The affine form (one field inversion); nil for the point at infinity.
    var affine: P256AffinePoint? {
        guard !isInfinity else { return nil }
        let zInverse = z.inverse
        let zInverseSquared = zInverse.squared
        return P256AffinePoint(x: x * zInverseSquared, y: y * zInverseSquared * zInverse)
    }

    /// `2P` (`dbl-2001-b`, which uses `a = −3`: 3 multiplications, 5 squarings).
    func doubled() -> P256JacobianPoint {
        if isInfinity || y.isZero { return .infinity }
        let delta = z.squared
        let gamma = y.squared
        let beta = x * gamma
        let t = (x - delta) * (x + delta)
        let alpha = t + t + t
        let fourBeta = beta + beta + beta + beta
        let x3 = alpha.squared - fourBeta - fourBeta
        let z3 = (y + z).squared - gamma - delta
        let gammaSquared = gamma.squared
        let eightGammaSquared = gammaSquared + gammaSquared + gammaSquared + gammaSquared
        let y3 = alpha * (fourBeta - x3) - eightGammaSquared - eightGammaSquared
        return P256JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// `P + Q` (`add-2007-bl`: 11 multiplications, 5 squarings), doubling when `P = Q`.
    func adding(_ other: P256JacobianPoint) -> P256JacobianPoint {
        if isInfinity { return other }
        if other.isInfinity { return self }
        let z1z1 = z.squared
        let z2z2 = other.z.squared
        let u1 = x * z2z2
        let u2 = other.x * z1z1
        let s1 = y * other.z * z2z2
        let s2 = other.y * z * z1z1
        let h = u2 - u1
        let sDifference = s2 - s1
        if h.isZero { return sDifference.isZero ? doubled() : .infinity }
        let twoH = h + h
        let i = twoH.squared
        let (x3, y3) = P256JacobianPoint.sum(r: sDifference + sDifference, j: h * i, v: u1 * i, s: s1)
        return P256JacobianPoint(x: x3, y: y3, z: ((z + other.z).squared - z1z1 - z2z2) * h)
    }

    /// `P + Q` for an affine `Q` (`madd-2007-bl`: 7 multiplications, 4 squarings).
    func adding(_ other: P256AffinePoint) -> P256JacobianPoint {
        if isInfinity { return P256JacobianPoint(other) }
        let z1z1 = z.squared
        let u2 = other.x * z1z1
        let s2 = other.y * z * z1z1
        let h = u2 - x
        let sDifference = s2 - y
        if h.isZero { return sDifference.isZero ? doubled() : .infinity }
        let hh = h.squared
        let i = hh + hh + hh + hh
        let (x3, y3) = P256JacobianPoint.sum(r: sDifference + sDifference, j: h * i, v: x * i, s: y)
        return P256JacobianPoint(x: x3, y: y3, z: (z + h).squared - z1z1 - hh)
    }

    /// The common end of both additions: `X3 = r² − J − 2V`, `Y3 = r·(V − X3) − 2·S·J`.
    @inline(__always)
    private static func sum(r: P256Coordinate, j: P256Coordinate, v: P256Coordinate, s: P256Coordinate) -> (P256Coordinate, P256Coordinate) {
        let x3 = r.squared - j - v - v
        let sj = s * j
        return (x3, r * (v - x3) - sj - sj)
    }

    /// `k·P` by double and add, one bit at a time from the top: the plain way, which
    /// `P256WindowFastPath` must agree with.
    func multipliedByDoubleAndAdd(_ k: UInt256) -> P256JacobianPoint {
        var result = P256JacobianPoint.infinity
        for index in stride(from: k.bitWidth - 1, through: 0, by: -1) {
            result = result.doubled()
            if k.bit(index) { result = result.adding(self) }
        }
        return result
    }
}
