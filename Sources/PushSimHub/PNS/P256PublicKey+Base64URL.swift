import PushSimKernel
import PushSimCrypto

extension P256PublicKey {
    /// Reads `text` as a Web Push key is written: the base64url (RFC 4648 §5) of the 65-byte
    /// uncompressed point (SEC 1, 2.3.3), as in a subscription's `p256dh` (RFC 8291 §3.2) and a
    /// VAPID `k=` (RFC 8292 §3.2). Throws a refusal naming `field` for anything else, a point off
    /// the curve included.
    static func readBase64URL(_ text: String, field: String) throws(InstallationProblem) -> P256PublicKey {
        guard let bytes = Base64URL.decode(text), let key = try? P256PublicKey(x963Representation: bytes) else {
            throw InstallationProblem("\(field) must be the base64url of an uncompressed P-256 public key (65 bytes).")
        }
        return key
    }
}
