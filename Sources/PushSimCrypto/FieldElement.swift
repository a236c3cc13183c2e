/// An odd prime modulus below 2²⁵⁶ with the constants Montgomery arithmetic needs, each a
/// computed constant so that it costs nothing to read in a hot loop.
protocol PrimeModulus {
    /// The prime `m`.
    static var modulus: UInt256 { get }
    /// `−m⁻¹ mod 2⁶⁴`.
    static var negativeInverse: UInt64 { get }
    /// `2⁵¹² mod m`: multiplying by it (Montgomery) brings a number into Montgomery form.
    static var rSquared: UInt256 { get }
    /// `2²⁵⁶ mod m`: the Montgomery form of 1.
    static var montgomeryOne: UInt256 { get }
}

/// A number modulo the prime `M.modulus`, kept in Montgomery form (`x·2²⁵⁶ mod m`), with the
/// field's operations written as operators: `+`, `−`, `*`, ``squared``, ``inverse``.
///
/// The multiplication is `MontgomeryFastPath`; the rest is plain 256-bit addition and
/// subtraction with one correction.
struct FieldElement<M: PrimeModulus>: Equatable {
    /// The Montgomery form `x·2²⁵⁶ mod m`.
    var montgomery: UInt256

    /// Wraps a number that is already in Montgomery form.
    @inline(__always) init(montgomery: UInt256) { self.montgomery = montgomery }

    /// The element `value mod m`; `value` must be below `m` (check with ``isReduced(_:)``).
    @inline(__always) init(_ value: UInt256) {
        montgomery = MontgomeryFastPath.multiply(value, M.rSquared, modulus: M.modulus, negativeInverse: M.negativeInverse)
    }

    /// Whether `value` is a canonical element (below `m`).
    static func isReduced(_ value: UInt256) -> Bool { value < M.modulus }

    static var zero: FieldElement { FieldElement(montgomery: .zero) }
    static var one: FieldElement { FieldElement(montgomery: M.montgomeryOne) }

    /// The element as a plain number in 0..<m.
    var value: UInt256 {
        MontgomeryFastPath.multiply(montgomery, UInt256(1), modulus: M.modulus, negativeInverse: M.negativeInverse)
    }

    var isZero: Bool { montgomery.isZero }

    @inline(__always) static func * (a: FieldElement, b: FieldElement) -> FieldElement {
        FieldElement(montgomery: MontgomeryFastPath.multiply(a.montgomery, b.montgomery, modulus: M.modulus, negativeInverse: M.negativeInverse))
    }

    @inline(__always) var squared: FieldElement { self * self }

    @inline(__always) static func + (a: FieldElement, b: FieldElement) -> FieldElement {
        let (sum, carry) = a.montgomery.addingReportingCarry(b.montgomery)
        let (reduced, borrow) = sum.subtractingReportingBorrow(M.modulus)
        return FieldElement(montgomery: (carry || !borrow) ? reduced : sum)
    }

    @inline(__always) static func - (a: FieldElement, b: FieldElement) -> FieldElement {
        let (difference, borrow) = a.montgomery.subtractingReportingBorrow(b.montgomery)
        return FieldElement(montgomery: borrow ? difference.addingReportingCarry(M.modulus).sum : difference)
    }

    @inline(__always) static prefix func - (a: FieldElement) -> FieldElement { zero - a }

    /// `self^exponent`, square and multiply from the top bit (exponent a plain number).
    func power(_ exponent: UInt256) -> FieldElement {
        var result = FieldElement.one
        for index in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
            result = result.squared
            if exponent.bit(index) { result = result * self }
        }
        return result
    }

    /// The multiplicative inverse, `self^(m−2)` (Fermat); zero for zero.
    var inverse: FieldElement {
        power(M.modulus.subtractingReportingBorrow(UInt256(2)).difference)
    }
}
