import PushSimKernel
import PushSimCrypto
import PushSimNetwork

/// How the hub talks to FCM HTTP v1: an OAuth 2 access token from `oauth2.googleapis.com` for a
/// signed service-account assertion (F-MIG), requests `POST /v1/projects/<id>/messages:send`
/// whose message gets the target's token, and answers read by FCM's error code (F-ERR).
enum FCMAdapter: PNSServiceAdapter {
    static var service: PushServiceDescriptor { .fcm }

    /// A native FCM v1 payload must be a JSON object with a `message` object; its members other
    /// than `token` are read once per send, not once per target (``messageTail(_:)``).
    static func readNativeSend(_ request: HTTPRequest, hub: NotificationHub) -> Result<String?, HubRefusal> {
        guard let tail = messageTail(request.body) else {
            return .failure(HubRefusal(status: 400, detail: "The fcmv1 payload must be a JSON object with a \"message\" object."))
        }
        return .success(tail)
    }

    /// The message members of a rendered template.
    static func renderedTemplateTail(_ body: [UInt8]) -> Result<String?, PNSRequestProblem> {
        guard let tail = messageTail(body) else {
            return .failure(PNSRequestProblem(reason: "the rendered fcmv1 template has no message object", outcome: .invalidPayload))
        }
        return .success(tail)
    }

    /// `"data":{…},…`: the `message` members other than `token`, or nil without a `message` object.
    static func messageTail(_ body: [UInt8]) -> String? {
        guard let json = try? JSONParser.parse(body), let members = json["message"]?.objectMembers else { return nil }
        // The object's text without its braces, cut as bytes (cutting characters off a String walks it twice).
        let object = JSONValue.object(members.filter { $0.0 != "token" }).serializedBytes()
        return String(decoding: object[1..<(object.count - 1)], as: UTF8.self)
    }

    /// The cached access token; none cached: fetch one. No credentials: none needed (the request
    /// is refused).
    static func accessToken(_ hub: NotificationHub, now: VirtualTime) -> PNSAccessTokenState {
        hub.pnsTokens.state(.fcm, hasCredentials: hub.configuration.credentials.has(.fcm), at: now)
    }

    /// The FCM access token, fetched first if needed.
    static func fetchAccessToken(_ hub: NotificationHub, world: World, then: @escaping (PNSAccessTokenCache.Answer) -> Void) {
        let c = hub.configuration.fcm!
        PNSAccessTokenCache.fetch(hub, .fcm, authority: "oauth2.googleapis.com", path: "/token",
                                  form: c.tokenRequestForm(now: world.anchor.unixSeconds(world.now)), world: world, then: then)
    }

    /// `POST /v1/projects/<id>/messages:send` with the access token; the body is the copy's
    /// message members with the target's token put in (``body(token:tail:)``).
    static func request(_ copy: CopyPayload, _ n: HubNotification, _ t: SendTarget, accessToken token: String,
                        hub: NotificationHub, world: World) -> Result<HTTPRequest, PNSRequestProblem> {
        guard let c = hub.configuration.fcm else { return .failure(.noCredentials(t.platform)) }
        guard let tail = copy.fcmMessageTail else {
            return .failure(PNSRequestProblem(reason: "the fcmv1 payload has no message object", outcome: .invalidPayload))
        }
        let h = hub.copyHeaders(n, t, credential: token) { ["Authorization": "Bearer \(token)", "Content-Type": "application/json"] }
        return .success(HTTPRequest(method: "POST", authority: "fcm.googleapis.com", path: c.sendPath,
                                    headers: h, body: body(token: t.handle, tail: tail)))
    }

    /// `{"message":{"token":"<token>",<tail>}}`: the hub puts the target's token into the message
    /// (the sender leaves it out).
    static func body(token: String, tail: String) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(bodyHead.count + token.utf8.count + tail.utf8.count + 8)
        body += bodyHead
        if token.needsJSONEscape {
            body.appendUTF8(jsonString(token))
        } else { // tokens need no escapes: bytes as they are
            body.append(UInt8(ascii: "\""))
            body.appendUTF8(token)
            body.append(UInt8(ascii: "\""))
        }
        if !tail.isEmpty { body.append(UInt8(ascii: ",")) }
        body.appendUTF8(tail)
        body.append(UInt8(ascii: "}"))
        body.append(UInt8(ascii: "}"))
        return body
    }

    private static let bodyHead = Array(#"{"message":{"token":"#.utf8)

    /// 404 `UNREGISTERED`: the token is gone; 400 on `message.token`: never valid; 401: renew;
    /// 429, 500, 503: retry.
    static func verdict(_ response: HTTPResponse, json: JSONValue?, retryAfter: VirtualDuration?, refusal: PNSOutcome) -> PNSVerdict {
        let status = response.status
        // FCM's own code (an FcmError detail's errorCode), else the RPC status: an unknown field
        // is refused with INVALID_ARGUMENT and a BadRequest detail only (F-ERR).
        let code = json?["error"]?["details"]?.arrayValue?.compactMap { $0["errorCode"]?.stringValue }.first
            ?? json?["error"]?["status"]?.stringValue ?? ""
        let field = json?["error"]?["details"]?.arrayValue?
            .compactMap { $0["fieldViolations"]?.arrayValue?.first?["field"]?.stringValue }.first
        switch status {
        case 200: return .accepted
        case 404 where code == "UNREGISTERED":
            return .deadHandle(reason: "FCM 404 UNREGISTERED", sinceUnixMilliseconds: nil, outcome: .expiredChannel)
        case 400 where field == "message.token":
            return .deadHandle(reason: "FCM 400 INVALID_ARGUMENT (token)", sinceUnixMilliseconds: nil, outcome: .badChannel)
        case 401: return .renewCredentials(reason: "FCM 401 UNAUTHENTICATED")
        case 429: return .retry(reason: "FCM \(status) \(code)", after: retryAfter, outcome: .throttled)
        case 500, 503: return .retry(reason: "FCM \(status) \(code)", after: retryAfter, outcome: .pnsError)
        default: return .refused(reason: "FCM \(status) \(code)", outcome: refusal)
        }
    }

    /// The message's `name` in the JSON answer.
    static func messageID(_ response: HTTPResponse) -> String { (try? JSONParser.parse(response.body))?["name"]?.stringValue ?? "" }
}

/// The hub's FCM v1 settings: project and service account.
public struct FCMCredential: Sendable, Equatable {
    /// The Firebase project id; setting it remakes ``sendPath``.
    public var projectID: String { didSet { sendPath = Self.sendPath(projectID) } }
    /// `/v1/projects/<projectID>/messages:send`, made once rather than for every copy.
    public private(set) var sendPath: String
    /// The service account whose signed assertions buy the hub its Google OAuth tokens.
    public var serviceAccount: String
    /// The service account's private key (a service-account file's `private_key`): assertions are signed with it.
    public var privateKey: RSAPrivateKey
    /// Settings for one project and service account.
    public init(projectID: String, serviceAccount: String, privateKey: RSAPrivateKey) {
        self.projectID = projectID; self.serviceAccount = serviceAccount; self.privateKey = privateKey
        self.sendPath = Self.sendPath(projectID)
    }
    private static func sendPath(_ projectID: String) -> String { "/v1/projects/\(projectID)/messages:send" }

    /// The form of a request to Google's token endpoint at Unix time `now` (seconds): a one-hour
    /// service-account assertion for the messaging scope, signed with RS256 by ``privateKey``,
    /// JWT-bearer grant (F-MIG; RFC 7518 §3.3). The hub buys its tokens with it, and so does a
    /// scenario's operator when it sends straight to FCM.
    public func tokenRequestForm(now: Int64) -> String {
        let assertion = JSONWebToken.make(
            header: .object([("alg", .string("RS256")), ("typ", .string("JWT"))]),
            claims: .object([("iss", .string(serviceAccount)), ("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
                             ("aud", .string("https://oauth2.googleapis.com/token")),
                             ("iat", .number(JSONNumber(now))), ("exp", .number(JSONNumber(now + 3_600)))]),
            signingKey: privateKey)
        return "grant_type=\(percentEncode("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(assertion)"
    }
}

extension FCMCredential: PNSCredential {
    static var adapter: PNSAdapter { .fcm }
}

extension HubConfiguration {
    /// The hub's FCM v1 credentials; nil: copies for FCM registrations are dropped.
    public var fcm: FCMCredential? {
        get { credentials[FCMCredential.self] }
        set { credentials[FCMCredential.self] = newValue }
    }
}
