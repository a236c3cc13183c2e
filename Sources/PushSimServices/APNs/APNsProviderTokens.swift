import PushSimKernel
import PushSimNetwork

/// A signing key registered with Apple: the `.p8` key behind provider tokens (A-JWT).
public struct APNsSigningKey: Sendable, Equatable {
    /// 10-character Key ID (`kid`).
    public var keyID: String
    /// 10-character Team ID (`iss`).
    public var teamID: String
    /// Stands in for the private key; see `SimulatedSignature`.
    public var secret: String
    /// Registers nothing by itself: pass the key to ``APNsConfiguration`` for the service to accept it.
    public init(keyID: String, teamID: String, secret: String) {
        self.keyID = keyID
        self.teamID = teamID
        self.secret = secret
    }
}

/// Checks provider authentication tokens the way APNs does (Citations §1.6, sources A-JWT, A-RESP):
/// - no `authorization` header: 403 `MissingProviderToken`;
/// - not `bearer <jwt>`, alg other than ES256, unknown `kid`, `iss` not the key's team, or a
///   signature that does not verify: 403 `InvalidProviderToken`;
/// - `iat` more than one hour ago: 403 `ExpiredProviderToken`;
/// - a new token from the same provider less than 20 minutes after the previous new one:
///   429 `TooManyProviderTokenUpdates`.
/// What is simulated: the ES256 signature (see ``SimulatedSignature``) and the connection (one
/// per calling host and key). The claims, the key lookup and the time rules are checked as APNs does.
struct APNsProviderTokens {
    var keys: [APNsSigningKey] { didSet { lastVerified = nil } }
    /// How provider tokens' ES256 signatures are checked (see ``SignaturePolicy``).
    var signaturePolicy = SignaturePolicy.simulated { didSet { lastVerified = nil } }
    /// Per caller and key: the token last adopted and when.
    private var adopted: [String: (token: String, at: VirtualTime)] = [:]

    init(keys: [APNsSigningKey]) { self.keys = keys }

    /// The last `authorization` value that verified, with its key id and `iat`: a provider sends
    /// the same token with every request for up to an hour, so the claims and signature of a
    /// value seen before need not be checked again (the time rules still are).
    private var lastVerified: (authorization: String, token: String, kid: String, iat: Int64)?
    /// The caller, key and token of the last request that passed ``checkTimes``: `adopted` holds
    /// that token for that caller and key until a later request changes it (which resets this).
    private var lastAdopted: (caller: String, kid: String, token: String)?

    mutating func check(_ authorization: String?, caller: String, now: VirtualTime, stampClock: Int64) -> APNsRejection? {
        guard let authorization, !authorization.isEmpty else { return .missingProviderToken }
        if let v = lastVerified, v.authorization == authorization {
            return checkTimes(token: v.token, kid: v.kid, iat: v.iat, caller: caller, now: now, stampClock: stampClock)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", let jwt = JSONWebToken.parse(String(parts[1])),
              jwt.header["alg"]?.stringValue == "ES256",
              let kid = jwt.header["kid"]?.stringValue, let key = keys.first(where: { $0.keyID == kid }),
              jwt.claims["iss"]?.stringValue == key.teamID, let iat = Self.issuedAt(jwt.claims["iat"]),
              jwt.isAccepted(with: key.secret, policy: signaturePolicy, algorithm: "ES256")
        else { return .invalidProviderToken }
        let token = String(parts[1])
        lastVerified = (authorization, token, kid, iat)
        return checkTimes(token: token, kid: kid, iat: iat, caller: caller, now: now, stampClock: stampClock)
    }

    /// `iat` as Unix seconds: a JSON number, or a string of digits (kalyke-apns, a widely used
    /// Python client, sends `"iat": "1767225600"` and gets its notifications through). A number
    /// may carry a fraction, as a JWT NumericDate may (RFC 7519 §2): pyapns-client signs
    /// `time.time()`, and its maintainer reports it working against APNs with PyJWT 2, which
    /// keeps the fraction (PYAPNS-1); the whole seconds count.
    static func issuedAt(_ value: JSONValue?) -> Int64? {
        if let n = value?.int64Value { return n }
        if case .number(let number)? = value, let seconds = number.double, seconds.isFinite, seconds >= 0, seconds < 1e15 {
            return Int64(seconds.rounded(.down))
        }
        guard let text = value?.stringValue, !text.isEmpty, text.allBytes({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }

    /// The rules on the token's age (judged by `stampClock`, the caller's Unix clock: see
    /// `World.unixSeconds(judging:)`) and on how often a provider changes tokens (world time).
    private mutating func checkTimes(token: String, kid: String, iat: Int64, caller: String, now: VirtualTime,
                                     stampClock: Int64) -> APNsRejection? {
        // Written as a comparison on `iat` so that no claim value can overflow the subtraction.
        if iat < stampClock - 3_600 { return .expiredProviderToken }
        // The same caller, key and token as the last request: adopted already, nothing to check.
        if let last = lastAdopted, last.token == token, last.caller == caller, last.kid == kid { return nil }
        let slot = caller + "|" + kid
        if let previous = adopted[slot], previous.token != token {
            if now - previous.at < .minutes(20) { return .tooManyProviderTokenUpdates }
        }
        if adopted[slot]?.token != token { adopted[slot] = (token, now) }
        lastAdopted = (caller, kid, token)
        return nil
    }
}
