import Testing
import PushSimKernel
@testable import PushSimCrypto

/// ECDH on P-256 against NIST CAVP's "KAS ECC CDH primitive" vectors
/// (ecccdhtestvectors.zip, KAS_ECC_CDH_PrimitiveTest.txt, [P-256] COUNT = 0, 1, 2).
@Suite("ECDH P-256")
struct ECDHTests {
    /// (QCAVSx, QCAVSy, dIUT, QIUTx, QIUTy, ZIUT).
    static let cavp: [(String, String, String, String, String, String)] = [
        ("700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287", "db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
         "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
         "ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230", "28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141",
         "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b"),
        ("809f04289c64348c01515eb03d5ce7ac1a8cb9498f5caa50197e58d43a86a7ae", "b29d84e811197f25eba8f5194092cb6ff440e26d4421011372461f579271cda3",
         "38f65d6dce47676044d58ce5139582d568f64bb16098d179dbab07741dd5caf5",
         "119f2f047902782ab0c9e27a54aff5eb9b964829ca99c06b02ddba95b0a3f6d0", "8f52b726664cac366fc98ac7a012b2682cbd962e5acb544671d41b9445704d1d",
         "057d636096cb80b67a8c038c890e887d1adfa4195e9b3ce241c8a778c59cda67"),
        ("a2339c12d4a03c33546de533268b4ad667debf458b464d77443636440ee7fec3", "ef48a3ab26e20220bcda2c1851076839dae88eae962869a497bf73cb66faf536",
         "1accfaf1b97712b85a6f54b148985a1bdc4c9bec0bd258cad4b3d603f49f32c8",
         "d9f2b79c172845bfdb560bbb01447ca5ecc0470a09513b6126902c6b4f8d1051", "f815ef5ec32128d3487834764678702e64e164ff7315185e23aff5facd96d7bc",
         "2d457b78b4614132477618a5b077965ec90730a8c81a1c75d6d4ec68005d67ec"),
    ]

    @Test(arguments: 0..<3)
    func cavpPrimitive(count: Int) throws {
        let (qx, qy, d, ourX, ourY, z) = Self.cavp[count]
        let peer = try P256PublicKey(x: TestBytes.hex(qx), y: TestBytes.hex(qy))
        let key = try P256PrivateKey(rawRepresentation: TestBytes.hex(d))
        #expect(TestBytes.hex(key.publicKey.x) == ourX)
        #expect(TestBytes.hex(key.publicKey.y) == ourY)
        #expect(TestBytes.hex(try key.sharedSecret(with: peer)) == z)
    }

    /// Both sides get the same secret, whatever the keys.
    @Test func sharedSecretsAreSymmetric() throws {
        var random = SeededRandom(seed: 0x5eed_0201)
        for _ in 0..<8 {
            let a = try P256PrivateKey(rawRepresentation: TestBytes.random(31, &random) + [1])
            let b = try P256PrivateKey(rawRepresentation: [0] + TestBytes.random(31, &random))
            #expect(try a.sharedSecret(with: b.publicKey) == b.sharedSecret(with: a.publicKey))
        }
    }
}
