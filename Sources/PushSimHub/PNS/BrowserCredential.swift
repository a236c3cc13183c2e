import PushSimCrypto
import PushSimKernel

/// The hub's browser (Web Push) credential, its `browserCredential`: the VAPID `subject` and key
/// pair the hub signs its Web Push requests with (NH-BROWSER "Set credentials"; NH-DOTNET
/// `BrowserCredential.cs`, which requires all three). The keys are base64url, the public key the
/// 65-byte uncompressed point and the private key the 32-byte scalar, as VAPID key generators
/// write them (RFC 8292 §3.2 for the public key's form).
///
/// Beyond the SDK's "not blank" checks, PushSim refuses a subject that is neither `mailto:` nor
/// `https:` (RFC 8292 §2.1 asks for one of those), keys it cannot read, and a public key that is
/// not the private key's: a hub so configured could sign nothing a push service accepts. That the
/// real hub checks this much when the credential is saved is unconfirmed; the wording is ours.
///
/// Set it with ``HubConfiguration/browser``; the hub's Web Push adapter signs with it.
public struct BrowserCredential: Equatable, Sendable {
    /// The VAPID `sub` claim: a `mailto:` or `https:` URL of the sender.
    public var subject: String
    /// The VAPID public key, base64url of the uncompressed point (the `k=` of each request).
    public var vapidPublicKey: String
    /// The VAPID private key, base64url of the 32-byte scalar.
    public var vapidPrivateKey: String

    /// The length of a P-256 private key in bytes.
    static let privateKeyLength = 32

    /// A checked credential; throws a refusal naming the first field at fault.
    public init(subject: String, vapidPublicKey: String, vapidPrivateKey: String) throws(InstallationProblem) {
        guard subject.hasPrefix("mailto:") || subject.hasPrefix("https://") else {
            throw InstallationProblem("subject must be a mailto: or https: URL.")
        }
        let publicKey = try P256PublicKey.readBase64URL(vapidPublicKey, field: "vapidPublicKey")
        guard let privateBytes = Base64URL.decode(vapidPrivateKey), privateBytes.count == Self.privateKeyLength,
              let privateKey = try? P256PrivateKey(rawRepresentation: privateBytes) else {
            throw InstallationProblem("vapidPrivateKey must be the base64url of a 32-byte P-256 private key.")
        }
        guard privateKey.publicKey == publicKey else {
            throw InstallationProblem("vapidPublicKey is not the public key of vapidPrivateKey.")
        }
        self.subject = subject
        self.vapidPublicKey = vapidPublicKey
        self.vapidPrivateKey = vapidPrivateKey
    }

    /// The credential of a VAPID key pair held as a key (a scenario's or a test's), its keys
    /// written as a generator writes them; throws for a subject that is neither `mailto:` nor `https:`.
    public init(subject: String, key: P256PrivateKey) throws(InstallationProblem) {
        try self.init(subject: subject, vapidPublicKey: Base64URL.encode(key.publicKey.x963Representation),
                      vapidPrivateKey: Base64URL.encode(key.rawRepresentation))
    }

    /// The private key, for signing (checked when the credential was made).
    var signingKey: P256PrivateKey? {
        Base64URL.decode(vapidPrivateKey).flatMap { try? P256PrivateKey(rawRepresentation: $0) }
    }
}
