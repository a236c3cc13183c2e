/// Writing keys in the containers they are read from (``AsymmetricPrivateKey``,
/// ``AsymmetricPublicKey``): what a client is handed, such as an APNs `.p8` or the `private_key` of
/// a Google service-account file, and what a public key is registered with. Each form reads back
/// to the same key, and the PKCS#8 forms are byte for byte what OpenSSL 3 writes for the same key
/// (`openssl pkey`; `tools/key-writing-check.sh` compares them).
extension AsymmetricPrivateKey {
    /// PKCS#8's PrivateKeyInfo (RFC 5208, 5; RFC 5958, 2): version 0, the algorithm, the inner
    /// key as an OCTET STRING: SEC 1's `ECPrivateKey` with its public key and without the curve
    /// (which the algorithm names, RFC 5915 3), or PKCS#1's `RSAPrivateKey`.
    public var pkcs8DERRepresentation: [UInt8] {
        switch self {
        case .p256(let key):
            return DERWriter.sequence(DERWriter.smallInteger(0) + AlgorithmIdentifier.p256.der
                                      + DERWriter.octetString(key.sec1DERRepresentation(includingCurve: false)))
        case .rsa(let key):
            return DERWriter.sequence(DERWriter.smallInteger(0) + AlgorithmIdentifier.rsa.der
                                      + DERWriter.octetString(key.pkcs1DERRepresentation))
        }
    }

    /// The PEM `PRIVATE KEY` document (RFC 7468, 10): the text of an APNs `.p8` file or of a
    /// service account's `private_key`.
    public var pkcs8PEMRepresentation: String { PEMDocument(label: "PRIVATE KEY", der: pkcs8DERRepresentation).text }
}

extension AsymmetricPublicKey {
    /// X.509's SubjectPublicKeyInfo (RFC 5280, 4.1.2.7): the algorithm, then the key as a BIT
    /// STRING: the uncompressed point (RFC 5480, 2.2), or PKCS#1's `RSAPublicKey { n, e }` (RFC
    /// 8017, A.1.1).
    public var subjectPublicKeyInfoDERRepresentation: [UInt8] {
        switch self {
        case .p256(let key):
            return DERWriter.sequence(AlgorithmIdentifier.p256.der + DERWriter.bitString(key.x963Representation))
        case .rsa(let key):
            let inner = DERWriter.sequence(DERWriter.unsignedInteger(key.modulus) + DERWriter.unsignedInteger(key.exponent))
            return DERWriter.sequence(AlgorithmIdentifier.rsa.der + DERWriter.bitString(inner))
        }
    }

    /// The PEM `PUBLIC KEY` document (RFC 7468, 13).
    public var pemRepresentation: String { PEMDocument(label: "PUBLIC KEY", der: subjectPublicKeyInfoDERRepresentation).text }
}

extension P256PrivateKey {
    /// SEC 1's `ECPrivateKey` (RFC 5915, 3): version 1, `d` as 32 bytes, optionally `[0]` the
    /// curve, then `[1]` the public key (PEM label `EC PRIVATE KEY` when written alone, with the curve).
    func sec1DERRepresentation(includingCurve: Bool) -> [UInt8] {
        let curve = includingCurve ? DERWriter.contextSpecific(0, DERWriter.objectIdentifier(ObjectIdentifiers.p256)) : []
        return DERWriter.sequence(DERWriter.smallInteger(1) + DERWriter.octetString(rawRepresentation) + curve
                                  + DERWriter.contextSpecific(1, DERWriter.bitString(publicKey.x963Representation)))
    }
}

extension RSAPrivateKey {
    /// PKCS#1's `RSAPrivateKey` (RFC 8017, A.1.2): version 0, `n`, `e`, `d`, `p`, `q`, `dP`, `dQ`, `qInv`.
    public var pkcs1DERRepresentation: [UInt8] {
        let c = components
        let numbers = [publicKey.modulus, publicKey.exponent, c.d, c.p, c.q, c.dP, c.dQ, c.qInv]
        return DERWriter.sequence(DERWriter.smallInteger(0) + numbers.flatMap(DERWriter.unsignedInteger))
    }
}

extension AlgorithmIdentifier {
    /// `SEQUENCE { OID, parameters }`: id-ecPublicKey with the P-256 curve (RFC 5480, 2.1.1), or
    /// rsaEncryption with NULL (RFC 8017, A.1).
    var der: [UInt8] {
        switch self {
        case .p256: return DERWriter.sequence(DERWriter.objectIdentifier(ObjectIdentifiers.ecPublicKey)
                                              + DERWriter.objectIdentifier(ObjectIdentifiers.p256))
        case .rsa: return DERWriter.sequence(DERWriter.objectIdentifier(ObjectIdentifiers.rsaEncryption) + DERWriter.null)
        }
    }
}
