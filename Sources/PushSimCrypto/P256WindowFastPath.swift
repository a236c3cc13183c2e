/// Scalar multiplication `k·P` on P-256 with a fixed 4-bit window: the multiples `1·P … 15·P`
/// once, then for each of the 64 hex digits of `k` from the top, four doublings and at most one
/// addition (252 doublings and ≤ 64 additions against double and add's 256 and ~128).
///
/// Not constant time: which additions happen depends on `k` (a simulator's tool, see the
/// PushSimCrypto article). Contract: the same point as
/// ``P256JacobianPoint/multipliedByDoubleAndAdd(_:)`` for every `k` (tested in
/// `P256GroupTests` with seeded random scalars and the edge scalars 0, 1, n − 1).
enum P256WindowFastPath {
    /// `k·point`.
    static func multiply(_ point: P256JacobianPoint, by k: UInt256) -> P256JacobianPoint {
        var multiples = [P256JacobianPoint](repeating: .infinity, count: 16)
        multiples[1] = point
        for digit in 2..<16 {
            multiples[digit] = digit % 2 == 0 ? multiples[digit / 2].doubled() : multiples[digit - 1].adding(point)
        }
        var result = P256JacobianPoint.infinity
        for index in stride(from: 63, through: 0, by: -1) {
            result = result.doubled().doubled().doubled().doubled()
            let digit = k.nibble(index)
            if digit != 0 { result = result.adding(multiples[digit]) }
        }
        return result
    }
}
