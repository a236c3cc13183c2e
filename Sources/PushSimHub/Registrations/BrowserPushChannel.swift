import PushSimCrypto
import PushSimKernel
import PushSimNetwork

/// A browser's Web Push subscription as the hub keeps it for the `browser` platform: the push
/// service's `endpoint` URL, the browser's P-256 key `p256dh` and its 16-byte `auth` secret, the
/// two keys in base64url as the browser's `PushSubscription.toJSON()` gives them (W3C Push API;
/// RFC 8291 §3). A browser registration description carries them as `Endpoint`, `P256DH` and
/// `Auth` (NH-JS `BrowserRegistrationDescription`); an installation's `pushChannel` is the object
/// `{"endpoint", "p256dh", "auth"}` (NH-BROWSER "Create registrations and installations"; the JS
/// SDK sends that object, NH-JS `BrowserPushChannel`), or that object serialized into a string, as
/// the .NET SDK's `BrowserInstallation` sends it (NH-DOTNET `BrowserInstallation.cs`).
///
/// Read once, checked once: the keys are checked as RFC 8291 needs them (p256dh a point of the
/// curve in uncompressed form, 65 bytes; auth 16 bytes), so that a send never meets an unusable
/// subscription (Citations §4.11). The wording of the refusals is ours (unconfirmed: the hub's
/// own text for a bad browser channel is not documented); each names the field at fault.
public struct BrowserPushChannel: Equatable, Sendable {
    /// The push service's URL for this subscription (absolute, `https`).
    public var endpoint: String
    /// The browser's public key, base64url of its 65-byte uncompressed form, as given.
    public var p256dh: String
    /// The browser's authentication secret, base64url of its 16 bytes, as given.
    public var auth: String

    /// The length of an authentication secret in bytes (RFC 8291 §3.2).
    static let authSecretLength = 16

    /// A checked channel; throws a refusal naming the first field at fault.
    public init(endpoint: String, p256dh: String, auth: String) throws(InstallationProblem) {
        guard endpoint.hasPrefix("https://"), endpoint.utf8.count > "https://".utf8.count else {
            throw InstallationProblem("endpoint must be an absolute https URL.")
        }
        _ = try P256PublicKey.readBase64URL(p256dh, field: "p256dh")
        guard let secret = Base64URL.decode(auth), secret.count == Self.authSecretLength else {
            throw InstallationProblem("auth must be the base64url of a 16-byte secret.")
        }
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }

    /// Reads an installation's `pushChannel`: the object, or a string holding it (the .NET SDK's
    /// form); a missing or non-string member is named.
    init(json given: JSONValue) throws(InstallationProblem) {
        var json = given
        if let text = given.stringValue, let inner = try? JSONParser.parse(Array(text.utf8)) { json = inner }
        guard json.objectMembers != nil else {
            throw InstallationProblem("pushChannel of a browser installation must be an object with endpoint, p256dh and auth.")
        }
        func member(_ name: String) throws(InstallationProblem) -> String {
            guard let text = json[name]?.stringValue, !text.isEmpty else {
                throw InstallationProblem("pushChannel.\(name) is required.")
            }
            return text
        }
        try self.init(endpoint: member("endpoint"), p256dh: member("p256dh"), auth: member("auth"))
    }

    /// The installation's `pushChannel` object, members sorted.
    var json: JSONValue {
        .object([("auth", .string(auth)), ("endpoint", .string(endpoint)), ("p256dh", .string(p256dh))])
    }

    /// The registration's PNS handle, as the .NET SDK makes it (NH-DOTNET
    /// `BrowserRegistrationDescription.GetPnsHandle`): standard base64 of the JSON object
    /// `{"endpoint":…,"p256dh":…,"auth":…}` in that order. One string per subscription, so the
    /// hub's stores, which keep one handle a registration, keep a browser's three fields in it.
    public var pnsHandle: String {
        let json = JSONValue.object([("endpoint", .string(endpoint)), ("p256dh", .string(p256dh)), ("auth", .string(auth))])
        return Base64.encode(json.serializedBytes())
    }

    /// Reads a ``pnsHandle`` back; throws when it is not one.
    public init(pnsHandle: String) throws(InstallationProblem) {
        guard let bytes = Base64.decode(pnsHandle), let json = try? JSONParser.parse(bytes), json.objectMembers != nil else {
            throw InstallationProblem("The browser handle must be the base64 of a JSON object with endpoint, p256dh and auth.")
        }
        try self.init(json: json)
    }

    /// The browser's public key, for encrypting to it (checked when the channel was made).
    var publicKey: P256PublicKey? { try? P256PublicKey.readBase64URL(p256dh, field: "p256dh") }

    /// The authentication secret's bytes.
    var authSecret: [UInt8]? { Base64URL.decode(auth) }
}
