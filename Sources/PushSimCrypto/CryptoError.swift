/// Why the toolkit refused its input. Every reader and every check throws one of these (or
/// answers false) instead of crashing, whatever bytes it is given; the reason says what was
/// wrong, in words a log can show.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// DER that is not well formed, or not the structure expected (X.690; RFC 5915, 5958, 5280, 8017).
    case malformedDER(String)
    /// Text that is not a PEM document (RFC 7468).
    case malformedPEM(String)
    /// A JSON Web Key with a missing, misspelt or ill-sized member (RFC 7517, 7518).
    case malformedJWK(String)
    /// A well-formed key of a kind the toolkit does not handle (another curve, another algorithm).
    case unsupportedKey(String)
    /// A public point that is not on P-256 or not encoded as an uncompressed point.
    case invalidPoint(String)
    /// A private key outside 1 … n − 1, or a zero shared secret.
    case invalidScalar(String)
    /// A signature that cannot even be read (wrong length, bad DER, r or s out of range).
    case malformedSignature(String)
    /// An input of the wrong size (an AES key that is not 16 bytes, an empty nonce, too long an output).
    case invalidLength(String)
    /// AES-GCM's tag did not match: the ciphertext, the additional data, the key or the nonce is
    /// not what was sealed (NIST SP 800-38D, 7.2: the plaintext is then not released).
    case authenticationFailed
    /// An `aes128gcm` encrypted content (RFC 8188, RFC 8291) that cannot be decrypted as one record.
    case malformedContent(String)

    /// The kind of refusal and its reason, in one line.
    public var description: String {
        switch self {
        case .malformedDER(let reason): return "malformed DER: \(reason)"
        case .malformedPEM(let reason): return "malformed PEM: \(reason)"
        case .malformedJWK(let reason): return "malformed JWK: \(reason)"
        case .unsupportedKey(let reason): return "unsupported key: \(reason)"
        case .invalidPoint(let reason): return "invalid point: \(reason)"
        case .invalidScalar(let reason): return "invalid scalar: \(reason)"
        case .malformedSignature(let reason): return "malformed signature: \(reason)"
        case .invalidLength(let reason): return "invalid length: \(reason)"
        case .authenticationFailed: return "authentication failed: the AES-GCM tag does not match"
        case .malformedContent(let reason): return "malformed aes128gcm content: \(reason)"
        }
    }
}
