import PushSimKernel
import PushSimCrypto

/// A JSON Web Token in JWS compact form (`header.claims.signature`, each part base64url without
/// padding, RFC 7515 §3.1 and §7.1): APNs provider tokens (ES256) and Google OAuth assertions
/// (RS256). Made and checked with real keys (`PushSimCrypto`); each signature and each check is
/// done once per process (`JWTSignatureMemo`).
package struct JSONWebToken: Sendable, Equatable {
    /// The decoded header, an object (`alg`, `kid`, …).
    package var header: JSONValue
    /// The decoded claims, an object (`iss`, `iat`, …).
    package var claims: JSONValue
    /// The first two parts as sent: what the signature covers (RFC 7515 §5.1, the JWS Signing Input).
    package var signingInput: String
    /// The third part as sent: the signature, base64url.
    package var signature: String

    /// Builds a token signed with ES256 (RFC 7518 §3.4: ECDSA P-256 with SHA-256, the signature
    /// JOSE's 64 bytes `r ‖ s`); members keep the order given.
    package static func make(header: JSONValue, claims: JSONValue, signingKey: P256PrivateKey) -> String {
        let input = signingInput(header: header, claims: claims)
        return input + "." + JWTSignatureMemo.shared.signature(JWTSignatureMemo.key(signingKey.publicKey, input)) {
            Base64URL.encode(signingKey.signature(for: Array(input.utf8)).rawRepresentation)
        }
    }

    /// An APNs provider token (Apple, "Establishing a token-based connection to APNs", A-JWT):
    /// header `alg` ES256 and `kid` the key id, claims `iss` the team id and `iat` Unix seconds,
    /// signed with the key's private half. What the hub, FCM's relay and every in-world APNs client
    /// send in `authorization: bearer`.
    package static func apnsProviderToken(keyID: String, teamID: String, issuedAt unixSeconds: Int64, signingKey: P256PrivateKey) -> String {
        make(header: .object([("alg", .string("ES256")), ("kid", .string(keyID))]),
             claims: .object([("iss", .string(teamID)), ("iat", .number(JSONNumber(unixSeconds)))]), signingKey: signingKey)
    }

    /// Builds a token signed with RS256 (RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-256); members
    /// keep the order given.
    package static func make(header: JSONValue, claims: JSONValue, signingKey: RSAPrivateKey) -> String {
        let input = signingInput(header: header, claims: claims)
        return input + "." + JWTSignatureMemo.shared.signature(JWTSignatureMemo.key(signingKey.publicKey, input)) {
            Base64URL.encode(signingKey.signature(for: Array(input.utf8)))
        }
    }

    /// `base64url(header) "." base64url(claims)`.
    private static func signingInput(header: JSONValue, claims: JSONValue) -> String {
        Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
    }

    /// Splits and decodes a token; nil if it is not three parts of base64url JSON objects. A
    /// token is ASCII by definition (RFC 7515's compact form: base64url parts joined by `.`), so
    /// it is split by bytes and one with any other character is no token.
    package static func parse(_ token: String) -> JSONWebToken? {
        guard let parts = ASCIIText.split(token, separator: UInt8(ascii: "."), omittingEmpty: false), parts.count == 3,
              let h = Base64URL.decode(parts[0]), let c = Base64URL.decode(parts[1]),
              let header = try? JSONParser.parse(h), let claims = try? JSONParser.parse(c),
              header.objectMembers != nil, claims.objectMembers != nil else { return nil }
        return JSONWebToken(header: header, claims: claims, signingInput: parts[0] + "." + parts[1],
                            signature: parts[2])
    }

    /// The signature's bytes; nil when the part is empty or not base64url.
    package var signatureBytes: [UInt8]? {
        guard !signature.isEmpty, let bytes = Base64URL.decode(signature), !bytes.isEmpty else { return nil }
        return bytes
    }

    /// Whether the signature is `key`'s ES256 signature of the signing input: JOSE's 64 bytes
    /// `r ‖ s` (RFC 7518 §3.4), or, with `acceptingDER`, the DER `SEQUENCE { r, s }` that
    /// OpenSSL-style APIs give and some clients send unconverted (APNs takes it: see `APNsProviderTokens`).
    package func hasValidES256Signature(by key: P256PublicKey, acceptingDER: Bool) -> Bool {
        JWTSignatureMemo.shared.verdict(JWTSignatureMemo.key(key, "\(acceptingDER) \(signingInput).\(signature)")) {
            checkES256Signature(by: key, acceptingDER: acceptingDER)
        }
    }

    private func checkES256Signature(by key: P256PublicKey, acceptingDER: Bool) -> Bool {
        guard let bytes = signatureBytes else { return false }
        let message = Array(signingInput.utf8)
        if bytes.count == 64, let raw = try? P256Signature(rawRepresentation: bytes), key.isValidSignature(raw, for: message) {
            return true
        }
        guard acceptingDER, bytes.first == 0x30, let der = try? P256Signature(derRepresentation: bytes) else { return false }
        return key.isValidSignature(der, for: message)
    }

    /// Whether the signature is `key`'s RS256 signature of the signing input (RFC 7518 §3.3:
    /// exactly as many bytes as the modulus, checked as RFC 8017 §8.2.2 says).
    package func hasValidRS256Signature(by key: RSAPublicKey) -> Bool {
        JWTSignatureMemo.shared.verdict(JWTSignatureMemo.key(key, signingInput + "." + signature)) {
            guard let bytes = signatureBytes else { return false }
            return key.isValidSignature(bytes, for: Array(signingInput.utf8))
        }
    }

    /// What ``SignaturePolicy/structureOnly`` asks: the header names `algorithm` and a signature
    /// is present as base64url, whatever it is.
    package func hasSignatureShape(algorithm: String) -> Bool {
        header["alg"]?.stringValue == algorithm && signatureBytes != nil
    }
}
