import PushSimKernel
import PushSimCrypto
import PushSimNetwork

/// A signing key registered with Apple: the `.p8` key behind provider tokens (A-JWT). Apple keeps
/// its public half; whoever signs holds the private one.
public struct APNsSigningKey: Sendable, Equatable {
    /// 10-character Key ID (`kid`).
    public var keyID: String
    /// 10-character Team ID (`iss`).
    public var teamID: String
    /// The public key Apple verifies the key's provider tokens with (ES256).
    public private(set) var publicKey: P256PublicKey
    /// The private key (what a `.p8` file holds), for a signer inside the world (the hub); nil for
    /// a key registered by its public half only.
    public private(set) var privateKey: P256PrivateKey?
    /// A key whose private half is known: a signer can use it and APNs accepts its tokens.
    public init(keyID: String, teamID: String, privateKey: P256PrivateKey) {
        self.init(keyID: keyID, teamID: teamID, publicKey: privateKey.publicKey)
        self.privateKey = privateKey
    }
    /// A key known by its public half: APNs accepts tokens it verifies. Pass the key to
    /// ``APNsConfiguration`` (or ``APNsService/register(_:)``) for the service to accept it.
    public init(keyID: String, teamID: String, publicKey: P256PublicKey) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKey = publicKey
    }
}

/// Checks provider authentication tokens the way APNs does (Citations §1.6, sources A-JWT, A-RESP):
/// - no `authorization` header: 403 `MissingProviderToken`;
/// - not `bearer <jwt>`, alg other than ES256, unknown `kid`, `iss` not the key's team, or a
///   signature that does not verify with the key's public key: 403 `InvalidProviderToken`;
/// - `iat` more than one hour ago: 403 `ExpiredProviderToken`;
/// - a new token from the same provider less than 20 minutes after the previous new one:
///   429 `TooManyProviderTokenUpdates`.
///
/// The signature is ES256 (RFC 7518 §3.4), checked with the registered key's public key: JOSE's
/// 64-byte `r ‖ s`, or the DER `SEQUENCE { r, s }` that APNs takes too. APNSwift signed its
/// tokens with DER signatures until 2019 and Apple's servers accepted them, though JOSE tools
/// such as jwt.io refuse them (APNSWIFT-36); PushSim accepts both forms when they verify. Under
/// ``SignaturePolicy/structureOnly`` (`pushsim serve --signatures structure-only`) the signature is
/// not verified. What is simulated: the connection (one per calling host and key). The claims, the
/// key lookup, the signature and the time rules are checked as APNs does.
struct APNsProviderTokens {
    var keys: [APNsSigningKey] { didSet { verified = [] } }
    /// How provider tokens' ES256 signatures are checked (see ``SignaturePolicy``).
    var signaturePolicy = SignaturePolicy.verify { didSet { verified = [] } }
    /// Per caller and key: the token last adopted and when.
    private var adopted: [String: (token: String, at: VirtualTime)] = [:]

    init(keys: [APNsSigningKey]) { self.keys = keys }

    /// The last few `authorization` values that verified, newest first, with their key id and
    /// `iat`: a provider sends the same token with every request for up to an hour, so the claims
    /// and signature of a value seen before need not be checked again (the time rules still are).
    /// A signature check costs two P-256 scalar multiplications; keeping a few values, not one,
    /// lets several providers (the hub, clients of `pushsim serve`) take turns without each turn
    /// checking a signature again.
    private var verified: [(authorization: String, token: String, kid: String, iat: Int64)] = []
    /// How many verified values ``verified`` keeps.
    private static let verifiedKept = 8
    /// The caller, key and token of the last request that passed ``checkTimes``: `adopted` holds
    /// that token for that caller and key until a later request changes it (which resets this).
    private var lastAdopted: (caller: String, kid: String, token: String)?

    mutating func check(_ authorization: String?, caller: String, now: VirtualTime, stampClock: Int64) -> APNsRejection? {
        guard let authorization, !authorization.isEmpty else { return .missingProviderToken }
        if let v = verified.first(where: { $0.authorization == authorization }) {
            return checkTimes(token: v.token, kid: v.kid, iat: v.iat, caller: caller, now: now, stampClock: stampClock)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", let jwt = JSONWebToken.parse(String(parts[1])),
              jwt.header["alg"]?.stringValue == "ES256",
              let kid = jwt.header["kid"]?.stringValue, let key = keys.first(where: { $0.keyID == kid }),
              jwt.claims["iss"]?.stringValue == key.teamID, let iat = Self.issuedAt(jwt.claims["iat"]),
              (signaturePolicy == .structureOnly ? jwt.hasSignatureShape(algorithm: "ES256")
                : jwt.hasValidES256Signature(by: key.publicKey, acceptingDER: true))
        else { return .invalidProviderToken }
        let token = String(parts[1])
        verified.insert((authorization, token, kid, iat), at: 0)
        if verified.count > Self.verifiedKept { verified.removeLast() }
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
