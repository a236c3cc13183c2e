import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel
import PushSimCrypto

/// A world with the Web Push service (and FCM, whose host Chrome's endpoints live on), an
/// application server holding a VAPID key pair, and a browser that subscribes over the channel
/// and answers pushes as ``FakeDevice`` does.
final class WebPushBench {
    let world: World
    let fcm: FCMService
    let webPush: WebPushService
    let server: Probe
    let browser: FakeDevice
    /// The application server's VAPID key pair (a fixed scalar: the tests sign with it).
    let vapidKey = WebPushBench.key(seed: 1)
    /// Another server's key pair.
    let otherKey = WebPushBench.key(seed: 2)

    init(seed: UInt64 = 41) {
        world = World(seed: seed)
        fcm = FCMService(world: world, projects: [])
        webPush = WebPushService(world: world)
        server = Probe(world: world, name: "app-server")
        browser = FakeDevice(world: world, name: "laptop", serviceHost: WebPushService.name)
    }

    /// A P-256 key pair whose private scalar is 32 bytes of `seed` (a valid scalar for small seeds).
    static func key(seed: UInt8) -> P256PrivateKey {
        // A scalar below the group order: leading zero byte, then the seed repeated.
        (try? P256PrivateKey(rawRepresentation: [0] + [UInt8](repeating: seed, count: 31)))!
    }

    /// The base64url uncompressed public key of `key`.
    static func publicKeyText(_ key: P256PrivateKey) -> String { Base64URL.encode(key.publicKey.x963Representation) }

    /// Subscribes the browser over ``WebPushChannel`` with `key`'s public key (none when nil);
    /// returns the endpoint, or "" (with a test issue) when refused.
    @discardableResult
    func subscribe(_ vendor: WebPushVendor, key: P256PrivateKey?, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let ask = WebPushSubscribeRequest(vendor: vendor.rawValue, applicationServerKey: key.map(Self.publicKeyText))
        var endpoint = ""
        world.call(HTTPRequest(method: "POST", authority: WebPushService.name, path: WebPushChannel.subscribePath, body: ask.body),
                   from: browser.name) { result in
            guard let r = result.response, r.status == 201, let body = WebPushEndpointBody(body: r.body) else {
                Issue.record("subscribe failed: \(result.summary) \(result.response?.bodyText ?? "")", sourceLocation: sourceLocation)
                return
            }
            endpoint = body.endpoint
        }
        world.run()
        return endpoint
    }

    /// The origin of `endpoint`: `https://<host>`.
    static func origin(_ endpoint: String) -> String { "https://" + endpoint.dropFirst("https://".count).prefix { $0 != "/" } }

    /// Unix seconds now.
    var unixNow: Int64 { world.anchor.unixSeconds(world.now) }

    /// A VAPID JWT signed with `key` (ES256, JOSE `r || s`): claims `aud`, `exp`, `sub` as given
    /// (nil leaves one out), in that order.
    func jwt(_ key: P256PrivateKey, aud: String?, exp: Int64?, sub: String? = "mailto:push@example.com",
             header: String = #"{"typ":"JWT","alg":"ES256"}"#) -> String {
        var claims: [(String, JSONValue)] = []
        if let aud { claims.append(("aud", .string(aud))) }
        if let exp { claims.append(("exp", .number(JSONNumber(exp)))) }
        if let sub { claims.append(("sub", .string(sub))) }
        let input = Base64URL.encode(header) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        return input + "." + Base64URL.encode(key.signature(for: Array(input.utf8)).rawRepresentation)
    }

    /// `vapid t=<JWT>, k=<key>` for `endpoint`, valid for 12 hours, signed with `key`.
    func vapid(_ endpoint: String, key: P256PrivateKey? = nil, aud: String? = nil, exp: Int64? = nil,
               sub: String? = "mailto:push@example.com") -> String {
        let signer = key ?? vapidKey
        let token = jwt(signer, aud: aud ?? Self.origin(endpoint), exp: exp ?? unixNow + 12 * 3600, sub: sub)
        return "vapid t=\(token), k=\(Self.publicKeyText(signer))"
    }

    /// A message to `endpoint`: `TTL` 60 and `Content-Encoding: aes128gcm` unless `headers`
    /// names them (a nil value leaves a header out), VAPID signed with the bench's key unless
    /// `authorization` says otherwise, and a real aes128gcm body of `plaintext`.
    func request(_ endpoint: String, headers: [(String, String?)] = [], authorization: String?? = .none,
                 body: [UInt8]? = nil, method: String = "POST") -> HTTPRequest {
        var fields: [(String, String?)] = [("TTL", "60"), ("Content-Encoding", "aes128gcm")]
        for (name, value) in headers {
            if let i = fields.firstIndex(where: { $0.0.lowercased() == name.lowercased() }) { fields[i].1 = value } else { fields.append((name, value)) }
        }
        switch authorization {
        case .none: fields.append(("Authorization", vapid(endpoint)))
        case .some(let value): fields.append(("Authorization", value))
        }
        var h = HTTPHeaders()
        for case let (name, value?) in fields { h.add(name, value) }
        let payload = body ?? Self.encryptedBody(Array("hello".utf8))
        return HTTPRequest(method: method, url: endpoint, headers: h, body: payload)
            ?? HTTPRequest(method: method, authority: "invalid", path: "/", headers: h, body: payload)
    }

    /// Sends a message (see ``request(_:headers:authorization:body:method:)``) and returns the answer.
    func send(_ endpoint: String, headers: [(String, String?)] = [], authorization: String?? = .none, body: [UInt8]? = nil,
              method: String = "POST", sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse {
        server.roundTrip(request(endpoint, headers: headers, authorization: authorization, body: body, method: method),
                         in: world, sourceLocation: sourceLocation)
    }

    /// `plaintext` encrypted to a browser key (RFC 8291), one record, as a library sends it.
    static func encryptedBody(_ plaintext: [UInt8], paddingLength: Int = 0, recordSize: UInt32 = 4096) -> [UInt8] {
        let browserKey = key(seed: 9), senderKey = key(seed: 7)
        return (try? WebPushEncryption.encrypt(plaintext, userAgentPublicKey: browserKey.publicKey, authSecret: [UInt8](repeating: 5, count: 16),
                                               applicationServerPrivateKey: senderKey, salt: [UInt8](repeating: 3, count: 16),
                                               recordSize: recordSize, paddingLength: paddingLength)) ?? []
    }

    /// A well-formed aes128gcm body of exactly `count` bytes (108 or more): 86 bytes of header,
    /// "hello", the delimiter, padding, and the 16-byte tag.
    static func body(ofSize count: Int) -> [UInt8] {
        encryptedBody(Array("hello".utf8), paddingLength: count - 108, recordSize: UInt32(max(4096, count)))
    }
}

/// Expects an autopush error: status, errno and message in its JSON.
func expectAutopush(_ r: HTTPResponse, _ status: Int, errno: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == status, sourceLocation: sourceLocation)
    #expect(r.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
    let body = json(r)
    #expect(body?["code"]?.int64Value == Int64(status), sourceLocation: sourceLocation)
    #expect(body?["errno"]?.int64Value == Int64(errno), sourceLocation: sourceLocation)
    #expect(body?["message"]?.stringValue == message, sourceLocation: sourceLocation)
    #expect(body?["more_info"]?.stringValue == "http://autopush.readthedocs.io/en/latest/http.html#error-codes", sourceLocation: sourceLocation)
}

/// Expects an Apple refusal: status and `{"reason":…}`.
func expectApple(_ r: HTTPResponse, _ status: Int, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == status, sourceLocation: sourceLocation)
    #expect(r.bodyText == #"{"reason":"\#(reason)"}"#, sourceLocation: sourceLocation)
}

/// Expects an FCM web push answer: status and its one line of text.
func expectFCM(_ r: HTTPResponse, _ status: Int, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == status, sourceLocation: sourceLocation)
    #expect(r.headers["content-type"] == "text/plain; charset=utf-8", sourceLocation: sourceLocation)
    #expect(r.bodyText == (line.isEmpty ? "" : line + "\n"), sourceLocation: sourceLocation)
}
