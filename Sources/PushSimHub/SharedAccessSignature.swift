import PushSimKernel
import PushSimNetwork

/// Azure Service Bus shared access signatures:
/// `SharedAccessSignature sr=<url-encoded resource>&sig=<url-encoded signature>&se=<expiry, Unix s>&skn=<key name>`.
/// The real signature is HMAC-SHA256 over `<url-encoded resource>\n<expiry>`; PushSim signs the
/// same text with ``SimulatedSignature`` (no crypto library is allowed), so a wrong key, a changed
/// resource or expiry, or an unknown key name is refused just the same.
public enum SharedAccessSignature {
    /// Builds the header value the SDK sends.
    public static func token(resource: String, keyName: String, key: String, expiresAtUnixSeconds: Int64) -> String {
        let sr = percentEncode(resource.lowercased())
        let sig = SimulatedSignature.sign("\(sr)\n\(expiresAtUnixSeconds)", secret: key)
        return "SharedAccessSignature sr=\(sr)&sig=\(percentEncode(sig))&se=\(expiresAtUnixSeconds)&skn=\(keyName)"
    }

    /// Why a request is not authorised, as the 401 detail says it; nil when the token is good
    /// and the rule has `right`.
    static func problem(_ header: String?, rules: [SharedAccessRule], right: HubRight, nowUnixSeconds: Int64,
                        resource: String) -> String? {
        guard let header, header.hasPrefix("SharedAccessSignature ") else {
            return "MissingToken: The authorization header was not found."
        }
        var fields: [String: String] = [:]
        for part in header.dropFirst("SharedAccessSignature ".count).split(separator: "&") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            fields[String(part[..<eq])] = String(part[part.index(after: eq)...])
        }
        guard let sr = fields["sr"], let sig = fields["sig"], let seText = fields["se"], let se = Int64(seText),
              let skn = fields["skn"] else {
            return "InvalidSignature: The token is malformed."
        }
        guard let rule = rules.first(where: { $0.keyName == skn }),
              SimulatedSignature.verify(percentDecode(sig), message: "\(sr)\n\(se)", secret: rule.key) else {
            return "InvalidSignature: The token has an invalid signature."
        }
        guard nowUnixSeconds < se else { return "ExpiredToken: The token is expired." }
        // The signed resource must be this hub or a prefix of it (e.g. the namespace).
        var signed = percentDecode(sr).lowercased()
        if signed.hasSuffix("/") { signed.removeLast() }
        let target = resource.lowercased()
        guard target == signed || target.hasPrefix(signed + "/") else {
            return "InvalidAudience: The token was issued for '\(signed)', not for this hub."
        }
        guard rule.rights.contains(right) || rule.rights.contains(.manage) else {
            return "Unauthorized: The token does not grant the '\(right.rawValue)' claim needed for this operation."
        }
        return nil
    }
}
