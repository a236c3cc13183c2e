import PushSimKernel
import PushSimNetwork

/// Azure Service Bus shared access signatures:
/// `SharedAccessSignature sr=<url-encoded resource>&sig=<url-encoded signature>&se=<expiry, Unix s>&skn=<key name>`.
/// The signature is the real one (Microsoft's "Shared access signature authentication with Service
/// Bus" and the Notification Hubs REST "common concepts" page): the Base64 of HMAC-SHA256, keyed
/// with the rule's key as UTF-8 bytes, over `<url-encoded lowercase resource URI>\n<expiry>`,
/// itself URL-encoded in the header. ``HMACSHA256`` is PushSim's own implementation (no
/// cryptography library may be used), tested against RFC 4231. So a token an Azure SDK makes with
/// the hub's connection string verifies here, and a wrong key, a changed resource or expiry, or an
/// unknown key name is refused as the real hub refuses it.
///
/// The hub checks a token in the real service's order: well-formed, signature, expiry, audience
/// (the signed resource), claim. Everything but the expiry and the claim depends on the token's
/// text alone; ``verdict(_:rules:resource:)`` works that out once, and ``SASVerificationMemo``
/// keeps it per exact token string, so that the expiry and the claim are all that a repeated
/// token costs (callers send the same token for a second of virtual time, or an hour).
public enum SharedAccessSignature {
    /// Builds the header value the SDK sends.
    public static func token(resource: String, keyName: String, key: String, expiresAtUnixSeconds: Int64) -> String {
        let sr = percentEncode(resource.lowercased())
        let sig = signature("\(sr)\n\(expiresAtUnixSeconds)", key: key)
        return "SharedAccessSignature sr=\(sr)&sig=\(percentEncode(sig))&se=\(expiresAtUnixSeconds)&skn=\(keyName)"
    }

    /// Base64 of HMAC-SHA256 of `stringToSign` under `key` (its UTF-8 bytes, as Azure uses a SAS key).
    public static func signature(_ stringToSign: String, key: String) -> String {
        Base64.encode(HMACSHA256.authenticationCode(Array(stringToSign.utf8), key: Array(key.utf8)))
    }

    /// What a token's text alone decides: refused (malformed, or a signature that does not verify
    /// with the named rule's key), or signed by a rule until an expiry, for a resource that is or
    /// is not this hub.
    enum Verdict: Equatable {
        /// The 401 detail for a token refused whatever the time and the operation.
        case refused(String)
        /// A good signature by `rights`' rule, valid while now < `expiry` (Unix seconds);
        /// `audienceProblem` is the 401 detail when the signed resource is not this hub.
        case signed(expiry: Int64, audienceProblem: String?, rights: [HubRight])
    }

    /// The header's verdict: parses the token, verifies its signature with the key of the rule it
    /// names, and compares the signed resource with `resource`. Nil header or another scheme:
    /// ``problem(_:rules:right:nowUnixSeconds:resource:)`` answers MissingToken before asking.
    static func verdict(_ header: String, rules: [SharedAccessRule], resource: String, alsoAccepted: [String] = []) -> Verdict {
        var fields: [String: String] = [:]
        for (key, value) in ASCIIText.keyValuePairs(String(header.dropFirst("SharedAccessSignature ".count)), separator: UInt8(ascii: "&")) {
            fields[key] = value
        }
        guard let sr = fields["sr"], let sig = fields["sig"], let seText = fields["se"], let se = Int64(seText),
              let skn = fields["skn"] else {
            return .refused("InvalidSignature: The token is malformed.")
        }
        guard let rule = rules.first(where: { $0.keyName == skn }),
              let given = Base64.decode(percentDecode(sig)),
              HMACSHA256.equal(given, HMACSHA256.authenticationCode(Array("\(sr)\n\(se)".utf8), key: Array(rule.key.utf8))) else {
            return .refused("InvalidSignature: The token has an invalid signature.")
        }
        // The signed resource must be this hub or a prefix of it (e.g. the namespace).
        var signed = percentDecode(sr).lowercased()
        if signed.hasSuffix("/") { signed.removeLast() }
        let covers = { (target: String) in target == signed || target.hasPrefix(signed + "/") }
        let audience = covers(resource.lowercased()) || alsoAccepted.contains(where: { covers($0.lowercased()) }) ? nil
            : "InvalidAudience: The token was issued for '\(signed)', not for this hub."
        return .signed(expiry: se, audienceProblem: audience, rights: rule.rights)
    }

    /// Why a request with this verdict is not authorised at `nowUnixSeconds` for an operation
    /// needing `right`, as the 401 detail says it; nil when it is.
    static func problem(_ verdict: Verdict, right: HubRight, nowUnixSeconds: Int64) -> String? {
        switch verdict {
        case .refused(let detail): return detail
        case .signed(let expiry, let audienceProblem, let rights):
            guard nowUnixSeconds < expiry else { return "ExpiredToken: The token is expired." }
            if let audienceProblem { return audienceProblem }
            guard rights.contains(right) || rights.contains(.manage) else {
                return "Unauthorized: The token does not grant the '\(right.rawValue)' claim needed for this operation."
            }
            return nil
        }
    }

    /// Why a request is not authorised, as the 401 detail says it; nil when the token is good
    /// and the rule has `right`.
    static func problem(_ header: String?, rules: [SharedAccessRule], right: HubRight, nowUnixSeconds: Int64,
                        resource: String) -> String? {
        guard let header, header.hasPrefix("SharedAccessSignature ") else {
            return "MissingToken: The authorization header was not found."
        }
        return problem(verdict(header, rules: rules, resource: resource), right: right, nowUnixSeconds: nowUnixSeconds)
    }
}

/// The hub's memory of the last few SAS tokens it verified, by exact token string: the part of
/// the check that depends on the token's text alone (``SharedAccessSignature/Verdict``). The
/// expiry and the claim are checked on every request, against virtual time, so a memoized token
/// is refused once it has run out exactly as a fresh one would be: the memo changes no answer,
/// only what a repeated token costs.
///
/// A token is the same string for as long as its caller keeps it (the SDK makes one per second of
/// virtual time); a handful of callers use one hub. The memo holds the `capacity` most recently
/// verified tokens, replaced oldest first, and is searched in order (no dictionary: a string
/// comparison is cheaper than hashing the ~200-byte token, and nothing depends on hash order).
struct SASVerificationMemo {
    static let capacity = 8
    private var memo = RecentMemo<String, SharedAccessSignature.Verdict>(capacity: capacity)

    /// The verdict for `token`, from memory or worked out by `verify` and remembered.
    mutating func verdict(_ token: String, verify: (String) -> SharedAccessSignature.Verdict) -> SharedAccessSignature.Verdict {
        memo.value(for: token, compute: verify)
    }

    /// How many tokens are remembered (for tests).
    var count: Int { memo.count }
}
