import Testing
import PushSimKernel
@testable import PushSimCrypto

/// AES-128 against FIPS 197, AES-128-GCM against the GCM specification's test cases 1–4
/// (McGrew and Viega, "The Galois/Counter Mode of Operation", appendix B), and the fast paths
/// against their plain references.
@Suite("AES-128 and AES-128-GCM")
struct AESGCMTests {
    func encrypt(_ cipher: AES128FastPath, _ block: [UInt8]) -> [UInt8] {
        let words = (0..<4).map { i in (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(block[4 * i + $1]) } }
        let out = cipher.encrypt(words[0], words[1], words[2], words[3])
        return [out.0, out.1, out.2, out.3].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// FIPS 197 appendix B and C.1, and the GCM specification's H for the zero key.
    @Test(arguments: [
        ("2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734", "3925841d02dc09fbdc118597196a0b32"),
        ("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"),
        ("00000000000000000000000000000000", "00000000000000000000000000000000", "66e94bd4ef8a2c3b884cfa59ca342b2e"),
    ])
    func fips197(key: String, plaintext: String, ciphertext: String) {
        #expect(TestBytes.hex(AES128Reference(key: TestBytes.hex(key)).encrypt(TestBytes.hex(plaintext))) == ciphertext)
        #expect(TestBytes.hex(encrypt(AES128FastPath(key: TestBytes.hex(key)), TestBytes.hex(plaintext))) == ciphertext)
    }

    @Test func sBoxFromItsDefinition() {
        // FIPS 197, figure 7: S(0x00) = 0x63, S(0x53) = 0xed, S(0xff) = 0x16.
        #expect(AES128Reference.sBox[0x00] == 0x63)
        #expect(AES128Reference.sBox[0x53] == 0xED)
        #expect(AES128Reference.sBox[0xFF] == 0x16)
        #expect(Set(AES128Reference.sBox).count == 256)
    }

    /// The T-table contract: the same blocks as the byte-by-byte cipher.
    @Test func fastPathAgreesWithReference() {
        var random = SeededRandom(seed: 0x5eed_0401)
        for _ in 0..<40 {
            let key = TestBytes.random(16, &random), block = TestBytes.random(16, &random)
            #expect(encrypt(AES128FastPath(key: key), block) == AES128Reference(key: key).encrypt(block))
        }
    }

    /// The 8-bit table contract: the same products as bit-by-bit multiplication.
    @Test func ghashFastPathAgreesWithReference() {
        var random = SeededRandom(seed: 0x5eed_0402)
        for _ in 0..<40 {
            let h = GCMBlock(high: random.next(), low: random.next())
            let x = GCMBlock(high: random.next(), low: random.next())
            #expect(GHASHFastPath(hashKey: h).multiply(x) == GHASHReference.multiply(x, h))
        }
        let one = GCMBlock(high: 1 << 63, low: 0)   // the polynomial 1
        let h = GCMBlock(high: 0x66e94bd4ef8a2c3b, low: 0x884cfa59ca342b2e)
        #expect(GHASHReference.multiply(one, h) == h)
        #expect(GHASHFastPath(hashKey: h).multiply(one) == h)
    }

    static let k = "feffe9928665731c6d6a8f9467308308"
    static let p64 = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    static let c64 = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985"

    /// Test cases 1–4: (K, P, IV, A, C, T).
    @Test(arguments: [
        ("00000000000000000000000000000000", "", "000000000000000000000000", "", "", "58e2fccefa7e3061367f1d57a4e7455a"),
        ("00000000000000000000000000000000", "00000000000000000000000000000000", "000000000000000000000000", "",
         "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"),
        (k, p64, "cafebabefacedbaddecaf888", "", c64, "4d5c2af327cd64a62cf35abd2ba6fab4"),
        (k, String(p64.dropLast(8)), "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
         String(c64.dropLast(8)), "5bc94fbc3221a5db94fae95ae7121a47"),
    ])
    func gcmSpecification(key: String, plaintext: String, nonce: String, data: String, ciphertext: String, tag: String) throws {
        let gcm = try AES128GCM(key: TestBytes.hex(key))
        let sealed = try gcm.seal(TestBytes.hex(plaintext), nonce: TestBytes.hex(nonce), authenticating: TestBytes.hex(data))
        #expect(TestBytes.hex(sealed.ciphertext) == ciphertext)
        #expect(TestBytes.hex(sealed.tag) == tag)
        let opened = try gcm.open(TestBytes.hex(ciphertext), tag: TestBytes.hex(tag), nonce: TestBytes.hex(nonce), authenticating: TestBytes.hex(data))
        #expect(opened == TestBytes.hex(plaintext))
    }

    /// Test cases 5 and 6 (the same key and text, a 64-bit and a 480-bit IV): J₀ by GHASH.
    @Test func nonceOtherThan96Bits() throws {
        let gcm = try AES128GCM(key: TestBytes.hex(Self.k))
        let data = TestBytes.hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let plaintext = Array(TestBytes.hex(Self.p64).dropLast(4))
        let short = try gcm.seal(plaintext, nonce: TestBytes.hex("cafebabefacedbad"), authenticating: data)
        #expect(TestBytes.hex(short.tag) == "3612d2e79e3b0785561be14aaca2fccb")
        let long = try gcm.seal(plaintext, nonce: TestBytes.hex("9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"), authenticating: data)
        #expect(TestBytes.hex(long.tag) == "619cc5aefffe0bfa462af43c1699d050")
    }

    /// A changed tag, ciphertext, additional data or nonce is refused, and no plaintext comes out.
    @Test func tamperingIsRefused() throws {
        var random = SeededRandom(seed: 0x5eed_0403)
        let gcm = try AES128GCM(key: TestBytes.random(16, &random))
        let nonce = TestBytes.random(12, &random), data = TestBytes.random(5, &random)
        for length in [0, 1, 15, 16, 17, 100] {
            let plaintext = TestBytes.random(length, &random)
            let sealed = try gcm.seal(plaintext, nonce: nonce, authenticating: data)
            #expect(try gcm.open(sealed.ciphertext, tag: sealed.tag, nonce: nonce, authenticating: data) == plaintext)
            var tag = sealed.tag
            tag[length % 16] ^= 0x80
            #expect(throws: CryptoError.authenticationFailed) { try gcm.open(sealed.ciphertext, tag: tag, nonce: nonce, authenticating: data) }
            if length > 0 {
                var ciphertext = sealed.ciphertext
                ciphertext[length - 1] ^= 1
                #expect(throws: CryptoError.authenticationFailed) { try gcm.open(ciphertext, tag: sealed.tag, nonce: nonce, authenticating: data) }
            }
            #expect(throws: CryptoError.authenticationFailed) { try gcm.open(sealed.ciphertext, tag: sealed.tag, nonce: nonce, authenticating: data + [0]) }
            #expect(throws: CryptoError.authenticationFailed) { try gcm.open(sealed.ciphertext, tag: sealed.tag, nonce: nonce.reversed(), authenticating: data) }
        }
        #expect(throws: CryptoError.self) { try gcm.open([], tag: [1, 2, 3], nonce: nonce) }
        #expect(throws: CryptoError.self) { try gcm.seal([], nonce: []) }
        #expect(throws: CryptoError.self) { try AES128GCM(key: TestBytes.random(32, &random)) }
    }
}
