import Testing
@testable import PushSimCrypto

/// The `aesgcm` draft coding against http_ece 1.2.1 (the library pywebpush 2.5.0 encrypts
/// with): the bytes below are what it wrote for these keys, salt and auth secret, once in one
/// record (rs 4096) and once in four (rs 10). PushSim must open both and write the first alike.
@Suite("Web Push aesgcm (draft-ietf-webpush-encryption-04)")
struct DraftWebPushEncryptionTests {
    let userAgent = try! P256PrivateKey(rawRepresentation: TestBytes.hex("3cada7e663ce2a6aaebe195cc3861abc4b1bbfa54cb267fcea1bb790ed60ade8"))
    let applicationServer = try! P256PrivateKey(rawRepresentation: TestBytes.hex("b3928ff0a445524cc8fd614ae5aaedada5678302cb3b49cb16e9eb09e3cb6534"))
    let auth = Array(UInt8(0)..<16)
    let salt = Array(UInt8(100)..<116)
    let message = Array(#"{"title":"Score","body":"2-1"}"#.utf8)
    /// http_ece's one record (rs 4096): a zero padding length, the message, the tag.
    let oneRecord = TestBytes.hex("297e618cd1bd519a0a0f23dd2c01bda44761d36f1c1ab07e41fc57d9cc75b5f41260cab764bb0d9b42798dffab949e9c")
    /// http_ece's four records of rs 10 (8, 8, 8 and 6 bytes of data, each with its tag).
    let fourRecords = TestBytes.hex("""
        297e618cd1bd519a0a0fa7433691a59a855a9bc81222927d28a0fa1fe0df5b28cab39cec0573e9b543795d2d8a7ca6543506c10bfc750547ae9eb7d170152242\
        f7b3fbcc69b425b35b54f766d245cb6199ccffb847de653b08023b3d337d7ff1dcc79700928b
        """)

    @Test func opensWhatHttpEceWroteInOneRecordAndInFour() throws {
        #expect(try DraftWebPushEncryption.decrypt(oneRecord, userAgentPrivateKey: userAgent, authSecret: auth, salt: salt,
                                                   senderPublicKey: applicationServer.publicKey) == message)
        #expect(try DraftWebPushEncryption.decrypt(fourRecords, userAgentPrivateKey: userAgent, authSecret: auth, salt: salt,
                                                   senderPublicKey: applicationServer.publicKey, recordSize: 10) == message)
    }

    @Test func writesWhatHttpEceWrites() throws {
        #expect(try DraftWebPushEncryption.encrypt(message, userAgentPublicKey: userAgent.publicKey, authSecret: auth,
                                                   applicationServerPrivateKey: applicationServer, salt: salt) == oneRecord)
    }

    @Test func refusesATamperedBodyAWrongSecretATruncatedOneAndBadPadding() throws {
        var tampered = oneRecord
        tampered[3] ^= 1
        let open = { (body: [UInt8], auth: [UInt8], rs: Int) in
            try DraftWebPushEncryption.decrypt(body, userAgentPrivateKey: self.userAgent, authSecret: auth, salt: self.salt,
                                               senderPublicKey: self.applicationServer.publicKey, recordSize: rs)
        }
        #expect(throws: CryptoError.self) { try open(tampered, auth, 4096) }
        #expect(throws: CryptoError.self) { try open(oneRecord, Array(repeating: 7, count: 16), 4096) }
        #expect(throws: CryptoError.self) { try open(Array(fourRecords.prefix(78)), auth, 10) }   // three whole records: cut short
        // A padding length longer than the record: sealed as the sender would, refused on opening.
        let keys = try DraftWebPushEncryption.contentKeys(sharedSecret: try applicationServer.sharedSecret(with: userAgent.publicKey),
                                                          authSecret: auth, userAgentPublicKey: userAgent.publicKey,
                                                          applicationServerPublicKey: applicationServer.publicKey, salt: salt)
        let sealed = try AES128GCM(key: keys.key).seal([0x00, 0x09, 0x00], nonce: keys.nonce)
        #expect(throws: CryptoError.self) { try open(sealed.ciphertext + sealed.tag, auth, 4096) }
        #expect(try DraftWebPushEncryption.unpad([0x00, 0x02, 0x00, 0x00, 0x41]) == [0x41])
        #expect(throws: CryptoError.self) { try DraftWebPushEncryption.unpad([0x00, 0x01, 0x07, 0x41]) }
    }
}
