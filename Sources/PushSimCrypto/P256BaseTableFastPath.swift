/// `k·G` for the base point `G` with a table built once: for each of the 64 hex digits of `k`,
/// the 15 affine points `j·16ⁱ·G` (`j` = 1…15), so that `k·G` is the sum of at most 64 of them —
/// mixed additions and no doubling, about four times fewer field multiplications than
/// `P256WindowFastPath`. The 960 points (60 KiB) are computed on first use, their Jacobian `Z`s
/// inverted together (Montgomery's trick: one inversion and three multiplications a point).
///
/// What makes ECDSA signing and verification and key generation cheap. Not constant time.
/// Contract: ``multiply(_:)`` gives the same point as
/// ``P256JacobianPoint/multipliedByDoubleAndAdd(_:)`` on `G` for every `k` (tested in
/// `P256GroupTests` with seeded random scalars and the edge scalars).
enum P256BaseTableFastPath {
    /// `table[15·i + j − 1] = j·16ⁱ·G`.
    static let table: [P256AffinePoint] = build()

    /// `k·G`.
    static func multiply(_ k: UInt256) -> P256JacobianPoint {
        let table = P256BaseTableFastPath.table
        var result = P256JacobianPoint.infinity
        for index in 0..<64 {
            let digit = k.nibble(index)
            if digit != 0 { result = result.adding(table[15 * index + digit - 1]) }
        }
        return result
    }

    private static func build() -> [P256AffinePoint] {
        var points: [P256JacobianPoint] = []
        points.reserveCapacity(64 * 15)
        var base = P256JacobianPoint(P256AffinePoint.generator)
        for _ in 0..<64 {
            var multiple = base
            for _ in 1...15 {
                points.append(multiple)
                multiple = multiple.adding(base)
            }
            base = multiple   // 16·base
        }
        // Montgomery's trick: prefix products of the Zs, one inversion, then walk back.
        var prefix: [P256Coordinate] = []
        prefix.reserveCapacity(points.count)
        var running = P256Coordinate.one
        for point in points {
            running = running * point.z
            prefix.append(running)
        }
        var inverse = running.inverse
        var affine = [P256AffinePoint](repeating: .generator, count: points.count)
        for index in stride(from: points.count - 1, through: 0, by: -1) {
            let zInverse = index == 0 ? inverse : inverse * prefix[index - 1]
            inverse = inverse * points[index].z
            let zInverseSquared = zInverse.squared
            affine[index] = P256AffinePoint(x: points[index].x * zInverseSquared, y: points[index].y * zInverseSquared * zInverse)
        }
        return affine
    }
}
