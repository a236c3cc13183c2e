import Testing
import PushSimKernel
@testable import PushSimCrypto

/// ECDSA P-256 with SHA-256: signing against RFC 6979 A.2.5, verifying against NIST CAVP's
/// FIPS 186-4 SigVer vectors ([P-256,SHA-256]), and the two signature encodings.
@Suite("ECDSA P-256 / SHA-256")
struct ECDSATests {
    static let rfc6979Key = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"

    /// RFC 6979 A.2.5, "With SHA-256": the deterministic `k` and the signature.
    @Test(arguments: [
        ("sample", "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60",
         "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716", "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        ("test", "D16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0",
         "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367", "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
    ])
    func rfc6979(message: String, k: String, r: String, s: String) throws {
        let key = try P256PrivateKey(rawRepresentation: TestBytes.hex(Self.rfc6979Key))
        var nonces = RFC6979Nonce(privateKey: key.scalar, digest: SHA256.hash(Array(message.utf8)))
        #expect(TestBytes.hex(nonces.next().bigEndianBytes) == k.lowercased())
        let signature = key.signature(for: Array(message.utf8))
        #expect(TestBytes.hex(signature.rawRepresentation) == (r + s).lowercased())
        #expect(key.publicKey.isValidSignature(signature, for: Array(message.utf8)))
    }

    /// NIST CAVP SigVer.rsp, [P-256,SHA-256]: (Msg, Qx, Qy, R, S, Result), three that pass and
    /// one failure of each kind (message, R, S and Q changed).
    static let sigVer: [(String, String, String, String, String, Bool)] = [
        ("e1130af6a38ccb412a9c8d13e15dbfc9e69a16385af3c3f1e5da954fd5e7c45fd75e2b8c36699228e92840c0562fbf3772f07e17f1add56588dd45f7450e1217ad239922dd9c32695dc71ff2424ca0dec1321aa47064a044b7fe3c2b97d03ce470a592304c5ef21eed9f93da56bb232d1eeb0035f9bf0dfafdcc4606272b20a3",
         "e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e12f49abf3c", "970eed7aa2bc48651545949de1dddaf0127e5965ac85d1243d6f60e7dfaee927",
         "bf96b99aa49c705c910be33142017c642ff540c76349b9dab72f981fd9347f4f", "17c55095819089c2e03b9cd415abdf12444e323075d98f31920b9e0f57ec871c", true),
        ("73c5f6a67456ae48209b5f85d1e7de7758bf235300c6ae2bdceb1dcb27a7730fb68c950b7fcada0ecc4661d3578230f225a875e69aaa17f1e71c6be5c831f22663bac63d0c7a9635edb0043ff8c6f26470f02a7bc56556f1437f06dfa27b487a6c4290d8bad38d4879b334e341ba092dde4e4ae694a9c09302e2dbf443581c08",
         "e0fc6a6f50e1c57475673ee54e3a57f9a49f3328e743bf52f335e3eeaa3d2864", "7f59d689c91e463607d9194d99faf316e25432870816dde63f5d4b373f12f22a",
         "1d75830cd36f4c9aa181b2c4221e87f176b7f05b7c87824e82e396c88315c407", "cb2acb01dac96efc53a32d4a0d85d0c2e48955214783ecf50a4f0414a319c05a", true),
        ("60cd64b2cd2be6c33859b94875120361a24085f3765cb8b2bf11e026fa9d8855dbe435acf7882e84f3c7857f96e2baab4d9afe4588e4a82e17a78827bfdb5ddbd1c211fbc2e6d884cddd7cb9d90d5bf4a7311b83f352508033812c776a0e00c003c7e0d628e50736c7512df0acfa9f2320bd102229f46495ae6d0857cc452a84",
         "2d98ea01f754d34bbc3003df5050200abf445ec728556d7ed7d5c54c55552b6d", "9b52672742d637a32add056dfd6d8792f2a33c2e69dafabea09b960bc61e230a",
         "06108e525f845d0155bf60193222b3219c98e3d49424c2fb2a0987f825c17959", "62b5cdd591e5b507e560167ba8f6f7cda74673eb315680cb89ccbc4eec477dce", true),
        // F (1 - Message changed)
        ("1669bfb657fdc62c3ddd63269787fc1c969f1850fb04c933dda063ef74a56ce13e3a649700820f0061efabf849a85d474326c8a541d99830eea8131eaea584f22d88c353965dabcdc4bf6b55949fd529507dfb803ab6b480cd73ca0ba00ca19c438849e2cea262a1c57d8f81cd257fb58e19dec7904da97d8386e87b84948169",
         "69b7667056e1e11d6caf6e45643f8b21e7a4bebda463c7fdbc13bc98efbd0214", "d3f9b12eb46c7c6fda0da3fc85bc1fd831557f9abc902a3be3cb3e8be7d1aa2f",
         "288f7a1cd391842cce21f00e6f15471c04dc182fe4b14d92dc18910879799790", "247b3c4e89a3bcadfea73c7bfd361def43715fa382b8c3edf4ae15d6e55e9979", false),
        // F (2 - R changed)
        ("069a6e6b93dfee6df6ef6997cd80dd2182c36653cef10c655d524585655462d683877f95ecc6d6c81623d8fac4e900ed0019964094e7de91f1481989ae1873004565789cbf5dc56c62aedc63f62f3b894c9c6f7788c8ecaadc9bd0e81ad91b2b3569ea12260e93924fdddd3972af5273198f5efda0746219475017557616170e",
         "5cf02a00d205bdfee2016f7421807fc38ae69e6b7ccd064ee689fc1a94a9f7d2", "ec530ce3cc5c9d1af463f264d685afe2b4db4b5828d7e61b748930f3ce622a85",
         "dc23d130c6117fb5751201455e99f36f59aba1a6a21cf2d0e7481a97451d6693", "d6ce7708c18dbf35d4f8aa7240922dc6823f2e7058cbc1484fcad1599db5018c", false),
        // F (3 - S changed)
        ("e4796db5f785f207aa30d311693b3702821dff1168fd2e04c0836825aefd850d9aa60326d88cde1a23c7745351392ca2288d632c264f197d05cd424a30336c19fd09bb229654f0222fcb881a4b35c290a093ac159ce13409111ff0358411133c24f5b8e2090d6db6558afc36f06ca1f6ef779785adba68db27a409859fc4c4a0",
         "87f8f2b218f49845f6f10eec3877136269f5c1a54736dbdf69f89940cad41555", "e15f369036f49842fac7a86c8a2b0557609776814448b8f5e84aa9f4395205e9",
         "d19ff48b324915576416097d2544f7cbdf8768b1454ad20e0baac50e211f23b0", "a3e81e59311cdfff2d4784949f7a2cb50ba6c3a91fa54710568e61aca3e847c6", false),
        // F (4 - Q changed)
        ("df04a346cf4d0e331a6db78cca2d456d31b0a000aa51441defdb97bbeb20b94d8d746429a393ba88840d661615e07def615a342abedfa4ce912e562af714959896858af817317a840dcff85a057bb91a3c2bf90105500362754a6dd321cdd86128cfc5f04667b57aa78c112411e42da304f1012d48cd6a7052d7de44ebcc01de",
         "2ddfd145767883ffbb0ac003ab4a44346d08fa2570b3120dcce94562422244cb", "5f70c7d11ac2b7a435ccfbbae02c3df1ea6b532cc0e9db74f93fffca7c6f9a64",
         "9913111cff6f20c5bf453a99cd2c2019a4e749a49724a08774d14e4c113edda8", "9467cd4cd21ecb56b0cab0a9a453b43386845459127a952421f5c6382866c5cc", false),
    ]

    @Test(arguments: 0..<7)
    func cavpSigVer(index: Int) throws {
        let (message, qx, qy, r, s, valid) = Self.sigVer[index]
        let signature = try P256Signature(rawRepresentation: TestBytes.hex(r + s))
        // A "Q changed" key may not even be on the curve: refusing the key is failing the check.
        guard let key = try? P256PublicKey(x: TestBytes.hex(qx), y: TestBytes.hex(qy)) else {
            #expect(!valid)
            return
        }
        #expect(key.isValidSignature(signature, for: TestBytes.hex(message)) == valid)
    }

    /// Sign → verify holds; any change to the message, the signature or the key breaks it.
    @Test func roundTripAndTampering() throws {
        var random = SeededRandom(seed: 0x5eed_0301)
        let other = try P256PrivateKey(rawRepresentation: [0x11] + TestBytes.random(31, &random))
        for length in [0, 1, 64, 300] {
            let key = try P256PrivateKey(rawRepresentation: [0x22] + TestBytes.random(31, &random))
            let message = TestBytes.random(length, &random)
            let signature = key.signature(for: message)
            #expect(key.publicKey.isValidSignature(signature, for: message))
            #expect(key.signature(for: message) == signature)   // deterministic
            #expect(!key.publicKey.isValidSignature(signature, for: message + [0]))
            #expect(!other.publicKey.isValidSignature(signature, for: message))
            var raw = signature.rawRepresentation
            raw[63] ^= 0x01
            if let tampered = try? P256Signature(rawRepresentation: raw) {
                #expect(!key.publicKey.isValidSignature(tampered, for: message))
            }
        }
    }

    /// JOSE's r || s and DER hold the same signature; each reader refuses the other's form.
    @Test func encodings() throws {
        let key = try P256PrivateKey(rawRepresentation: TestBytes.hex(Self.rfc6979Key))
        let signature = key.signature(for: Array("sample".utf8))
        // DER with both integers given a sign byte (both start with a bit set), as ring's test shows.
        #expect(TestBytes.hex(signature.derRepresentation) == "3046022100efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716022100f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8")
        #expect(try P256Signature(derRepresentation: signature.derRepresentation) == signature)
        #expect(try P256Signature(rawRepresentation: signature.rawRepresentation) == signature)
        #expect(throws: CryptoError.self) { try P256Signature(rawRepresentation: signature.derRepresentation) }
        #expect(throws: CryptoError.self) { try P256Signature(derRepresentation: signature.rawRepresentation) }
        // A small s: DER drops leading zeros; the raw form keeps 32 bytes.
        let short = P256Signature(r: UInt256(1), s: UInt256(0x80))
        #expect(TestBytes.hex(short.derRepresentation) == "3007020101020200" + "80")
        #expect(try P256Signature(derRepresentation: short.derRepresentation) == short)
        #expect(short.rawRepresentation.count == 64)
        // Zero, n, and trailing bytes are refused.
        #expect(throws: CryptoError.self) { try P256Signature(rawRepresentation: [UInt8](repeating: 0, count: 64)) }
        #expect(throws: CryptoError.self) { try P256Signature(rawRepresentation: P256Order.modulus.bigEndianBytes + UInt256(1).bigEndianBytes) }
        #expect(throws: CryptoError.self) { try P256Signature(derRepresentation: short.derRepresentation + [0]) }
        #expect(throws: CryptoError.self) { try P256Signature(derRepresentation: TestBytes.hex("30080201010203000080")) }   // not minimal
        #expect(throws: CryptoError.self) { try P256Signature(derRepresentation: TestBytes.hex("3006020101020180")) }   // negative s
    }
}
