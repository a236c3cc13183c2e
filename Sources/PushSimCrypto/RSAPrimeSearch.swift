/// Finding a prime for an RSA key, deterministically: from a random odd start with its top two
/// bits set, the first odd number upwards that no small prime divides, whose predecessor the
/// public exponent does not divide, and that passes Miller–Rabin (FIPS 186-4, B.3.3: a prime of
/// half the modulus' bits, at least √2·2^(bits − 1), with `p − 1` coprime to `e`; C.3.1: the test).
///
/// The bases of the Miller–Rabin rounds are the first small primes rather than random numbers:
/// the candidates are random, not chosen by an adversary, and the keys are a simulation's (see the
/// catalog: nothing here protects a secret). Every input gives the same prime, or none when the
/// search runs ``longestSearch`` steps without finding one.
enum RSAPrimeSearch {
    /// The odd primes below 2,000, by which candidates are sieved before Miller–Rabin.
    static let smallPrimes: [UInt64] = {
        var isComposite = [Bool](repeating: false, count: 2_000)
        var primes: [UInt64] = []
        for n in 3..<2_000 where n % 2 == 1 && !isComposite[n] {
            primes.append(UInt64(n))
            for multiple in stride(from: n * n, to: 2_000, by: 2 * n) { isComposite[multiple] = true }
        }
        return primes
    }()

    /// The Miller–Rabin bases: 8 rounds, each failing a composite with probability at most 1/4
    /// (far less for random candidates of this size).
    static let bases: [UInt64] = [2, 3, 5, 7, 11, 13, 17, 19]

    /// Steps (of 2) tried upwards from one start before giving up on it: the gap between primes
    /// near 2¹⁰²⁴ averages about 710, so 10,000 odd steps almost never run out.
    static let longestSearch: UInt64 = 10_000

    /// The first prime at or above the number `start` spells (big-endian), its top two bits and
    /// bottom bit set first, with `p − 1` not a multiple of `exponent` (itself prime); nil when none
    /// is found within ``longestSearch`` steps without growing past `start`'s bit length.
    static func prime(from start: [UInt8], exponent: UInt64) -> [UInt64]? {
        guard start.count >= 16 else { return nil }
        var bytes = start
        bytes[0] |= 0xC0
        bytes[bytes.count - 1] |= 1
        let first = RSAModulusArithmetic.words(bigEndian: bytes[...])
        let bitCount = 8 * bytes.count
        let remainders = smallPrimes.map { UnsignedWords.remainder(first, word: $0) }
        let exponentRemainder = UnsignedWords.remainder(first, word: exponent)
        for step in stride(from: UInt64(0), to: 2 * longestSearch, by: 2) {
            if (exponentRemainder + step) % exponent == 1 { continue }   // p − 1 ≡ 0 (mod e)
            var divisible = false
            for (index, small) in smallPrimes.enumerated() where (remainders[index] + step) % small == 0 {
                divisible = true
                break
            }
            if divisible { continue }
            let candidate = UnsignedWords.add(first, word: step)
            guard UnsignedWords.bitCount(candidate) == bitCount else { return nil }
            if isProbablePrime(candidate) { return candidate }
        }
        return nil
    }

    /// Miller–Rabin with ``bases`` (FIPS 186-4, C.3.1): with `n − 1 = 2^s·t`, `t` odd, each base
    /// `a` must give `a^t ≡ 1`, or `−1` at some `a^(2^j·t)`, `j < s`. For an odd `n` above the bases.
    static func isProbablePrime(_ n: [UInt64]) -> Bool {
        guard let arithmetic = RSAModulusArithmetic(modulusWords: n) else { return false }
        let minusOne = UnsignedWords.subtract(n, word: 1)
        let s = UnsignedWords.trailingZeroBitCount(minusOne)
        let t = UnsignedWords.shiftedRight(minusOne, by: s)
        let one = padded([1], to: n.count), last = padded(minusOne, to: n.count)
        for base in bases {
            var x = arithmetic.fastPower(padded([base], to: n.count), t)
            if x == one || x == last { continue }
            var witnessed = true
            for _ in 1..<max(s, 1) {
                x = arithmetic.square(x)
                if x == last { witnessed = false; break }
                if x == one { break }
            }
            if witnessed { return false }
        }
        return true
    }

    /// `words` with zero words added up to `count`.
    static func padded(_ words: [UInt64], to count: Int) -> [UInt64] {
        words + [UInt64](repeating: 0, count: max(0, count - words.count))
    }
}
