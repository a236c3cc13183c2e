import PushSimKernel

/// A stand-in for the signatures real push credentials use: ES256 for APNs provider tokens and
/// RS256 for Google service-account assertions. (Azure SAS tokens are real HMAC-SHA256: see
/// ``HMACSHA256``.)
///
/// No cryptography library may be used, so PushSim signs with a keyed FNV-1a-64 digest, written
/// as 16 lowercase hex digits. It is deterministic and binds the signature to the key secret and
/// the exact signed text, which is all a simulation needs: a wrong key, a changed claim or a
/// truncated token is refused, as it would be by the real service. It is NOT secure and not
/// interoperable with real keys.
package enum SimulatedSignature {
    /// The signature of `message` under `secret`: FNV-1a-64 of the message, started from the
    /// digest of the secret and a zero byte, as 16 lower-case hex digits.
    public static func sign(_ message: String, secret: String) -> String {
        let hash = fnv1a64(message.utf8, start: fnv1a64(secret.utf8 + [0]))
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether `signature` is exactly ``sign(_:secret:)`` of `message` under `secret`.
    public static func verify(_ signature: String, message: String, secret: String) -> Bool {
        sign(message, secret: secret) == signature
    }
}
