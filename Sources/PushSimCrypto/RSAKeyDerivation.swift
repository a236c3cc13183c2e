extension RSAPrivateKey {
    /// The public exponent of every key made here: 65537, as Google's service-account keys have.
    static let derivedExponent: UInt64 = 65_537

    /// An RSA key made deterministically from `seed`: the same seed always gives the same key, byte
    /// for byte, so a simulation that needs one (a Google service account of its own) stays
    /// reproducible without drawing random numbers.
    ///
    /// Each prime starts from `HKDF-SHA256(seed, salt "PushSim RSA prime", info = attempt number)`
    /// (RFC 5869) and is found by `RSAPrimeSearch` (FIPS 186-4, B.3.3 and C.3.1); `p > q`; then
    /// `n = p·q`, `e = 65537`, `d = e⁻¹ mod (p − 1)(q − 1)`, `dP = e⁻¹ mod (p − 1)`, `dQ = e⁻¹ mod
    /// (q − 1)` and `qInv = q⁻¹ mod p`, the values of RFC 8017's `RSAPrivateKey` (A.1.2).
    ///
    /// Slow: a 2048-bit key takes a fraction of a second in a release build and several seconds in
    /// a debug one (two prime searches of some fifty Miller–Rabin rounds each). Make it once and keep it.
    ///
    /// - Parameters:
    ///   - seed: any bytes; the same bytes always give the same key.
    ///   - modulusBitCount: 1024 to 4096, a multiple of 128 (default 2048).
    public init(derivedFrom seed: [UInt8], modulusBitCount: Int = 2048) throws {
        guard (1_024...4_096).contains(modulusBitCount), modulusBitCount % 128 == 0 else {
            throw CryptoError.invalidLength("a derived RSA modulus is 1024 to 4096 bits, a multiple of 128, not \(modulusBitCount)")
        }
        let e = Self.derivedExponent
        var primes: [[UInt64]] = []
        for attempt in 0..<UInt8(64) where primes.count < 2 {
            let start = try HKDF.deriveKey(inputKeyingMaterial: seed, salt: Array("PushSim RSA prime".utf8), info: [attempt],
                                           length: modulusBitCount / 16)
            if let prime = RSAPrimeSearch.prime(from: start, exponent: e), !primes.contains(prime) { primes.append(prime) }
        }
        guard primes.count == 2 else { throw CryptoError.invalidScalar("no primes found for this seed") }
        let (p, q) = RSAModulusArithmetic.compare(primes[0], primes[1]) > 0 ? (primes[0], primes[1]) : (primes[1], primes[0])
        let pMinusOne = UnsignedWords.subtract(p, word: 1), qMinusOne = UnsignedWords.subtract(q, word: 1)
        guard let modP = RSAModulusArithmetic(modulusWords: p) else { throw CryptoError.invalidScalar("an even prime") }
        // q < p and both have the same number of words, so q is already reduced mod p.
        let qInv = modP.power(RSAPrimeSearch.padded(q, to: p.count), UnsignedWords.subtract(p, word: 2))
        let bytes = { (words: [UInt64]) in Self.bigEndian(words) }
        try self.init(modulus: bytes(UnsignedWords.multiply(p, q)), exponent: bytes([e]), components: Components(
            d: bytes(Self.inverseOfExponent(e, modulo: UnsignedWords.multiply(pMinusOne, qMinusOne))),
            p: bytes(p), q: bytes(q),
            dP: bytes(Self.inverseOfExponent(e, modulo: pMinusOne)), dQ: bytes(Self.inverseOfExponent(e, modulo: qMinusOne)),
            qInv: bytes(qInv)))
    }

    /// `e⁻¹ mod m` for a prime `e` that does not divide `m`: `(1 + k·m) / e` with `k = −m⁻¹ mod e`,
    /// which makes the numerator a multiple of `e` (and the answer below `m`, as `k < e`).
    static func inverseOfExponent(_ e: UInt64, modulo m: [UInt64]) -> [UInt64] {
        let k = (e - UnsignedWords.inverse(UnsignedWords.remainder(m, word: e), modPrime: e)) % e
        return UnsignedWords.quotient(UnsignedWords.add(UnsignedWords.multiply(m, byWord: k), word: 1), word: e)
    }

    /// The big-endian bytes of `words`, without leading zero bytes (one zero byte for zero).
    static func bigEndian(_ words: [UInt64]) -> [UInt8] {
        let trimmed = UnsignedWords.trimmed(words)
        let bytes = RSAModulusArithmetic.bytes(trimmed, count: 8 * trimmed.count)
        let significant = Array(bytes.drop { $0 == 0 })
        return significant.isEmpty ? [0] : significant
    }
}
