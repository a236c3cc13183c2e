import PushSimKernel
import PushSimCrypto

/// What an application server's Web Push library does to identify itself (RFC 8292, Citations
/// §9.2): a JSON Web Token with the claims `aud` (the push resource's origin), `exp` (Unix
/// seconds, at most 24 hours ahead) and `sub` (a `mailto:` or `https:` contact), signed ES256
/// (JOSE: `r || s`, 64 bytes), sent as `Authorization: vapid t=<JWT>, k=<public key>`. What
/// `pywebpush`, `web-push` (Node) and the others send; PushSim's scenario application servers
/// sign with it.
public enum VAPIDSigner {
    /// The `Authorization` value for a message to `endpoint`: a token signed with `signingKey`,
    /// valid until `expiresAt` (Unix seconds), naming `subject`. `claimedKey` is the `k=` key,
    /// the signing key's own unless given (another key's makes a forged token, which the push
    /// service refuses as its signature does not verify).
    public static func authorization(endpoint: String, signingKey: P256PrivateKey, expiresAt: Int64, subject: String,
                                     claimedKey: P256PublicKey? = nil) -> String {
        let token = JSONWebToken.make(header: .object([("typ", .string("JWT")), ("alg", .string("ES256"))]),
                                      claims: .object([("aud", .string(origin(of: endpoint))), ("exp", .number(JSONNumber(expiresAt))),
                                                       ("sub", .string(subject))]),
                                      signingKey: signingKey)
        let key = (claimedKey ?? signingKey.publicKey).x963Representation
        return "vapid t=\(token), k=\(Base64URL.encode(key))"
    }

    /// The origin of `endpoint` (`https://<host>`), what `aud` must name (RFC 8292 section 2).
    public static func origin(of endpoint: String) -> String {
        let scheme = endpoint.hasPrefix("http://") ? "http://" : "https://"
        guard endpoint.hasPrefix(scheme) else { return endpoint }
        return scheme + endpoint.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" }
    }
}
