import Testing
import PushSimKernel
@testable import PushSimCrypto

/// The key readers: PEM, SEC 1, PKCS#8, SubjectPublicKeyInfo and JWK, on published keys, and
/// on broken input, which must be refused with a thrown error and never crash.
@Suite("Key readers")
struct KeyReaderTests {
    /// RFC 9421 appendix B.1.3's `test-key-ecc-p256`, SEC 1 form, as the RFC prints it.
    static let rfc9421ECSEC1 = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIFKbhfNZfpDsW43+0+JjUr9K+bTeuxopu653+hBaXGA7oAoGCCqGSM49
        AwEHoUQDQgAEqIVYZVLCrPZHGHjP17CTW0/+D9Lfw0EkjqF7xB4FivAxzic30tMM
        4GF+hR6Dxh71Z50VGGdldkkDXZCnTNnoXQ==
        -----END EC PRIVATE KEY-----
        """

    /// The same key as PKCS#8, the form of an APNs `.p8` file (OpenSSL 3.0's
    /// `openssl pkcs8 -topk8 -nocrypt`, which leaves the curve out of the inner key).
    static let rfc9421ECPKCS8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgUpuF81l+kOxbjf7T
        4mNSv0r5tN67Gim7rnf6EFpcYDuhRANCAASohVhlUsKs9kcYeM/XsJNbT/4P0t/D
        QSSOoXvEHgWK8DHOJzfS0wzgYX6FHoPGHvVnnRUYZ2V2SQNdkKdM2ehd
        -----END PRIVATE KEY-----
        """

    /// Its public key, RFC 9421 B.1.3's SubjectPublicKeyInfo.
    static let rfc9421ECPublic = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqIVYZVLCrPZHGHjP17CTW0/+D9Lf
        w0EkjqF7xB4FivAxzic30tMM4GF+hR6Dxh71Z50VGGdldkkDXZCnTNnoXQ==
        -----END PUBLIC KEY-----
        """

    static let rfc9421ECPrivateScalar = "529b85f3597e90ec5b8dfed3e26352bf4af9b4debb1a29bbae77fa105a5c603b"

    @Test func ecKeyInEveryForm() throws {
        guard case .p256(let sec1) = try AsymmetricPrivateKey(pem: Self.rfc9421ECSEC1),
              case .p256(let pkcs8) = try AsymmetricPrivateKey(pem: Self.rfc9421ECPKCS8),
              case .p256(let publicKey) = try AsymmetricPublicKey(pem: Self.rfc9421ECPublic) else {
            Issue.record("not read as P-256 keys")
            return
        }
        #expect(TestBytes.hex(sec1.rawRepresentation) == Self.rfc9421ECPrivateScalar)
        #expect(pkcs8.rawRepresentation == sec1.rawRepresentation)
        #expect(sec1.publicKey == publicKey)
        #expect(TestBytes.hex(publicKey.x963Representation)
                == "04a885586552c2acf6471878cfd7b0935b4ffe0fd2dfc341248ea17bc41e058af031ce2737d2d30ce0617e851e83c61ef5679d151867657649035d90a74cd9e85d")
        // The same key as a JWK, its coordinates in base64url.
        let jwk = try AsymmetricPublicKey(jwkMembers: ["kty": "EC", "crv": "P-256",
                                                        "x": "qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA",
                                                        "y": "Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0"])
        #expect(jwk == .p256(publicKey))
        // A signature made with the PKCS#8 key verifies with the SPKI key.
        let message = Array("APNs provider token".utf8)
        #expect(publicKey.isValidSignature(pkcs8.signature(for: message), for: message))
    }

    @Test func rsaPublicKeyAsSPKIAndJWK() throws {
        // Wycheproof's rsa_signature_2048_sha256 group: the same key as PEM and as JWK.
        let pem = """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAorRRoH0KpfluRVZxUTVQ
            UUqKW0YuvvcXCU+h/ugiJOY3+XRtP3yv0xh42AMltu9aFwD2WQO0aUKeidbqyIRQ
            l7WrOTGJ25JRLtincRoSU/rNIPecFegkfz0+QuRuSMmOJUov6XZTE6A+/48X4aAp
            OXofomqNzib0kO2BKZYV2YFMItphBCjgnH2WWFlCZvXAIdD87KCNlFoSvoLeTR7O
            a0wDFFtdNJXU7VQR64eNrwX9evw+Ca2g8RJkIvWQl1oZaYFvSGmLy7obTZyuedRg
            2Pn4Xnl1AF2bwixOWsD3waRdElaaYoB9O5oC5aUw53MGb0U9H1tMLpz3ggKD90K5
            1QIDAQAB
            -----END PUBLIC KEY-----
            """
        let jwk = try AsymmetricPublicKey(jwkMembers: [
            "kty": "RSA", "e": "AQAB", "alg": "RS256", "kid": "none",
            "n": "orRRoH0KpfluRVZxUTVQUUqKW0YuvvcXCU-h_ugiJOY3-XRtP3yv0xh42AMltu9aFwD2WQO0aUKeidbqyIRQl7WrOTGJ25JRLtincRoSU_rNIPecFegkfz0-QuRuSMmOJUov6XZTE6A-_48X4aApOXofomqNzib0kO2BKZYV2YFMItphBCjgnH2WWFlCZvXAIdD87KCNlFoSvoLeTR7Oa0wDFFtdNJXU7VQR64eNrwX9evw-Ca2g8RJkIvWQl1oZaYFvSGmLy7obTZyuedRg2Pn4Xnl1AF2bwixOWsD3waRdElaaYoB9O5oC5aUw53MGb0U9H1tMLpz3ggKD90K51Q",
        ])
        #expect(try AsymmetricPublicKey(pem: pem) == jwk)
        #expect(try AsymmetricPublicKey(subjectPublicKeyInfo: TestBytes.hex(RSATests.wycheproofKeyDER)) == jwk)
    }

    @Test func pemDocuments() throws {
        let document = try PEMDocument("Explanatory text\n" + Self.rfc9421ECPublic + "\ntrailing")
        #expect(document.label == "PUBLIC KEY")
        #expect(try PEMDocument(document.text) == document)
        #expect(try PEMDocument(Self.rfc9421ECPublic.replacing("\n", with: "\r\n")) == document)
        #expect(throws: CryptoError.self) { try PEMDocument("") }
        #expect(throws: CryptoError.self) { try PEMDocument("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PRIVATE KEY-----") }
        #expect(throws: CryptoError.self) { try PEMDocument("-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----") }
        #expect(throws: CryptoError.self) { try PEMDocument("-----BEGIN PUBLIC KEY-----\nnot*base64\n-----END PUBLIC KEY-----") }
        // The wrong kind of document for the reader.
        #expect(throws: CryptoError.self) { try AsymmetricPublicKey(pem: Self.rfc9421ECSEC1) }
        #expect(throws: CryptoError.self) { try AsymmetricPrivateKey(pem: Self.rfc9421ECPublic) }
    }

    @Test func jwkRefusals() {
        let x = "qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA", y = "Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0"
        let cases: [[String: String]] = [
            [:],
            ["kty": "oct", "k": "AAAA"],
            ["kty": "EC", "crv": "P-384", "x": x, "y": y],
            ["kty": "EC", "x": x, "y": y],
            ["kty": "EC", "crv": "P-256", "x": x],
            ["kty": "EC", "crv": "P-256", "x": String(x.dropFirst()), "y": y],      // 31 bytes and a bit
            ["kty": "EC", "crv": "P-256", "x": x + "=", "y": y],                     // padded
            ["kty": "EC", "crv": "P-256", "x": x, "y": x],                           // not on the curve
            ["kty": "EC", "crv": "P-256", "x": x.replacing("_", with: "/"), "y": y],
            ["kty": "RSA", "n": "AQAB"],
            ["kty": "RSA", "n": "AQAB", "e": "AQAB"],                                // a tiny modulus
        ]
        for members in cases {
            #expect(throws: CryptoError.self, "\(members)") { try AsymmetricPublicKey(jwkMembers: members) }
        }
    }

    @Test func sec1Refusals() throws {
        let der = try PEMDocument(Self.rfc9421ECSEC1).der
        // Another curve: secp384r1 (1.3.132.0.34) in the [0] parameters.
        // The [0] parameters start after 30 77, 02 01 01 and 04 20 with the 32-byte key: byte 39.
        #expect(der[39] == 0xA0)
        var otherCurve = der
        otherCurve.replaceSubrange(39..<51, with: [0xA0, 0x07, 0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22])
        otherCurve[1] -= 3
        #expect(throws: CryptoError.self) { try P256PrivateKey(sec1: otherCurve) }
        // A public key that is not d·G.
        var wrongPublic = der
        wrongPublic[wrongPublic.count - 1] ^= 1
        #expect(throws: CryptoError.self) { try P256PrivateKey(sec1: wrongPublic) }
        // Version 2.
        var version = der
        version[4] = 2
        #expect(throws: CryptoError.self) { try P256PrivateKey(sec1: version) }
    }

    /// Truncations, single-byte changes and random bytes, through every reader: each is read or
    /// refused with a `CryptoError`, and nothing crashes.
    @Test func brokenInputsAreRefusedNotCrashed() throws {
        var random = SeededRandom(seed: 0x5eed_0601)
        let samples: [[UInt8]] = [
            try PEMDocument(Self.rfc9421ECSEC1).der, try PEMDocument(Self.rfc9421ECPKCS8).der,
            try PEMDocument(Self.rfc9421ECPublic).der, TestBytes.hex(RSATests.wycheproofKeyDER),
            try PEMDocument(RSATests.rfc9421PKCS8).der,
        ]
        var inputs: [[UInt8]] = [[], [0x30], [0x30, 0x80], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0x30, 0x81, 0x05], [0x02, 0x00]]
        for sample in samples {
            for cut in stride(from: 0, to: sample.count, by: max(1, sample.count / 40)) { inputs.append(Array(sample.prefix(cut))) }
            for _ in 0..<60 {
                var mutated = sample
                mutated[random.int(below: mutated.count)] = UInt8(truncatingIfNeeded: random.next())
                inputs.append(mutated)
            }
        }
        for _ in 0..<200 { inputs.append(TestBytes.random(random.int(below: 80), &random)) }
        var refused = 0
        for input in inputs {
            for read in [{ _ = try AsymmetricPrivateKey(pkcs8: input) }, { _ = try AsymmetricPublicKey(subjectPublicKeyInfo: input) },
                         { _ = try P256PrivateKey(sec1: input) }, { _ = try RSAPrivateKey(pkcs1: input) },
                         { _ = try P256Signature(derRepresentation: input) }, { _ = try P256Signature(rawRepresentation: input) },
                         { _ = try P256PublicKey(x963Representation: input) }] as [() throws -> Void] {
                do { try read() } catch is CryptoError { refused += 1 }
            }
            let text = String(decoding: input, as: UTF8.self)
            for read in [{ _ = try AsymmetricPrivateKey(pem: text) }, { _ = try PEMDocument("-----BEGIN X-----\n" + text + "\n-----END X-----") }]
                as [() throws -> Void] {
                do { try read() } catch is CryptoError { refused += 1 }
            }
        }
        #expect(refused > inputs.count * 5)
    }
}
