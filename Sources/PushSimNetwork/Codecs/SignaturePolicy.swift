/// How a fake checks the signature of a token a client made with its private key: an APNs
/// provider token (ES256) or a Google service-account assertion (RS256).
public enum SignaturePolicy: String, Sendable, CaseIterable {
    /// The signature must verify with the public key registered for the token's key (APNs: the
    /// key id and team; Google: the service account), as the real services check it. The default,
    /// in scenarios and under `pushsim serve`.
    case verify
    /// The signature is **not verified**: it must only be present, as base64url, under the
    /// header's expected `alg`; every claim is still checked. An opt-in of `pushsim serve`
    /// (`--signatures structure-only`) for clients that cannot be given the server's keys or
    /// have their own registered.
    case structureOnly = "structure-only"
}
