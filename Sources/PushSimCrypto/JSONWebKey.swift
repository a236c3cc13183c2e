import PushSimKernel

/// Reading a JSON Web Key (RFC 7517) holding a public key: `kty` `EC` with `crv` `P-256` and the
/// coordinates `x`, `y` (RFC 7518, 6.2.1), or `kty` `RSA` with `n` and `e` (RFC 7518, 6.3.1);
/// each value base64url without padding (RFC 7515, 2). Other members (`kid`, `alg`, `use`, a
/// private `d`) are not read here.
///
/// The caller parses the JSON (the toolkit has no JSON reader of its own) and hands over the
/// object's string members.
extension AsymmetricPublicKey {
    /// The key that the JWK's string `members` describe.
    public init(jwkMembers members: [String: String]) throws {
        guard let kty = members["kty"] else { throw CryptoError.malformedJWK("no \"kty\" member") }
        switch kty {
        case "EC":
            guard let curve = members["crv"] else { throw CryptoError.malformedJWK("an EC key without \"crv\"") }
            guard curve == "P-256" else { throw CryptoError.unsupportedKey("the JWK curve \"\(curve)\" (only P-256)") }
            let x = try JSONWebKeyMember.bytes("x", in: members)
            let y = try JSONWebKeyMember.bytes("y", in: members)
            // RFC 7518, 6.2.1.2–3: each coordinate is the full 32 bytes, even with leading zeros.
            guard x.count == 32, y.count == 32 else {
                throw CryptoError.malformedJWK("P-256 \"x\" and \"y\" are 32 bytes each, not \(x.count) and \(y.count)")
            }
            self = .p256(try P256PublicKey(x: x, y: y))
        case "RSA":
            self = .rsa(try RSAPublicKey(modulus: try JSONWebKeyMember.bytes("n", in: members),
                                         exponent: try JSONWebKeyMember.bytes("e", in: members)))
        default:
            throw CryptoError.unsupportedKey("the JWK key type \"\(kty)\" (only EC and RSA)")
        }
    }
}

/// A JWK member's base64url value as bytes.
enum JSONWebKeyMember {
    static func bytes(_ name: String, in members: [String: String]) throws -> [UInt8] {
        guard let text = members[name] else { throw CryptoError.malformedJWK("no \"\(name)\" member") }
        guard !text.isEmpty, !text.contains("="), let bytes = Base64URL.decode(text) else {
            throw CryptoError.malformedJWK("\"\(name)\" is not unpadded base64url")
        }
        return bytes
    }
}
