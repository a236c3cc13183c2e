/// Modular arithmetic on 256-bit numbers done the plain way: the schoolbook 512-bit product and a
/// bit-by-bit remainder (shift in one bit, subtract the modulus when it fits). Slow and obvious:
/// the yardstick `MontgomeryFastPath` is tested against, and the way the Montgomery constants of
/// ``PrimeModulus`` are checked.
enum ModularReference {
    /// `a·b mod m`, for any `a`, `b` and a nonzero `m`.
    static func multiply(_ a: UInt256, _ b: UInt256, modulus m: UInt256) -> UInt256 {
        remainder(product(a, b), modulus: m)
    }

    /// The 512-bit product of `a` and `b`, as eight 64-bit words, least significant first.
    static func product(_ a: UInt256, _ b: UInt256) -> [UInt64] {
        let x = [a.w0, a.w1, a.w2, a.w3], y = [b.w0, b.w1, b.w2, b.w3]
        var words = [UInt64](repeating: 0, count: 8)
        for i in 0..<4 {
            var carry: UInt64 = 0
            for j in 0..<4 {
                let (high, low) = x[i].multipliedFullWidth(by: y[j])
                let (sum1, overflow1) = low.addingReportingOverflow(words[i + j])
                let (sum2, overflow2) = sum1.addingReportingOverflow(carry)
                words[i + j] = sum2
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
            }
            words[i + 4] = carry
        }
        return words
    }

    /// The remainder of the number that `words` spell (least significant first) divided by `m`.
    static func remainder(_ words: [UInt64], modulus m: UInt256) -> UInt256 {
        var r = UInt256.zero
        for index in stride(from: words.count * 64 - 1, through: 0, by: -1) {
            let bit = (words[index / 64] >> UInt64(index % 64)) & 1
            // r < m, so 2r + bit < 2m: at most one subtraction (the carry is the 257th bit).
            var (doubled, carry) = r.addingReportingCarry(r)
            doubled.w0 |= bit
            let (reduced, borrow) = doubled.subtractingReportingBorrow(m)
            r = (carry || !borrow) ? reduced : doubled
        }
        return r
    }

    /// `base^exponent mod m`, by square and multiply from the top bit.
    static func power(_ base: UInt256, _ exponent: UInt256, modulus m: UInt256) -> UInt256 {
        var result = remainder([1], modulus: m)
        for index in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
            result = multiply(result, result, modulus: m)
            if exponent.bit(index) { result = multiply(result, base, modulus: m) }
        }
        return result
    }
}
