/// Plain arithmetic on unsigned numbers of any size, held as 64-bit words, least significant
/// first: what making an RSA key needs besides arithmetic modulo a number (`RSAModulusArithmetic`).
/// Schoolbook algorithms, nothing clever; every answer is trimmed of leading zero words (at least
/// one word is kept). Tested against `UInt64` and `UInt128`-sized cases and by the RSA keys they
/// make (`n = p·q`, `d·e ≡ 1`).
enum UnsignedWords {
    /// `words` without leading zero words (at least one word).
    static func trimmed(_ words: [UInt64]) -> [UInt64] {
        var result = words
        while result.count > 1, result.last == 0 { result.removeLast() }
        return result.isEmpty ? [0] : result
    }

    /// `a·b`.
    static func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var product = [UInt64](repeating: 0, count: a.count + b.count)
        for i in a.indices {
            var carry: UInt64 = 0
            for j in b.indices {
                (carry, product[i + j]) = MontgomeryFastPath.multiplyAdd(a[i], b[j], product[i + j], carry)
            }
            product[i + b.count] = carry
        }
        return trimmed(product)
    }

    /// `a·b` for a one-word `b`.
    static func multiply(_ a: [UInt64], byWord b: UInt64) -> [UInt64] { multiply(a, [b]) }

    /// `a + b` for a one-word `b`.
    static func add(_ a: [UInt64], word b: UInt64) -> [UInt64] { add(a, [b]) }

    /// `a + b`.
    static func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: max(a.count, b.count) + 1)
        var carry = false
        for index in 0..<(result.count - 1) {
            (result[index], carry) = UInt256.add(index < a.count ? a[index] : 0, index < b.count ? b[index] : 0, carry)
        }
        result[result.count - 1] = carry ? 1 : 0
        return trimmed(result)
    }

    /// `a − b` for a one-word `b ≤ a`.
    static func subtract(_ a: [UInt64], word b: UInt64) -> [UInt64] { subtract(a, [b]) }

    /// `a − b` for `b ≤ a`.
    static func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        trimmed(RSAModulusArithmetic.subtract(a, b + [UInt64](repeating: 0, count: max(0, a.count - b.count))))
    }

    /// `a mod m` for a nonzero one-word `m`.
    static func remainder(_ a: [UInt64], word m: UInt64) -> UInt64 {
        var remainder: UInt64 = 0
        for word in a.reversed() { remainder = m.dividingFullWidth((remainder, word)).remainder }
        return remainder
    }

    /// `a / m`, rounded down, for a nonzero one-word `m`.
    static func quotient(_ a: [UInt64], word m: UInt64) -> [UInt64] {
        var quotient = [UInt64](repeating: 0, count: a.count)
        var remainder: UInt64 = 0
        for index in a.indices.reversed() {
            (quotient[index], remainder) = m.dividingFullWidth((remainder, a[index]))
        }
        return trimmed(quotient)
    }

    /// The number of trailing zero bits of a nonzero `a`.
    static func trailingZeroBitCount(_ a: [UInt64]) -> Int {
        var count = 0
        for word in a {
            if word != 0 { return count + word.trailingZeroBitCount }
            count += 64
        }
        return count
    }

    /// `a / 2^bits`, rounded down.
    static func shiftedRight(_ a: [UInt64], by bits: Int) -> [UInt64] {
        let wordShift = bits / 64, bitShift = UInt64(bits % 64)
        guard wordShift < a.count else { return [0] }
        var result = [UInt64](repeating: 0, count: a.count - wordShift)
        for index in result.indices {
            let low = a[index + wordShift] >> bitShift
            let high = bitShift == 0 || index + wordShift + 1 >= a.count ? 0 : a[index + wordShift + 1] << (64 - bitShift)
            result[index] = low | high
        }
        return trimmed(result)
    }

    /// The number of significant bits of `a` (0 for zero).
    static func bitCount(_ a: [UInt64]) -> Int {
        let t = trimmed(a)
        return 64 * t.count - t[t.count - 1].leadingZeroBitCount
    }

    /// `a⁻¹ mod m` for a prime one-word `m` not dividing `a` (Fermat: `a^(m−2) mod m`).
    static func inverse(_ a: UInt64, modPrime m: UInt64) -> UInt64 {
        var result: UInt64 = 1, base = a % m, exponent = m - 2
        while exponent > 0 {
            if exponent & 1 == 1 { result = m.dividingFullWidth(result.multipliedFullWidth(by: base)).remainder }
            base = m.dividingFullWidth(base.multipliedFullWidth(by: base)).remainder
            exponent >>= 1
        }
        return result
    }
}
