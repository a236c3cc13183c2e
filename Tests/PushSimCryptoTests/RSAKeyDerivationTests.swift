import Testing
import PushSimKernel
@testable import PushSimCrypto

/// Making RSA keys from a seed: the multi-word arithmetic it rests on, the prime search, and the
/// key's consistency (`n = p·q`, `d·e ≡ 1`, the CRT values), on 1024-bit keys (a 2048-bit one takes
/// seconds in a debug build; `tools/key-writing-check.sh` has OpenSSL check one).
@Suite("RSA key derivation")
struct RSAKeyDerivationTests {
    @Test func unsignedWordsAgreeWithFullWidthArithmetic() {
        var random = SeededRandom(seed: 43)
        for _ in 0..<200 {
            let a = random.next(), b = random.next(), small = random.next() >> 40 | 1
            let product = a.multipliedFullWidth(by: b)
            #expect(UnsignedWords.multiply([a], [b]) == UnsignedWords.trimmed([product.low, product.high]))
            let wide = [product.low, product.high]
            #expect(UnsignedWords.remainder(wide, word: small) == small.dividingFullWidth((product.high % small, product.low)).remainder)
            let quotient = UnsignedWords.quotient(wide, word: small)
            let back = UnsignedWords.add(UnsignedWords.multiply(quotient, byWord: small), word: UnsignedWords.remainder(wide, word: small))
            #expect(back == UnsignedWords.trimmed(wide))
            #expect(UnsignedWords.subtract(UnsignedWords.add(wide, word: small), word: small) == UnsignedWords.trimmed(wide))
            #expect(UnsignedWords.shiftedRight([0, a], by: 64) == [a])
        }
        #expect(UnsignedWords.inverse(3, modPrime: 65_537) * 3 % 65_537 == 1)
        #expect(UnsignedWords.trailingZeroBitCount([0, 8]) == 67)
        #expect(UnsignedWords.bitCount([0, 1]) == 65)
    }

    @Test func millerRabinKnowsPrimesFromComposites() {
        // 2¹²⁷ − 1 is a Mersenne prime; 2¹²⁸ + 1 = 59649589127497217 · 5704689200685129054721.
        #expect(RSAPrimeSearch.isProbablePrime([UInt64.max, UInt64.max >> 1]))
        #expect(!RSAPrimeSearch.isProbablePrime([1, 0, 1]))
        // A Carmichael number, 561 = 3·11·17, fools Fermat but not Miller–Rabin.
        #expect(!RSAPrimeSearch.isProbablePrime([561]))
        #expect(RSAPrimeSearch.isProbablePrime([65_537]))
    }

    @Test func derivedKeyIsConsistentAndReproducible() throws {
        let seed = Array("pushsim test service account".utf8)
        let key = try RSAPrivateKey(derivedFrom: seed, modulusBitCount: 1_024)
        #expect(key.publicKey.modulusBitCount == 1_024)
        #expect(key.publicKey.exponent == [0x01, 0x00, 0x01])
        let c = key.components
        let words = { (bytes: [UInt8]) in RSAModulusArithmetic.words(bigEndian: bytes[...]) }
        #expect(UnsignedWords.multiply(words(c.p), words(c.q)) == words(key.publicKey.modulus))
        // d·e ≡ 1 modulo p − 1 and q − 1, and so are dP·e and dQ·e.
        for (exponent, prime) in [(c.d, c.p), (c.d, c.q), (c.dP, c.p), (c.dQ, c.q)] {
            let primeMinusOne = UnsignedWords.subtract(words(prime), word: 1)
            let product = UnsignedWords.multiply(words(exponent), [65_537])
            #expect(Self.remainder(product, primeMinusOne) == [1])
        }
        // q·qInv ≡ 1 (mod p).
        #expect(Self.remainder(UnsignedWords.multiply(words(c.q), words(c.qInv)), words(c.p)) == [1])
        let message = Array("assertion".utf8)
        #expect(key.publicKey.isValidSignature(key.signature(for: message), for: message))
        #expect(try RSAPrivateKey(derivedFrom: seed, modulusBitCount: 1_024) == key)
        #expect(try AsymmetricPrivateKey(pem: AsymmetricPrivateKey.rsa(key).pkcs8PEMRepresentation) == .rsa(key))
    }

    @Test func unusableSizesAreRefused() {
        #expect(throws: CryptoError.self) { try RSAPrivateKey(derivedFrom: [1], modulusBitCount: 1_000) }
        #expect(throws: CryptoError.self) { try RSAPrivateKey(derivedFrom: [1], modulusBitCount: 512) }
    }

    /// `a mod m` by schoolbook shift-and-subtract (the test's own reference, bit by bit).
    static func remainder(_ a: [UInt64], _ m: [UInt64]) -> [UInt64] {
        var r: [UInt64] = [0]
        for bit in stride(from: UnsignedWords.bitCount(a) - 1, through: 0, by: -1) {
            r = UnsignedWords.add(UnsignedWords.multiply(r, byWord: 2), word: (a[bit / 64] >> UInt64(bit % 64)) & 1)
            if RSAModulusArithmetic.compare(r, m) >= 0 { r = UnsignedWords.subtract(r, m) }
        }
        return r
    }
}

extension RSAKeyDerivationTests {
    @Test func chineseRemainderSigningGivesThePlainPowersSignature() throws {
        let key = try RSAPrivateKey(derivedFrom: Array("crt".utf8), modulusBitCount: 1_024)
        let crt = try #require(RSACRTFastPath(modulus: key.publicKey.arithmetic.modulus, components: key.components))
        let arithmetic = key.publicKey.arithmetic
        let d = try #require(arithmetic.number(key.components.d[...]))
        var random = SeededRandom(seed: 6979)
        for _ in 0..<8 {
            let m = try #require(arithmetic.number(TestBytes.random(127, &random)[...]))
            #expect(crt.power(m) == UnsignedWords.trimmed(arithmetic.power(m, d)))
        }
        // A key whose CRT values do not fit (a wrong qInv) still signs right, by the plain power.
        var broken = key.components
        broken.qInv = [3]
        let odd = try RSAPrivateKey(modulus: key.publicKey.modulus, exponent: key.publicKey.exponent, components: broken)
        let message = Array("assertion".utf8)
        #expect(odd.signature(for: message) == key.signature(for: message))
    }
}

/// The keys kept already made are the ones their seeds derive (each takes seconds in a debug build).
@Suite("Derived key memo")
struct DerivedKeyMemoTests {
    @Test(arguments: [DerivedKeyMemo.sampleServiceAccountSeed, DerivedKeyMemo.wrongServiceAccountSeed])
    func keptKeyIsWhatItsSeedDerives(seed: String) throws {
        let kept = DerivedKeyMemo.rsaKey(derivedFrom: seed)
        #expect(kept == (try RSAPrivateKey(derivedFrom: Array(seed.utf8))))
        #expect(kept.publicKey.modulusBitCount == 2048)
    }

    @Test func theTwoSampleKeysDiffer() {
        #expect(DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.sampleServiceAccountSeed).publicKey
                != DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.wrongServiceAccountSeed).publicKey)
    }
}

extension RSAKeyDerivationTests {
    /// The windowed power in unsafe buffers gives the plain square-and-multiply's answer, for
    /// moduli of one to 32 words and exponents of every length.
    @Test func windowedPowerAgreesWithThePlainPower() throws {
        var random = SeededRandom(seed: 20261128)
        for words in [1, 2, 3, 16, 32] {
            var modulus = (0..<words).map { _ in random.next() }
            modulus[0] |= 1
            modulus[words - 1] |= 1 << 63
            let arithmetic = try #require(RSAModulusArithmetic(modulusWords: modulus))
            for exponentWords in [1, 2, words, words + 1] {
                var base = (0..<words).map { _ in random.next() }
                base[words - 1] >>= 1   // below the modulus
                let exponent = (0..<exponentWords).map { _ in random.next() }
                #expect(MontgomeryPowerFastPath.power(base, exponent, in: arithmetic) == arithmetic.power(base, exponent),
                        "\(words) words, exponent \(exponentWords) words")
            }
            #expect(MontgomeryPowerFastPath.power(RSAPrimeSearch.padded([3], to: words), [0, 0], in: arithmetic)
                    == RSAPrimeSearch.padded([1], to: words))
        }
    }
}
