import Testing
import PushSimKernel
@testable import PushSimCrypto

/// The key writers (PKCS#8, PKCS#1, SEC 1, SubjectPublicKeyInfo): each form reads back to the same
/// key, and for the published keys the PKCS#8 text is OpenSSL 3.0's, byte for byte.
@Suite("Key writers")
struct KeyWritingTests {
    @Test func p256KeyWritesThePKCS8TextOpenSSLWrote() throws {
        let key = try AsymmetricPrivateKey(pem: KeyReaderTests.rfc9421ECSEC1)
        #expect(key.pkcs8PEMRepresentation == KeyReaderTests.rfc9421ECPKCS8 + "\n")
        #expect(try AsymmetricPrivateKey(pem: key.pkcs8PEMRepresentation) == key)
        #expect(key.publicKey.pemRepresentation == KeyReaderTests.rfc9421ECPublic + "\n")
        #expect(try AsymmetricPublicKey(pem: key.publicKey.pemRepresentation) == key.publicKey)
    }

    @Test func p256SEC1FormWithTheCurveIsRFC9421s() throws {
        guard case .p256(let key) = try AsymmetricPrivateKey(pem: KeyReaderTests.rfc9421ECSEC1) else {
            Issue.record("not a P-256 key")
            return
        }
        #expect(key.sec1DERRepresentation(includingCurve: true) == (try PEMDocument(KeyReaderTests.rfc9421ECSEC1)).der)
        #expect(try P256PrivateKey(sec1: key.sec1DERRepresentation(includingCurve: false)) == key)
    }

    @Test func rsaKeyWritesThePKCS1AndPKCS8BytesOpenSSLWrote() throws {
        let key = try AsymmetricPrivateKey(pem: RSATests.rfc9421PKCS8)
        guard case .rsa(let rsa) = key else {
            Issue.record("not an RSA key")
            return
        }
        #expect(key.pkcs8PEMRepresentation == RSATests.rfc9421PKCS8 + "\n")
        #expect(rsa.pkcs1DERRepresentation == (try PEMDocument(RSATests.rfc9421PKCS1)).der)
        #expect(try AsymmetricPrivateKey(pem: key.pkcs8PEMRepresentation) == key)
        #expect(try AsymmetricPublicKey(pem: key.publicKey.pemRepresentation) == key.publicKey)
    }

    @Test func publicKeyOfTheRSATestKeyIsWycheproofsForm() throws {
        // The SubjectPublicKeyInfo writer against a published one: Wycheproof's key DER.
        let der = TestBytes.hex(RSATests.wycheproofKeyDER)
        let key = try AsymmetricPublicKey(subjectPublicKeyInfo: der)
        #expect(key.subjectPublicKeyInfoDERRepresentation == der)
    }

    @Test func derivedP256KeyIsTheSameForTheSameSeedAndInRange() throws {
        let a = try P256PrivateKey(derivedFrom: Array("PSIMKEY001".utf8))
        let b = try P256PrivateKey(derivedFrom: Array("PSIMKEY001".utf8))
        let c = try P256PrivateKey(derivedFrom: Array("PSIMKEY002".utf8))
        #expect(a == b && a != c)
        let message = Array("iat".utf8)
        #expect(a.publicKey.isValidSignature(a.signature(for: message), for: message))
        #expect(try AsymmetricPrivateKey(pem: AsymmetricPrivateKey.p256(a).pkcs8PEMRepresentation) == .p256(a))
    }

    @Test func drawnP256KeyIsTheKeyOfTheNext32BytesAndTakesFourDraws() throws {
        var drawn = SeededRandom(seed: 11), plain = SeededRandom(seed: 11)
        let key = P256PrivateKey(drawingFrom: &drawn)
        #expect(try key == P256PrivateKey(derivedFrom: plain.bytes(32)))
        #expect(drawn.next() == plain.next())   // the stream moved by the same four words
    }
}
