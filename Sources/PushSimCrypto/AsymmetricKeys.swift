/// A public key of a kind the push services use: P-256 (APNs ES256 tokens, Web Push, VAPID) or
/// RSA (Google RS256 assertions), read from its usual containers.
public enum AsymmetricPublicKey: Equatable, Sendable {
    /// A P-256 public key (id-ecPublicKey with the prime256v1 curve; a JWK of `kty` EC).
    case p256(P256PublicKey)
    /// An RSA public key (rsaEncryption; a JWK of `kty` RSA).
    case rsa(RSAPublicKey)

    /// Reads X.509's SubjectPublicKeyInfo (RFC 5280, 4.1.2.7; PEM label `PUBLIC KEY`):
    /// id-ecPublicKey with the P-256 curve and an uncompressed point (RFC 5480), or rsaEncryption
    /// with a NULL parameter and PKCS#1's `RSAPublicKey { n, e }` (RFC 8017, A.1.1).
    public init(subjectPublicKeyInfo der: [UInt8]) throws {
        var sequence = try DERReader.onlySequence(der, "SubjectPublicKeyInfo")
        let algorithm = try AlgorithmIdentifier(&sequence)
        let key = try sequence.readBitString()
        try sequence.expectEnd("after the public key")
        switch algorithm {
        case .p256: self = .p256(try P256PublicKey(x963Representation: Array(key)))
        case .rsa:
            var rsaKey = try DERReader.onlySequence(Array(key), "RSA public key")
            let n = try rsaKey.readUnsignedInteger()
            let e = try rsaKey.readUnsignedInteger()
            try rsaKey.expectEnd("after n and e")
            self = .rsa(try RSAPublicKey(modulus: Array(n), exponent: Array(e)))
        }
    }

    /// Reads a PEM `PUBLIC KEY` document.
    public init(pem text: String) throws {
        let document = try PEMDocument(text)
        guard document.label == "PUBLIC KEY" else {
            throw CryptoError.malformedPEM("a \(document.label) where a PUBLIC KEY was expected")
        }
        try self.init(subjectPublicKeyInfo: document.der)
    }
}

/// A private key of a kind the push services use, read from its usual containers: an APNs
/// `.p8` (PKCS#8 around a P-256 key), a Google service account's `private_key` (PKCS#8 around an
/// RSA key), or the older SEC 1 and PKCS#1 forms.
public enum AsymmetricPrivateKey: Sendable, Equatable {
    /// A P-256 private key (an APNs `.p8`, a SEC 1 `EC PRIVATE KEY`).
    case p256(P256PrivateKey)
    /// An RSA private key (a service account's `private_key`, a PKCS#1 `RSA PRIVATE KEY`).
    case rsa(RSAPrivateKey)

    /// Reads PKCS#8's PrivateKeyInfo / OneAsymmetricKey (RFC 5208, 5; RFC 5958, 2; PEM label
    /// `PRIVATE KEY`): version 0 or 1, the algorithm, the inner key as an OCTET STRING (SEC 1's
    /// `ECPrivateKey` or PKCS#1's `RSAPrivateKey`), then optional attributes and public key.
    public init(pkcs8 der: [UInt8]) throws {
        var sequence = try DERReader.onlySequence(der, "PKCS#8 key")
        guard (0...1).contains(try sequence.readSmallInteger()) else {
            throw CryptoError.malformedDER("a PKCS#8 version is 0 or 1")
        }
        let algorithm = try AlgorithmIdentifier(&sequence)
        let inner = Array(try sequence.readOctetString())
        if sequence.nextTag == 0xA0 { _ = try sequence.read(tag: 0xA0) }   // attributes: not used
        if sequence.nextTag == 0x81 || sequence.nextTag == 0xA1 { _ = try sequence.read(tag: sequence.nextTag ?? 0) }
        try sequence.expectEnd("after the PKCS#8 fields")
        switch algorithm {
        case .p256: self = .p256(try P256PrivateKey(sec1: inner))
        case .rsa: self = .rsa(try RSAPrivateKey(pkcs1: inner))
        }
    }

    /// Reads a PEM document: `PRIVATE KEY` (PKCS#8), `EC PRIVATE KEY` (SEC 1) or
    /// `RSA PRIVATE KEY` (PKCS#1). Encrypted keys (`ENCRYPTED PRIVATE KEY`) are refused.
    public init(pem text: String) throws {
        let document = try PEMDocument(text)
        switch document.label {
        case "PRIVATE KEY": try self.init(pkcs8: document.der)
        case "EC PRIVATE KEY": self = .p256(try P256PrivateKey(sec1: document.der))
        case "RSA PRIVATE KEY": self = .rsa(try RSAPrivateKey(pkcs1: document.der))
        default: throw CryptoError.malformedPEM("a \(document.label) where a private key was expected")
        }
    }

    /// The matching public key.
    public var publicKey: AsymmetricPublicKey {
        switch self {
        case .p256(let key): return .p256(key.publicKey)
        case .rsa(let key): return .rsa(key.publicKey)
        }
    }
}

/// The AlgorithmIdentifier of a key (RFC 5280, 4.1.1.2) narrowed to the two kinds read here.
enum AlgorithmIdentifier {
    case p256
    case rsa

    /// Reads `SEQUENCE { OID, parameters }` from `reader`: id-ecPublicKey must name the P-256
    /// curve (RFC 5480, 2.1.1), rsaEncryption must carry NULL (RFC 8017, A.1).
    init(_ reader: inout DERReader) throws {
        var sequence = try reader.readSequence()
        let algorithm = try sequence.readObjectIdentifier()
        switch algorithm {
        case ObjectIdentifiers.ecPublicKey:
            let curve = try sequence.readObjectIdentifier()
            guard curve == ObjectIdentifiers.p256 else {
                throw CryptoError.unsupportedKey("the curve \(ObjectIdentifiers.dotted(curve)) (only P-256, 1.2.840.10045.3.1.7)")
            }
            self = .p256
        case ObjectIdentifiers.rsaEncryption:
            try sequence.readNull()
            self = .rsa
        default:
            throw CryptoError.unsupportedKey("the algorithm \(ObjectIdentifiers.dotted(algorithm)) (only EC P-256 and RSA)")
        }
        try sequence.expectEnd("after the algorithm's parameters")
    }
}
