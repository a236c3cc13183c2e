/// Montgomery multiplication of 256-bit numbers, the speed door of every P-256 operation: a field
/// multiplication is ~16 64-bit multiplications and no division.
///
/// With `R = 2²⁵⁶` and an odd modulus `m`, ``multiply(_:_:modulus:negativeInverse:)`` answers
/// `a·b·R⁻¹ mod m`: numbers kept as `a·R mod m` ("Montgomery form") multiply to the Montgomery form
/// of their product. The algorithm is the coarsely integrated operand scanning (CIOS) of Koç,
/// Acar and Kaliski ("Analyzing and comparing Montgomery multiplication algorithms", IEEE Micro
/// 1996), its four 64-bit rounds written out.
///
/// Contract: for `a, b < m`, the answer `c` is below `m` and `c·R ≡ a·b (mod m)` by
/// `ModularReference`, the plain schoolbook product and bit-by-bit remainder (tested in
/// `MontgomeryTests` with seeded random numbers for both P-256 moduli).
enum MontgomeryFastPath {
    /// `a·b·2⁻²⁵⁶ mod modulus`, for `a, b < modulus`, an odd `modulus` and `negativeInverse =
    /// −modulus⁻¹ mod 2⁶⁴`.
    @inline(__always)
    static func multiply(_ a: UInt256, _ b: UInt256, modulus m: UInt256, negativeInverse: UInt64) -> UInt256 {
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        round(&t, a, b.w0, m, negativeInverse)
        round(&t, a, b.w1, m, negativeInverse)
        round(&t, a, b.w2, m, negativeInverse)
        round(&t, a, b.w3, m, negativeInverse)
        // t < 2m: one conditional subtraction brings it below m.
        let value = UInt256(t.0, t.1, t.2, t.3)
        let (reduced, borrow) = value.subtractingReportingBorrow(m)
        return (t.4 != 0 || !borrow) ? reduced : value
    }

    /// One CIOS round: `t = (t + a·word + u·m) / 2⁶⁴`, with `u` chosen so that the division is exact.
    @inline(__always)
    static func round(_ t: inout (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: UInt256, _ word: UInt64,
                      _ m: UInt256, _ negativeInverse: UInt64) {
        var carry: UInt64
        var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64
        (carry, s0) = multiplyAdd(a.w0, word, t.0, 0)
        (carry, s1) = multiplyAdd(a.w1, word, t.1, carry)
        (carry, s2) = multiplyAdd(a.w2, word, t.2, carry)
        (carry, s3) = multiplyAdd(a.w3, word, t.3, carry)
        let (s4, top) = t.4.addingReportingOverflow(carry)
        let u = s0 &* negativeInverse
        (carry, _) = multiplyAdd(u, m.w0, s0, 0)
        (carry, t.0) = multiplyAdd(u, m.w1, s1, carry)
        (carry, t.1) = multiplyAdd(u, m.w2, s2, carry)
        (carry, t.2) = multiplyAdd(u, m.w3, s3, carry)
        let (high, overflow) = s4.addingReportingOverflow(carry)
        t.3 = high
        t.4 = (top ? 1 : 0) &+ (overflow ? 1 : 0)
    }

    /// `a·b + c + d` as a 128-bit (high, low) pair; it cannot overflow.
    @inline(__always)
    static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        let product = a.multipliedFullWidth(by: b)
        let (low1, carry1) = product.low.addingReportingOverflow(c)
        let (low2, carry2) = low1.addingReportingOverflow(d)
        return (product.high &+ (carry1 ? 1 : 0) &+ (carry2 ? 1 : 0), low2)
    }
}
