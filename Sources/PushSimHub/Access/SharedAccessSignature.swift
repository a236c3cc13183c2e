import PushSimCrypto
import PushSimKernel
import PushSimNetwork

/// Azure Service Bus shared access signatures:
/// `SharedAccessSignature sr=<url-encoded resource>&sig=<url-encoded signature>&se=<expiry, Unix s>&skn=<key name>`.
/// The signature is the real one (Microsoft's "Shared access signature authentication with Service
/// Bus" and the Notification Hubs REST "common concepts" page): the Base64 of HMAC-SHA256, keyed
/// with the rule's key as UTF-8 bytes, over `<url-encoded lowercase resource URI>\n<expiry>`,
/// itself URL-encoded in the header. `HMACSHA256` is PushSim's own implementation (no
/// cryptography library may be used), tested against RFC 4231. So a token an Azure SDK makes with
/// the hub's connection string verifies here, and a wrong key, a changed resource or expiry, or an
/// unknown key name is refused as the real hub refuses it.
///
/// The hub checks a token in the real service's order: well-formed, signature, expiry, audience
/// (the signed resource, see `Audience`), claim. Everything but the expiry, the claim and, for a
/// token signed for a part of the hub, the request it comes with depends on the token's text
/// alone; `verdict(_:rules:resource:alsoAccepted:)` works that out once, and
/// `SASVerificationMemo` keeps it per exact token string, so that the expiry and the claim are
/// all that a repeated token costs (callers send the same token for a second of virtual time, or an hour).
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
    /// with the named rule's key), or signed by a rule until an expiry, for a resource that is this
    /// hub (or above it), a part of it, or something else.
    enum Verdict: Equatable {
        /// The 401 detail for a token refused whatever the time and the operation.
        case refused(String)
        /// A good signature by `rights`' rule, valid while now < `expiry` (Unix seconds), for `audience`.
        case signed(expiry: Int64, audience: Audience, rights: [HubRight])
    }

    /// Which requests a token's signed resource (`sr`) covers. A token covers the resource it
    /// names and everything below it: the connection string's recipe signs the hub (or the
    /// namespace) and covers every call, while the .NET SDK signs each request's own URL, with
    /// `http` for its scheme, its query dropped and a trailing slash added
    /// (`http://<ns>/<hub>/registrations/`, NH-DOTNET `TokenProvider.NormalizeAppliesTo`), which
    /// covers that call only; the Java SDK signs each request's whole URI, query included. Neither
    /// the scheme, the port nor the query is compared: the service takes the .NET SDK's `http`
    /// tokens on its `https` endpoint, and the SDKs sign without the port or with the query.
    enum Audience: Equatable {
        /// The hub or a resource above it: every request.
        case wholeHub
        /// A resource inside the hub, as ``comparable(_:)`` writes it: the requests at or below it.
        case part(String)
        /// Another resource: the 401 detail.
        case elsewhere(String)
    }

    /// A resource URI as audiences are compared: lower case, without its scheme, port or query,
    /// and without trailing slashes (`pushsim.servicebus.windows.net/notifyusers/registrations`).
    /// The .NET SDK drops the port before it signs (`Port = -1`), so a token it makes for
    /// `pushsim serve` names `127.0.0.1` without the server's port; the Java SDK signs the whole
    /// request URI, query included (NH-JAVA `SasTokenProvider.generateSasToken`).
    static func comparable(_ uri: String) -> String {
        var text = Substring(uri.lowercased())
        if let scheme = text.firstRange(of: "://") { text = text[scheme.upperBound...] }
        if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<query] }
        let hostEnd = text.firstIndex(of: "/") ?? text.endIndex
        if let colon = text[..<hostEnd].lastIndex(of: ":"), text[text.index(after: colon)..<hostEnd].allSatisfy({ $0 >= "0" && $0 <= "9" }) {
            text = text[..<colon] + text[hostEnd...]
        }
        while text.last == "/" { text.removeLast() }
        return String(text)
    }

    /// Whether `resource` (comparable) is `covering` (comparable) or below it.
    static func isCovered(_ resource: String, by covering: String) -> Bool {
        resource == covering || (resource.hasPrefix(covering) && resource.utf8.dropFirst(covering.utf8.count).first == UInt8(ascii: "/"))
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
        let signed = comparable(percentDecode(sr))
        let hubs = ([resource] + alsoAccepted).map(comparable)
        let audience: Audience = hubs.contains { isCovered($0, by: signed) } ? .wholeHub
            : hubs.contains { isCovered(signed, by: $0) } ? .part(signed)
            : .elsewhere(audienceProblem(signed))
        return .signed(expiry: se, audience: audience, rights: rule.rights)
    }

    /// The 401 detail for a token whose signed resource does not cover the request.
    static func audienceProblem(_ signed: String) -> String {
        "InvalidAudience: The token was issued for '\(signed)', not for this resource."
    }

    /// Why a request with this verdict is not authorised at `nowUnixSeconds` for an operation
    /// needing `right`, as the 401 detail says it; nil when it is. `requestResources` gives the
    /// request's URL under each of the hub's addresses, asked only for a token signed for a part
    /// of the hub.
    static func problem(_ verdict: Verdict, right: HubRight, nowUnixSeconds: Int64,
                        requestResources: () -> [String] = { [] }) -> String? {
        switch verdict {
        case .refused(let detail): return detail
        case .signed(let expiry, let audience, let rights):
            // Worded as the live hub words them (NH-DOTNET-12, SBEXPLORER-128).
            guard nowUnixSeconds < expiry else { return "ExpiredToken: " }
            switch audience {
            case .wholeHub: break
            case .elsewhere(let detail): return detail
            case .part(let signed):
                guard requestResources().contains(where: { isCovered(comparable($0), by: signed) }) else { return audienceProblem(signed) }
            }
            guard rights.contains(right) || rights.contains(.manage) else {
                return "\(right.rawValue) claim is required for this operation."
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
