/// Arithmetic modulo an RSA modulus of any size: numbers as arrays of 64-bit words, least
/// significant first, all below the modulus; `power` by square and multiply in Montgomery form
/// (the CIOS loop of `MontgomeryFastPath`, with as many words as the modulus has).
///
/// Only what signatures need: reading and writing big-endian bytes, comparison, and `x^e mod n`.
/// Not constant time. Tested against `UInt64` arithmetic for one-word moduli and by the RSA
/// vectors (Wycheproof, and OpenSSL's signatures with RFC 9421's test key).
struct RSAModulusArithmetic: Sendable {
    /// The modulus `n`, odd, its top word nonzero.
    let modulus: [UInt64]
    /// `−n⁻¹ mod 2⁶⁴`.
    let negativeInverse: UInt64
    /// `R² mod n` with `R = 2^(64·words)`.
    private let rSquared: [UInt64]

    /// The arithmetic modulo `n` (big-endian bytes); nil unless `n` is odd and above 1.
    init?(modulus bytes: ArraySlice<UInt8>) { self.init(modulusWords: RSAModulusArithmetic.words(bigEndian: bytes)) }

    /// The arithmetic modulo `n` (words, least significant first, no leading zero words); nil
    /// unless `n` is odd and above 1.
    init?(modulusWords n: [UInt64]) {
        guard let low = n.first, low & 1 == 1, n.count > 1 || low > 1 else { return nil }
        modulus = n
        // Newton's iteration for n⁻¹ mod 2⁶⁴: each step doubles the correct low bits (n·n ≡ 1 mod 8 starts with 3).
        var inverse = low
        for _ in 0..<5 { inverse = inverse &* (2 &- low &* inverse) }
        negativeInverse = 0 &- inverse
        // R² mod n by doubling 1 modulo n, 2·64·words times.
        var value = [UInt64](repeating: 0, count: n.count)
        value[0] = 1
        for _ in 0..<(128 * n.count) { value = RSAModulusArithmetic.doubled(value, modulo: n) }
        rSquared = value
    }

    /// `R mod n`: 1 in Montgomery form.
    var montgomeryOne: [UInt64] { toMontgomery(RSAPrimeSearch.padded([1], to: modulus.count)) }

    /// `a·R mod n`, for `a < n`.
    func toMontgomery(_ a: [UInt64]) -> [UInt64] { multiply(a, rSquared) }

    /// `a·R⁻¹ mod n`: a number out of Montgomery form.
    func fromMontgomery(_ a: [UInt64]) -> [UInt64] { multiply(a, RSAPrimeSearch.padded([1], to: modulus.count)) }

    /// The byte length of the modulus (RFC 8017's `k`).
    var byteCount: Int { (bitCount + 7) / 8 }

    var bitCount: Int { 64 * modulus.count - (modulus.last ?? 0).leadingZeroBitCount }

    /// The number big-endian `bytes` spell, as `modulus.count` words; nil when it does not fit.
    func number(_ bytes: ArraySlice<UInt8>) -> [UInt64]? {
        var words = RSAModulusArithmetic.words(bigEndian: bytes)
        guard words.count <= modulus.count else { return nil }
        words += [UInt64](repeating: 0, count: modulus.count - words.count)
        return words
    }

    /// Whether `a < n`.
    func isReduced(_ a: [UInt64]) -> Bool { RSAModulusArithmetic.compare(a, modulus) < 0 }

    /// `base^exponent mod n`, for `base < n`: square and multiply from the exponent's top set bit
    /// (its leading zeros cost nothing, so `e = 65537` takes 17 squarings).
    func power(_ base: [UInt64], _ exponent: [UInt64]) -> [UInt64] {
        let baseMontgomery = multiply(base, rSquared)
        var one = [UInt64](repeating: 0, count: modulus.count)
        one[0] = 1
        var result = multiply(one, rSquared)
        var started = false
        for wordIndex in stride(from: exponent.count - 1, through: 0, by: -1) {
            for bit in stride(from: 63, through: 0, by: -1) {
                if started { result = multiply(result, result) }
                if (exponent[wordIndex] >> UInt64(bit)) & 1 == 1 {
                    result = started ? multiply(result, baseMontgomery) : baseMontgomery
                    started = true
                }
            }
        }
        return multiply(result, one)
    }

    /// `base^exponent mod n`, for `base < n`: by `MontgomeryPowerFastPath` (the same answer as
    /// ``power(_:_:)``, with a fifth fewer products) for an exponent longer than one word, by
    /// ``power(_:_:)`` for a short one such as `e = 65537`, where making the window's 16 powers
    /// would cost more than it saves.
    func fastPower(_ base: [UInt64], _ exponent: [UInt64]) -> [UInt64] {
        UnsignedWords.trimmed(exponent).count > 1 ? MontgomeryPowerFastPath.power(base, exponent, in: self) : power(base, exponent)
    }

    /// `t·R⁻¹ mod n` for a `t` of up to twice the modulus' words below `n·R` (Montgomery's REDC):
    /// with ``square(_:)``'s `R²` it reduces a number twice the modulus' size, as the Chinese
    /// remainder signing reduces a message modulo each prime.
    func reduceWide(_ t: [UInt64]) -> [UInt64] {
        let n = modulus, k = n.count
        var wide = t + [UInt64](repeating: 0, count: max(0, 2 * k + 1 - t.count))
        for i in 0..<k {
            let u = wide[i] &* negativeInverse
            var carry: UInt64 = 0
            for j in 0..<k { (carry, wide[i + j]) = MontgomeryFastPath.multiplyAdd(u, n[j], wide[i + j], carry) }
            var index = i + k
            while carry != 0 && index < wide.count {
                let (sum, overflow) = wide[index].addingReportingOverflow(carry)
                wide[index] = sum
                carry = overflow ? 1 : 0
                index += 1
            }
        }
        let result = Array(wide[k..<(2 * k)])
        return (wide[2 * k] != 0 || !isReduced(result)) ? RSAModulusArithmetic.subtract(result, n) : result
    }

    /// `t mod n` for a `t` of up to twice the modulus' words below `n·R`.
    func remainder(_ t: [UInt64]) -> [UInt64] { multiply(reduceWide(t), rSquared) }

    /// `a·b mod n`, for `a, b < n`.
    func multiplyReduced(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] { multiply(multiply(a, b), rSquared) }

    /// `a² mod n`, for `a < n` (two Montgomery products: `a·a·R⁻¹`, then `·R²·R⁻¹`).
    func square(_ a: [UInt64]) -> [UInt64] { multiplyReduced(a, a) }

    /// `a·b·R⁻¹ mod n` (CIOS, for `a, b < n`).
    func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let n = modulus, k = n.count
        var t = [UInt64](repeating: 0, count: k + 2)
        for i in 0..<k {
            var carry: UInt64 = 0
            for j in 0..<k { (carry, t[j]) = MontgomeryFastPath.multiplyAdd(a[j], b[i], t[j], carry) }
            var overflow: Bool
            (t[k], overflow) = t[k].addingReportingOverflow(carry)
            t[k + 1] = overflow ? 1 : 0
            let u = t[0] &* negativeInverse
            (carry, _) = MontgomeryFastPath.multiplyAdd(u, n[0], t[0], 0)
            for j in 1..<k { (carry, t[j - 1]) = MontgomeryFastPath.multiplyAdd(u, n[j], t[j], carry) }
            (t[k - 1], overflow) = t[k].addingReportingOverflow(carry)
            t[k] = t[k + 1] &+ (overflow ? 1 : 0)
        }
        let result = Array(t[0..<k])
        return (t[k] != 0 || !isReduced(result)) ? RSAModulusArithmetic.subtract(result, n) : result
    }

    /// `value`'s `count` big-endian bytes (RFC 8017's I2OSP); `value` must fit.
    static func bytes(_ value: [UInt64], count: Int) -> [UInt8] {
        (0..<count).reversed().map { position in
            let word = position / 8 < value.count ? value[position / 8] : 0
            return UInt8(truncatingIfNeeded: word >> UInt64(8 * (position % 8)))
        }
    }

    /// The words of big-endian `bytes`, without leading zero words (at least one word).
    static func words(bigEndian bytes: ArraySlice<UInt8>) -> [UInt64] {
        var words: [UInt64] = []
        var word: UInt64 = 0
        for (position, byte) in bytes.reversed().enumerated() {
            word |= UInt64(byte) << UInt64(8 * (position % 8))
            if position % 8 == 7 {
                words.append(word)
                word = 0
            }
        }
        if bytes.count % 8 != 0 { words.append(word) }
        while words.count > 1, words.last == 0 { words.removeLast() }
        return words.isEmpty ? [0] : words
    }

    /// −1, 0 or 1 as `a` is below, equal to or above `b` (the same word count, or zeros beyond).
    static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
        for index in stride(from: max(a.count, b.count) - 1, through: 0, by: -1) {
            let x = index < a.count ? a[index] : 0, y = index < b.count ? b[index] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// `a − b` modulo 2^(64·count), `a` and `b` of the same count.
    static func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = a
        var borrow = false
        for index in result.indices {
            (result[index], borrow) = UInt256.subtract(a[index], b[index], borrow)
        }
        return result
    }

    /// `2a mod n` for `a < n`.
    private static func doubled(_ a: [UInt64], modulo n: [UInt64]) -> [UInt64] {
        var result = a
        var carry = false
        for index in result.indices { (result[index], carry) = UInt256.add(a[index], a[index], carry) }
        return (carry || compare(result, n) >= 0) ? subtract(result, n) : result
    }
}
