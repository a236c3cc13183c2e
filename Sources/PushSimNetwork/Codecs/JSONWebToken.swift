import PushSimKernel

/// A JSON Web Token (`header.claims.signature`, each part base64url) signed with
/// `SimulatedSignature`. Used for APNs provider tokens (A-JWT) and Google OAuth assertions.
public struct JSONWebToken: Sendable, Equatable {
    /// The decoded header, an object (`alg`, `kid`, …).
    public var header: JSONValue
    /// The decoded claims, an object (`iss`, `iat`, …).
    public var claims: JSONValue
    /// The first two parts as sent: what the signature covers.
    public var signingInput: String
    /// The third part as sent: 16 hex digits for a `SimulatedSignature`, base64url for a real
    /// ES256 or RS256 signature.
    public var signature: String

    /// Builds and signs a token; members keep the order given.
    public static func make(header: JSONValue, claims: JSONValue, secret: String) -> String {
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        return input + "." + SimulatedSignature.sign(input, secret: secret)
    }

    /// Splits and decodes a token; nil if it is not three parts of base64url JSON objects. A
    /// token is ASCII by definition (RFC 7515's compact form: base64url parts joined by `.`), so
    /// it is split by bytes and one with any other character is no token.
    public static func parse(_ token: String) -> JSONWebToken? {
        guard let parts = ASCIIText.split(token, separator: UInt8(ascii: "."), omittingEmpty: false), parts.count == 3,
              let h = Base64URL.decode(parts[0]), let c = Base64URL.decode(parts[1]),
              let header = try? JSONParser.parse(h), let claims = try? JSONParser.parse(c),
              header.objectMembers != nil, claims.objectMembers != nil else { return nil }
        return JSONWebToken(header: header, claims: claims, signingInput: parts[0] + "." + parts[1],
                            signature: parts[2])
    }

    /// Whether ``signature`` is the `SimulatedSignature` of ``signingInput`` under `secret`.
    public func isSigned(with secret: String) -> Bool {
        SimulatedSignature.verify(signature, message: signingInput, secret: secret)
    }

    /// Whether the token's signature is accepted under `policy`: signed with `secret` by
    /// `SimulatedSignature`, or (``SignaturePolicy/structureOnly``) any non-empty base64url
    /// signature of a token whose header names `algorithm`.
    public func isAccepted(with secret: String, policy: SignaturePolicy, algorithm: String) -> Bool {
        switch policy {
        case .simulated: return isSigned(with: secret)
        case .structureOnly:
            return header["alg"]?.stringValue == algorithm && !signature.isEmpty && Base64URL.decode(signature) != nil
        }
    }
}

/// How a fake checks the signature of a token a client made with its private key (an APNs
/// provider token, ES256; a Google service-account assertion, RS256).
public enum SignaturePolicy: String, Sendable {
    /// Signed with PushSim's `SimulatedSignature` and the credential's stand-in secret: what
    /// in-world callers make; a wrong key or a changed claim is refused.
    case simulated
    /// The signature is **not verified** (no cryptography library may be used, and a real key's
    /// ES256 or RS256 signature cannot be checked without one): it must only be present, as
    /// base64url, under the header's expected `alg`. Every claim is still checked as the real
    /// service checks it. `pushsim serve` uses this, so that real SDKs signing with real keys get in.
    case structureOnly = "structure-only"
}
