/// RSA signing by the Chinese remainder theorem (RFC 8017, 5.2.1 step 2b): `m^dP mod p` and
/// `m^dQ mod q`, recombined with `qInv`, instead of `m^d mod n`. Two exponentiations with half the
/// words and half the exponent bits cost about a quarter of one full one, which matters for a
/// simulation whose hub signs a Google assertion every hour of virtual time.
///
/// Contract: the same signature as the plain `m^d mod n` (``RSAPrivateKey/signature(for:)``
/// checks each against the public key and falls back to the plain power when a key's CRT values
/// do not fit its `d`, as a hand-edited key's might; `RSAKeyDerivationTests` compares both).
struct RSACRTFastPath: Sendable {
    let modP: RSAModulusArithmetic, modQ: RSAModulusArithmetic
    let q: [UInt64], dP: [UInt64], dQ: [UInt64], qInv: [UInt64]

    /// The CRT values of a key, or nil when they cannot be used: `p` and `q` odd, above 1, whose
    /// product is `n`, `p > q` (so that `m mod q` stays below `p`) with as many words as `q` (so
    /// that a number below `n` is below `q·R` and one Montgomery reduction takes it below `2q`),
    /// and `qInv` below `p`.
    init?(modulus n: [UInt64], components c: RSAPrivateKey.Components) {
        let words = { (bytes: [UInt8]) in RSAModulusArithmetic.words(bigEndian: bytes[...]) }
        let p = words(c.p), q = words(c.q)
        guard UnsignedWords.multiply(p, q) == UnsignedWords.trimmed(n), RSAModulusArithmetic.compare(p, q) > 0, p.count == q.count,
              let modP = RSAModulusArithmetic(modulusWords: p), let modQ = RSAModulusArithmetic(modulusWords: q),
              let qInv = modP.number(c.qInv[...]), modP.isReduced(qInv) else { return nil }
        self.modP = modP
        self.modQ = modQ
        self.q = q
        self.dP = words(c.dP)
        self.dQ = words(c.dQ)
        self.qInv = qInv
    }

    /// `m^d mod n` for `m < n` (as words): `s₁ = (m mod p)^dP mod p`, `s₂ = (m mod q)^dQ mod q`,
    /// `h = qInv·(s₁ − s₂) mod p`, `s = s₂ + q·h`.
    func power(_ m: [UInt64]) -> [UInt64] {
        let s1 = modP.fastPower(modP.remainder(m), dP)
        let s2 = modQ.fastPower(modQ.remainder(m), dQ)
        let s2ModP = RSAPrimeSearch.padded(UnsignedWords.trimmed(s2), to: s1.count)   // s₂ < q < p
        // (s₁ − s₂) mod p, both below p: s₁ − s₂, or p − (s₂ − s₁).
        let difference = RSAModulusArithmetic.compare(s1, s2ModP) >= 0
            ? RSAModulusArithmetic.subtract(s1, s2ModP)
            : RSAModulusArithmetic.subtract(modP.modulus, RSAModulusArithmetic.subtract(s2ModP, s1))
        let h = modP.multiplyReduced(qInv, difference)
        return UnsignedWords.add(UnsignedWords.trimmed(s2), UnsignedWords.multiply(UnsignedWords.trimmed(h), q))
    }
}
