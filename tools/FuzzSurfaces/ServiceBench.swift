import Foundation
import PushSim

/// A fresh world for one input of a service surface: the whole ``Simulation`` (fake APNs, FCM,
/// WNS, the hub, the backends) with an iPhone, an Android phone and a Windows PC installed, and
/// the credentials a well-behaved client would hold, obtained the way a client obtains them (FCM
/// and WNS access tokens through their OAuth endpoints). A new world per input makes a saved
/// input replay exactly, whatever ran before it.
///
/// Run limits: 20,000 events and 10 years of virtual time; a request that gets no answer within
/// the world's call timeout counts as a transport failure, never a hang.
final class ServiceBench {
    /// Who sends the script's requests (not a registered host, like a backend outside the world).
    static let caller = "fuzzer"
    let simulation: Simulation
    var world: World { simulation.world }
    /// `{{NAME}}` → value, for ``RequestScript``.
    private(set) var substitutions: [(name: String, value: [UInt8])] = []

    /// `webPush`: also subscribe one browser with each vendor's Web Push service, and sign a VAPID
    /// token for each endpoint (`{{ENDPOINT-<VENDOR>}}`, `{{VAPID-<VENDOR>}}`).
    init(webPush: Bool = false) {
        var options = Simulation.Options()
        options.limits = RunLimits(maxEvents: 20_000)
        simulation = Simulation(seed: 1, options: options)
        let devices = [simulation.addDevice("iphone", .ios), simulation.addDevice("pixel", .android), simulation.addDevice("surface", .windows),
                       simulation.addDevice("iphone-firebase", .ios, firebase: true)]
        for d in devices { d.install() }
        simulation.run()
        let id = simulation.identity, anchor = world.anchor, zero = anchor.unixSecondsAtZero
        let apnsJWT = JSONWebToken.apnsProviderToken(keyID: id.apnsKeyID, teamID: id.apnsTeamID, issuedAt: zero,
                                                       signingKey: DerivedKeyMemo.p256Key(derivedFrom: DerivedKeyMemo.sampleAPNsKeySeed))
        let assertion = JSONWebToken.make(header: .object([("alg", .string("RS256"))]), claims: .object([
            ("iss", .string(id.fcmServiceAccount)), ("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
            ("aud", .string("https://oauth2.googleapis.com/token")), ("iat", .number(JSONNumber(zero))),
            ("exp", .number(JSONNumber(zero + 3_600)))]), signingKey: id.fcmServiceAccountKey)
        let fcmBearer = accessToken(HTTPRequest(method: "POST", authority: FCMService.oauthHost, path: "/token",
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Array("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)".utf8)))
        let wnsBearer = accessToken(HTTPRequest(method: "POST", authority: WNSService.loginHost, path: "/accesstoken.srf",
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Array(("grant_type=client_credentials&client_id=\(percentEncode(id.wnsPackageSID))"
                         + "&client_secret=\(percentEncode(id.wnsSecret))&scope=notify.windows.com").utf8)))
        let hubURL = simulation.hub.hubURL
        let expiry = zero + 10 * 365 * 86_400
        let sas = SharedAccessSignature.token(resource: hubURL, keyName: "DefaultFullSharedAccessSignature", key: id.hubFullKey,
                                              expiresAtUnixSeconds: expiry)
        let listen = SharedAccessSignature.token(resource: hubURL, keyName: "DefaultListenSharedAccessSignature", key: id.hubListenKey,
                                                 expiresAtUnixSeconds: expiry)
        let values: [(String, String)] = [
            ("SAS", sas), ("SAS-LISTEN", listen), ("APNS-JWT", apnsJWT), ("FCM-ASSERTION", assertion),
            ("FCM-BEARER", fcmBearer), ("WNS-BEARER", wnsBearer), ("IOS", devices[0].handle ?? ""),
            ("IOS-UPPER", (devices[0].handle ?? "").uppercased()), ("ANDROID", devices[1].handle ?? ""),
            ("WINDOWS", devices[2].handle ?? ""), ("IOS-FCM", devices[3].fcmToken ?? ""), ("WINDOWS-ENCODED", percentEncode(devices[2].handle ?? "")),
            ("TOPIC", id.app.bundleID), ("PROJECT", id.fcmProjectID), ("WNS-SID", percentEncode(id.wnsPackageSID)),
            ("WNS-SECRET", id.wnsSecret), ("LATER", String(anchor.iso8601(world.now + .hours(1)).prefix(19))),
        ]
        substitutions = (values + (webPush ? webPushValues(unixNow: zero) : [])).map { (name: $0.0, value: Array($0.1.utf8)) }
    }

    /// The Web Push placeholders: an endpoint per vendor, made for a browser that is no host (its
    /// messages are kept), and a `vapid t=…, k=…` for each, signed with a fixed key.
    private func webPushValues(unixNow: Int64) -> [(String, String)] {
        guard let key = try? P256PrivateKey(rawRepresentation: [0] + [UInt8](repeating: 7, count: 31)) else { return [] }
        let publicKey = Base64URL.encode(key.publicKey.x963Representation)
        return WebPushVendor.allCases.flatMap { vendor -> [(String, String)] in
            guard case .success(let s) = simulation.webPush.subscribe(browser: "browser", vendor: vendor,
                                                                        applicationServerKey: key.publicKey.x963Representation, world: world) else { return [] }
            let origin = "https://" + s.endpoint.dropFirst("https://".count).prefix { $0 != "/" }
            let claims = JSONValue.object([("aud", .string(origin)), ("exp", .number(JSONNumber(unixNow + 12 * 3_600))),
                                           ("sub", .string("mailto:fuzz@example.com"))])
            let input = Base64URL.encode(#"{"typ":"JWT","alg":"ES256"}"#) + "." + Base64URL.encode(claims.serialized())
            let token = input + "." + Base64URL.encode(key.signature(for: Array(input.utf8)).rawRepresentation)
            let name = vendor.rawValue.uppercased()
            return [("ENDPOINT-" + name, s.endpoint), ("VAPID-" + name, "vapid t=\(token), k=\(publicKey)")]
        }
    }

    /// Sends `request`, runs the world until it is answered and everything it caused is done,
    /// and returns the answer.
    func send(_ request: HTTPRequest) -> CallResult? {
        var out: CallResult?
        world.call(request, from: Self.caller) { out = $0 }
        world.run()
        return out
    }

    /// The `access_token` of a successful OAuth answer, or "".
    private func accessToken(_ request: HTTPRequest) -> String {
        guard let body = send(request)?.response?.body, let json = try? JSONParser.parse(body) else { return "" }
        return json["access_token"]?.stringValue ?? ""
    }

    /// Notifications shown on the three devices so far.
    var shown: Int { simulation.devices.reduce(0) { $0 + $1.inbox.count } }

    /// Runs a script's steps; the outcome is each request's status (with the service's reason when
    /// its body or headers name one), `wait` for a clock move, and `+shown` when a device showed a
    /// notification. `readsDates`: the service parses dates off the wire (see ``KnownCrashes``).
    func run(_ bytes: [UInt8], defaultAuthority: String, readsDates: Bool = false) -> String {
        let text = RequestScript.substitute(bytes, substitutions)
        if readsDates && KnownCrashes.skip && KnownCrashes.iso8601YearTraps(text) { return "skipped-known" }
        var parts: [String] = []
        for step in RequestScript.steps(substituted: text, defaultAuthority: defaultAuthority) {
            switch step {
            case .wait(let d):
                world.run(until: world.now + d)
                parts.append("wait")
            case .request(let request):
                guard let result = send(request) else { parts.append("no-answer"); continue }
                parts.append(Self.label(result))
            }
        }
        return parts.joined(separator: ",") + (shown > 0 ? "+shown" : "")
    }

    /// The first three words of the message of the hub's `<Error><Detail>…</Detail></Error>` (the
    /// rest quotes the request, and the tracking part differs per answer).
    static func hubDetail(_ body: [UInt8]) -> String? {
        let text = String(decoding: body.prefix(512), as: UTF8.self)
        guard let start = text.range(of: "<Detail>")?.upperBound else { return nil }
        let message = HubErrorDetail.split(String(text[start...])).message
        return message.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// `status` or `status:reason` for an answer; the transport failure's name otherwise.
    static func label(_ result: CallResult) -> String {
        guard let response = result.response else { return outcomeLabel(result.summary, limit: 24) }
        var reason: String?
        if response.body.first == UInt8(ascii: "{"), let json = try? JSONParser.parse(response.body) {
            reason = json["reason"]?.stringValue ?? json["error"]?["status"]?.stringValue ?? json["error"]?.stringValue
        } else if let status = response.headers["X-WNS-Error-Description"] ?? response.headers["X-WNS-Status"] {
            reason = status
        } else if response.status >= 400, let detail = hubDetail(response.body) {
            reason = detail
        }
        return reason.map { "\(response.status):" + outcomeLabel($0, limit: 24) } ?? String(response.status)
    }
}
