/// GHASH's multiplication by the hash key `H` eight bits at a time (Shoup's method with 8-bit
/// tables, as in the GCM specification of McGrew and Viega, section 4.1): the 256 multiples of
/// `H` by an 8-bit polynomial and the 256 reductions of the byte a shift by `x⁸` pushes off are
/// computed once per key (4 KiB), so a block costs 16 shifts and look-ups instead of 128
/// conditional XORs.
///
/// Contract: ``multiply(_:)`` equals `GHASHReference.multiply(x, H)` for every `x` (tested in
/// `AESGCMTests` with seeded random blocks and keys).
struct GHASHFastPath: Sendable {
    /// `multiplesHigh[v]`, `multiplesLow[v]`: the 8-bit polynomial of byte `v` (its top bit the
    /// lowest degree, GCM's bit order) times `H`.
    private let multiplesHigh: [UInt64]
    private let multiplesLow: [UInt64]
    /// `reductions[v]`: byte `v` in the last eight bit positions, times `x⁸`; only the top word
    /// (in fact its top 16 bits) is nonzero.
    private let reductions: [UInt64]

    init(hashKey h: GCMBlock) {
        // Bit 7 of a byte (value 128) is its lowest degree: 128 → H, 64 → H·x, …, 1 → H·x⁷.
        var multiples = [GCMBlock](repeating: .zero, count: 256)
        var power = h
        for bit in stride(from: 7, through: 0, by: -1) {
            multiples[1 << bit] = power
            power = power.timesX
        }
        for value in 1..<256 where value & (value - 1) != 0 {
            let lowestBit = value & -value
            multiples[value] = multiples[lowestBit] ^ multiples[value ^ lowestBit]
        }
        multiplesHigh = multiples.map(\.high)
        multiplesLow = multiples.map(\.low)
        reductions = (0..<256).map { value in
            var block = GCMBlock(high: 0, low: UInt64(value))
            for _ in 0..<8 { block = block.timesX }
            return block.high
        }
    }

    /// `x · H`, by Horner's rule over the 16 bytes from the last (highest degrees) to the first.
    @inline(__always)
    func multiply(_ x: GCMBlock) -> GCMBlock {
        let tableHigh = multiplesHigh, tableLow = multiplesLow, reduce = reductions
        var high: UInt64 = 0, low: UInt64 = 0
        for index in stride(from: 15, through: 0, by: -1) {
            let word = index < 8 ? x.high : x.low
            let byte = Int(truncatingIfNeeded: word >> UInt64(56 - 8 * (index & 7))) & 0xFF
            // (high, low) · x⁸: shift right by eight, fold the byte that fell off back in.
            let fallen = Int(truncatingIfNeeded: low) & 0xFF
            low = low >> 8 | high << 56
            high = high >> 8 ^ reduce[fallen] ^ tableHigh[byte]
            low ^= tableLow[byte]
        }
        return GCMBlock(high: high, low: low)
    }
}
