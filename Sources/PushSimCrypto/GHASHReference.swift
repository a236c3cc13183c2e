/// A 128-bit block of GCM as two big-endian 64-bit halves: `high` holds bytes 0–7. In GCM's bit
/// order the first bit of byte 0 is the coefficient of `x⁰` (NIST SP 800-38D, 6.3).
struct GCMBlock: Equatable, Sendable {
    var high: UInt64
    var low: UInt64

    static let zero = GCMBlock(high: 0, low: 0)

    static func ^ (a: GCMBlock, b: GCMBlock) -> GCMBlock { GCMBlock(high: a.high ^ b.high, low: a.low ^ b.low) }

    /// The block times `x` in GF(2¹²⁸) (a right shift in GCM's bit order, then the reduction by
    /// `R = 11100001 || 0¹²⁰` when a bit falls off, SP 800-38D 6.3).
    var timesX: GCMBlock {
        let carry = low & 1
        let shifted = GCMBlock(high: high >> 1, low: low >> 1 | high << 63)
        return carry == 0 ? shifted : GCMBlock(high: shifted.high ^ 0xE100_0000_0000_0000, low: shifted.low)
    }
}

/// Multiplication in GF(2¹²⁸) bit by bit, NIST SP 800-38D Algorithm 1: the plain way, which
/// `GHASHFastPath` must agree with.
enum GHASHReference {
    /// `x · y`.
    static func multiply(_ x: GCMBlock, _ y: GCMBlock) -> GCMBlock {
        var z = GCMBlock.zero
        var v = y
        for index in 0..<128 {
            let word = index < 64 ? x.high : x.low
            if (word >> UInt64(63 - index % 64)) & 1 == 1 { z = z ^ v }
            v = v.timesX
        }
        return z
    }
}
