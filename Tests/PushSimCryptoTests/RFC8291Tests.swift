import Testing
import PushSimKernel
@testable import PushSimCrypto

/// Web Push message encryption end to end against RFC 8291's worked example (section 5) and its
/// intermediate values (appendix A): ECDH, HKDF and AES-128-GCM together.
@Suite("Web Push encryption (RFC 8291)")
struct RFC8291Tests {
    static let body = TestBytes.base64url("""
        DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml
        mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT
        pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN
        """)
    static let plaintext = Array("When I grow up, I want to be a watermelon".utf8)
    static let authSecret = TestBytes.base64url("BTBZMqHH6r4Tts7J_aSIgg")
    static let salt = TestBytes.base64url("DGv6ra1nlYgDCS1FRnbzlw")
    static let receiverPrivate = TestBytes.base64url("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")
    static let receiverPublic = TestBytes.base64url("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
    static let senderPrivate = TestBytes.base64url("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")
    static let senderPublic = TestBytes.base64url("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")

    @Test func theExampleKeysAreKeyPairs() throws {
        // The printed base64url decodes to 144 bytes (an 86-byte header, a 58-byte record), though the
        // example request says Content-Length: 145.
        #expect(Self.body.count == 144)
        #expect(try P256PrivateKey(rawRepresentation: Self.receiverPrivate).publicKey.x963Representation == Self.receiverPublic)
        #expect(try P256PrivateKey(rawRepresentation: Self.senderPrivate).publicKey.x963Representation == Self.senderPublic)
    }

    /// Appendix A: the ECDH secret, IKM, CEK and nonce.
    @Test func intermediateValues() throws {
        let receiver = try P256PrivateKey(rawRepresentation: Self.receiverPrivate)
        let sender = try P256PublicKey(x963Representation: Self.senderPublic)
        let secret = try receiver.sharedSecret(with: sender)
        #expect(secret == TestBytes.base64url("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs"))
        let keys = try WebPushEncryption.contentKeys(sharedSecret: secret, authSecret: Self.authSecret, userAgentPublicKey: receiver.publicKey,
                                                     applicationServerPublicKey: sender, salt: Self.salt)
        #expect(keys.inputKeyingMaterial == TestBytes.base64url("S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg"))
        #expect(keys.contentEncryptionKey == TestBytes.base64url("oIhVW04MRdy2XN9CiKLxTg"))
        #expect(keys.nonce == TestBytes.base64url("4h_95klXJ5E_qnoN"))
    }

    /// The user agent decrypts the example message with its private key and auth secret.
    @Test func decryptsTheExample() throws {
        let receiver = try P256PrivateKey(rawRepresentation: Self.receiverPrivate)
        #expect(try WebPushEncryption.decrypt(Self.body, userAgentPrivateKey: receiver, authSecret: Self.authSecret) == Self.plaintext)
    }

    /// The application server, given the example's key pair and salt, writes the example's bytes.
    @Test func encryptsTheExample() throws {
        let body = try WebPushEncryption.encrypt(Self.plaintext, userAgentPublicKey: try P256PublicKey(x963Representation: Self.receiverPublic),
                                                 authSecret: Self.authSecret,
                                                 applicationServerPrivateKey: try P256PrivateKey(rawRepresentation: Self.senderPrivate),
                                                 salt: Self.salt)
        #expect(body == Self.body)
    }

    /// A wrong auth secret or key, a changed byte anywhere, a cut body, a bad record size or key
    /// id, a padding delimiter other than 0x02: each refused with a `CryptoError`. (The record size
    /// itself is not authenticated: RFC 8291, 4 lets a user agent ignore it.)
    @Test func brokenMessagesAreRefused() throws {
        let receiver = try P256PrivateKey(rawRepresentation: Self.receiverPrivate)
        func decrypt(_ body: [UInt8], secret: [UInt8] = RFC8291Tests.authSecret) throws -> [UInt8] {
            try WebPushEncryption.decrypt(body, userAgentPrivateKey: receiver, authSecret: secret)
        }
        var otherSecret = Self.authSecret
        otherSecret[0] ^= 1
        #expect(throws: CryptoError.authenticationFailed) { try decrypt(Self.body, secret: otherSecret) }
        #expect(throws: CryptoError.self) { try decrypt(Self.body, secret: Array(Self.authSecret.prefix(15))) }
        for index in [0, 15, 20, 21, 50, 86, 100, 143] {
            var changed = Self.body
            changed[index] ^= 0x01
            #expect(throws: CryptoError.self, "byte \(index)") { try decrypt(changed) }
        }
        for length in [0, 20, 21, 86, 102, 103, 143] {
            #expect(throws: CryptoError.self, "length \(length)") { try decrypt(Array(Self.body.prefix(length))) }
        }
        var tinyRecords = Self.body
        tinyRecords.replaceSubrange(16..<20, with: [0, 0, 0, 17])
        #expect(throws: CryptoError.self) { try decrypt(tinyRecords) }
        // A padding delimiter of 0x01 (a non-last record's, RFC 8188) in a correctly sealed body.
        let sender = try P256PrivateKey(rawRepresentation: Self.senderPrivate)
        let keys = try WebPushEncryption.contentKeys(sharedSecret: try sender.sharedSecret(with: receiver.publicKey), authSecret: Self.authSecret,
                                                     userAgentPublicKey: receiver.publicKey, applicationServerPublicKey: sender.publicKey, salt: Self.salt)
        let sealed = try AES128GCM(key: keys.contentEncryptionKey).seal(Self.plaintext + [0x01], nonce: keys.nonce)
        let header = Array(Self.body.prefix(86))
        #expect(throws: CryptoError.self) { try decrypt(header + sealed.ciphertext + sealed.tag) }
        let allPadding = try AES128GCM(key: keys.contentEncryptionKey).seal([0, 0, 0], nonce: keys.nonce)
        #expect(throws: CryptoError.self) { try decrypt(header + allPadding.ciphertext + allPadding.tag) }
    }

    /// Encrypt → decrypt holds with padding and any record size that fits; too little room is refused.
    @Test func roundTripWithPadding() throws {
        var random = SeededRandom(seed: 0x5eed_0701)
        let receiver = try P256PrivateKey(rawRepresentation: [0x01] + TestBytes.random(31, &random))
        let sender = try P256PrivateKey(rawRepresentation: [0x02] + TestBytes.random(31, &random))
        let secret = TestBytes.random(16, &random), salt = TestBytes.random(16, &random)
        for (length, padding) in [(0, 0), (1, 5), (100, 0), (3993, 0), (10, 200)] {
            let plaintext = TestBytes.random(length, &random)
            let body = try WebPushEncryption.encrypt(plaintext, userAgentPublicKey: receiver.publicKey, authSecret: secret,
                                                     applicationServerPrivateKey: sender, salt: salt, paddingLength: padding)
            #expect(body.count == 86 + length + 1 + padding + 16)
            #expect(try WebPushEncryption.decrypt(body, userAgentPrivateKey: receiver, authSecret: secret) == plaintext)
        }
        #expect(throws: CryptoError.self) {
            try WebPushEncryption.encrypt(TestBytes.random(4080, &random), userAgentPublicKey: receiver.publicKey, authSecret: secret,
                                          applicationServerPrivateKey: sender, salt: salt)
        }
    }
}
