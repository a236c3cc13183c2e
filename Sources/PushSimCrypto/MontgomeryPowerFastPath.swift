/// `x^e mod n` for RSA's long exponents, the speed door of RSA signing: a fixed window of 4
/// exponent bits (the 16 powers `x⁰ … x¹⁵` in Montgomery form made first, then four squarings and
/// at most one multiplication per 4 bits, instead of a multiplication per set bit: a fifth fewer
/// products for a 1024-bit exponent), and the Montgomery products (CIOS, as
/// `RSAModulusArithmetic.multiply`) done in one scratch buffer read and written through unsafe
/// pointers, with no array made per product. Every index is below the modulus' word count (or the
/// scratch's fixed size), so none can fall outside.
///
/// Contract: ``power(_:_:in:)`` gives `RSAModulusArithmetic.power` for every base below the
/// modulus and every exponent (tested in `RSAKeyDerivationTests` with seeded random numbers).
enum MontgomeryPowerFastPath {
    /// `base^exponent mod n` in `arithmetic`, for `base < n` (as many words as the modulus).
    static func power(_ base: [UInt64], _ exponent: [UInt64], in arithmetic: RSAModulusArithmetic) -> [UInt64] {
        let k = arithmetic.modulus.count
        // k words each: 16 table entries, the result; then the product's k + 2 words.
        var scratch = [UInt64](repeating: 0, count: 17 * k + k + 2)
        let one = RSAPrimeSearch.padded([1], to: k)
        let entries = [arithmetic.toMontgomery(one), arithmetic.toMontgomery(base)]
        for (index, entry) in entries.enumerated() { for (i, word) in entry.enumerated() { scratch[index * k + i] = word } }
        return scratch.withUnsafeMutableBufferPointer { buffer in
            arithmetic.modulus.withUnsafeBufferPointer { modulus in
                guard let s = buffer.baseAddress, let n = modulus.baseAddress else { return [] }
                let inverse = arithmetic.negativeInverse
                let result = s + 16 * k, t = s + 17 * k
                for i in 2..<16 { multiply(s + (i - 1) * k, s + k, n, k, inverse, t, into: s + i * k) }
                result.update(from: s, count: k)
                var started = false
                for word in exponent.reversed() {
                    for shift in stride(from: UInt64(60), through: 0, by: -4) {
                        let digit = Int(truncatingIfNeeded: (word &>> shift) & 0xF)
                        if started {
                            for _ in 0..<4 { multiply(result, result, n, k, inverse, t, into: result) }
                            if digit != 0 { multiply(result, s + digit * k, n, k, inverse, t, into: result) }
                        } else if digit != 0 {
                            result.update(from: s + digit * k, count: k)
                            started = true
                        }
                    }
                }
                return arithmetic.fromMontgomery(Array(UnsafeBufferPointer(start: result, count: k)))
            }
        }
    }

    /// `a·b·R⁻¹ mod n` into `out` (which may be `a` or `b`: it is written last), for `a, b < n` of
    /// `k` words; `t` is scratch of `k + 2` words.
    @inline(__always)
    private static func multiply(_ a: UnsafeMutablePointer<UInt64>, _ b: UnsafeMutablePointer<UInt64>, _ n: UnsafePointer<UInt64>,
                                 _ k: Int, _ negativeInverse: UInt64, _ t: UnsafeMutablePointer<UInt64>,
                                 into out: UnsafeMutablePointer<UInt64>) {
        t.update(repeating: 0, count: k + 2)
        for i in 0..<k {
            var carry: UInt64 = 0
            let bi = b[i]
            for j in 0..<k { (carry, t[j]) = MontgomeryFastPath.multiplyAdd(a[j], bi, t[j], carry) }
            var overflow: Bool
            (t[k], overflow) = t[k].addingReportingOverflow(carry)
            t[k + 1] = overflow ? 1 : 0
            let u = t[0] &* negativeInverse
            (carry, _) = MontgomeryFastPath.multiplyAdd(u, n[0], t[0], 0)
            for j in 1..<k { (carry, t[j - 1]) = MontgomeryFastPath.multiplyAdd(u, n[j], t[j], carry) }
            (t[k - 1], overflow) = t[k].addingReportingOverflow(carry)
            t[k] = t[k + 1] &+ (overflow ? 1 : 0)
        }
        // t < 2n: subtract n once when t ≥ n (a word above k, or the low words at least n's).
        var atLeastN = t[k] != 0
        if !atLeastN {
            atLeastN = true
            var j = k - 1
            while j >= 0 {
                if t[j] != n[j] {
                    atLeastN = t[j] > n[j]
                    break
                }
                j -= 1
            }
        }
        guard atLeastN else {
            out.update(from: t, count: k)
            return
        }
        var borrow = false
        for j in 0..<k { (out[j], borrow) = UInt256.subtract(t[j], n[j], borrow) }
    }
}
