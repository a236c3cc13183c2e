extension P256PrivateKey {
    /// Reads SEC 1's `ECPrivateKey` (RFC 5915, 3; PEM label `EC PRIVATE KEY`): version 1, the
    /// 32-byte private key, then optionally `[0]` the curve and `[1]` the public key. A curve
    /// other than P-256 is refused, and so is a public key that is not `d·G`.
    public init(sec1 der: [UInt8]) throws {
        var sequence = try DERReader.onlySequence(der, "EC private key")
        guard try sequence.readSmallInteger() == 1 else { throw CryptoError.malformedDER("an ECPrivateKey's version is 1") }
        let privateKey = try sequence.readOctetString()
        if sequence.nextTag == 0xA0 {
            var parameters = DERReader(try sequence.read(tag: 0xA0))
            let curve = try parameters.readObjectIdentifier()
            try parameters.expectEnd("after the curve")
            guard curve == ObjectIdentifiers.p256 else {
                throw CryptoError.unsupportedKey("the curve \(ObjectIdentifiers.dotted(curve)) (only P-256, 1.2.840.10045.3.1.7)")
            }
        }
        var publicKey: [UInt8]?
        if sequence.nextTag == 0xA1 {
            var wrapper = DERReader(try sequence.read(tag: 0xA1))
            publicKey = Array(try wrapper.readBitString())
            try wrapper.expectEnd("after the public key")
        }
        try sequence.expectEnd("after the EC private key's fields")
        try self.init(rawRepresentation: Array(privateKey))
        if let publicKey, try P256PublicKey(x963Representation: publicKey) != self.publicKey {
            throw CryptoError.invalidPoint("the key's public point is not d·G")
        }
    }
}
