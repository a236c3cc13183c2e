/// An iOS app instance's FCM registration token bound to its APNs device token: what the Firebase
/// iOS SDK hands FCM when it asks for a token (FIOS-TOKEN). Its token request carries the APNs
/// token as the `apns_token` parameter, written as a type prefix and the token in hex: `p_` for a
/// production token, `s_` for a sandbox one; FCM then relays sends for the FCM token to that APNs
/// token, in that environment, for the app's bundle id.
public struct FCMAPNsBinding: Sendable, Equatable {
    /// The APNs device token, in hex.
    public var apnsToken: String
    /// Whether the APNs token is a sandbox (development) one: FCM then relays to
    /// `api.sandbox.push.apple.com`.
    public var sandbox: Bool
    /// The app's bundle id, sent as `apns-topic`.
    public var bundleID: String

    /// A binding of `apnsToken` (hex) for `bundleID`.
    public init(apnsToken: String, sandbox: Bool, bundleID: String) {
        self.apnsToken = apnsToken
        self.sandbox = sandbox
        self.bundleID = bundleID
    }

    /// Reads the SDK's `apns_token` value, `p_<hex>` or `s_<hex>`: nil for anything else (no prefix,
    /// an empty token, or a character that is not a hex digit).
    public init?(tupleString: String, bundleID: String) {
        let bytes = Array(tupleString.utf8)
        guard bytes.count > 2, bytes[1] == UInt8(ascii: "_"), bytes[0] == UInt8(ascii: "p") || bytes[0] == UInt8(ascii: "s") else { return nil }
        let hex = bytes.dropFirst(2)
        guard hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }) else { return nil }
        self.init(apnsToken: String(decoding: hex, as: UTF8.self).lowercased(), sandbox: bytes[0] == UInt8(ascii: "s"), bundleID: bundleID)
    }

    /// The SDK's `apns_token` value for an APNs token: `p_<hex>` (production) or `s_<hex>` (sandbox).
    public static func tupleString(apnsToken: String, sandbox: Bool) -> String { (sandbox ? "s_" : "p_") + apnsToken }
}
