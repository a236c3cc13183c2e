import PushSimCrypto
import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// The hub's browser platform (Citations §4.11; NH-BROWSER, NH-JS, NH-DOTNET; RFC 8030, 8291,
/// 8292): browser registrations and installations over the hub's wire formats, sends encrypted
/// per subscription and signed with the hub's VAPID key, and the push service's 404/410 removing
/// the registration.
@Suite("Hub browser platform")
struct BrowserPlatformTests {
    static let vapidKey = DerivedKeyMemo.p256Key(derivedFrom: "hub tests: VAPID key")
    static let browserKey = DerivedKeyMemo.p256Key(derivedFrom: "hub tests: a browser's key")
    static let authSecret: [UInt8] = Array(0..<16)
    static let pushHost = "updates.push.services.mozilla.com"
    static let endpoint = "https://\(pushHost)/wpush/v2/subscription-1"

    static func channel(_ endpoint: String = endpoint) throws -> BrowserPushChannel {
        try BrowserPushChannel(endpoint: endpoint, p256dh: Base64URL.encode(browserKey.publicKey.x963Representation),
                               auth: Base64URL.encode(authSecret))
    }

    /// A hub with the browser credential (unless `credential` is false) and a scripted push
    /// service on Firefox's host answering `status` (201 with a `Location` by default).
    static func world(credential: Bool = true, status: Int = 201) throws -> (HubWorld, ScriptedPNS) {
        var configuration = TestIdentity.configuration()
        if credential { configuration.browser = try BrowserCredential(subject: "mailto:ops@example.com", key: vapidKey) }
        let w = HubWorld(services: false, configuration: configuration)
        let push = ScriptedPNS(w.world, name: "webpush-scripted", aliases: [pushHost]) { _, n in
            HTTPResponse(status: status, headers: status == 201 ? ["Location": "https://\(pushHost)/m/message-\(n + 1)"] : [:])
        }
        return (w, push)
    }

    /// The plaintext of a copy the hub posted, decrypted with the browser's key.
    static func decrypted(_ request: HTTPRequest) throws -> String {
        String(decoding: try WebPushEncryption.decrypt(request.body, userAgentPrivateKey: browserKey, authSecret: authSecret), as: UTF8.self)
    }

    @Test func aRegistrationTravelsAsEndpointP256DHAndAuth() throws {
        let (w, _) = try Self.world()
        let c = try Self.channel()
        let id = w.register(.browser, c.pnsHandle, tags: ["web"])
        let sent = try #require(w.world.journal.entries.last { $0.request.method == "PUT" }?.request)
        let body = String(decoding: sent.body, as: UTF8.self)
        #expect(body.contains("<BrowserRegistrationDescription"))
        #expect(body.contains("<Endpoint>\(Self.endpoint)</Endpoint><P256DH>\(c.p256dh)</P256DH><Auth>\(c.auth)</Auth>"))
        let answer = try #require(w.raw("GET", w.path("registrations/\(id)")))
        #expect(String(decoding: answer.body, as: UTF8.self).contains("<Endpoint>\(Self.endpoint)</Endpoint>"))
        guard case .success(let read)? = w.wait({ w.client.getRegistration(id, $0) }) else { Issue.record("no registration"); return }
        #expect(read.platform == .browser && read.handle == c.pnsHandle && read.tags == ["web"])
    }

    @Test func aBadSubscriptionIs400NamingTheField() throws {
        let (w, _) = try Self.world()
        let id = w.createID()
        let entry = """
            <entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml"><BrowserRegistrationDescription \
            xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">\
            <Endpoint>\(Self.endpoint)</Endpoint><P256DH>AAAA</P256DH><Auth>\(Base64URL.encode(Self.authSecret))</Auth>\
            </BrowserRegistrationDescription></content></entry>
            """
        let r = w.raw("PUT", w.path("registrations/\(id)"), headers: [("Content-Type", "application/atom+xml;type=entry;charset=utf-8")],
                      body: Array(entry.utf8))
        #expect(r?.status == 400)
        #expect(w.detail(r)?.hasPrefix("p256dh must be") == true)
        let noAuth = entry.replacing("<Auth>\(Base64URL.encode(Self.authSecret))</Auth>", with: "")
        let r2 = w.raw("PUT", w.path("registrations/\(id)"), headers: [("Content-Type", "application/atom+xml;type=entry;charset=utf-8")],
                       body: Array(noAuth.utf8))
        #expect(w.detail(r2) == "The Auth of the registration is missing.")
    }

    @Test func anInstallationsPushChannelIsTheSubscriptionObject() throws {
        let (w, _) = try Self.world()
        let c = try Self.channel()
        let object = #"{"installationId":"web-1","platform":"browser","pushChannel":{"endpoint":"\#(c.endpoint)","p256dh":"\#(c.p256dh)","auth":"\#(c.auth)"},"tags":["web"]}"#
        let put = w.raw("PUT", w.path("installations/web-1"), headers: [("Content-Type", "application/json")], body: Array(object.utf8))
        #expect(put?.status == 200)
        let got = try #require(w.raw("GET", w.path("installations/web-1")))
        let json = try JSONParser.parse(got.body)
        #expect(json["pushChannel"]?["endpoint"]?.stringValue == c.endpoint)
        #expect(json["pushChannel"]?["auth"]?.stringValue == c.auth)
        #expect(json["platform"]?.stringValue == "browser")
        // The .NET SDK's form: the same object as a string.
        let text = JSONValue.object([("installationId", .string("web-2")), ("platform", .string("browser")),
                                     ("pushChannel", .string(c.json.serialized()))]).serialized()
        #expect(w.raw("PUT", w.path("installations/web-2"), headers: [("Content-Type", "application/json")], body: Array(text.utf8))?.status == 200)
        let bad = #"{"platform":"browser","pushChannel":{"endpoint":"http://x/y","p256dh":"\#(c.p256dh)","auth":"\#(c.auth)"}}"#
        let refused = w.raw("PUT", w.path("installations/web-3"), headers: [("Content-Type", "application/json")], body: Array(bad.utf8))
        #expect(refused?.status == 400)
        #expect(w.detail(refused) == "endpoint must be an absolute https URL.")
    }

    @Test func aNativeSendIsEncryptedPerSubscriptionAndSignedWithTheHubsKey() throws {
        let (w, push) = try Self.world()
        w.register(.browser, try Self.channel().pnsHandle)
        let payload = #"{"title":"Sale","body":"Today only"}"#
        let id = w.id(w.wait { w.client.sendNotification(.browser(payload, headers: [("Urgency", "high")]), tagExpression: nil, $0) })
        let request = try #require(push.requests.first?.request)
        #expect(request.method == "POST" && request.path == "/wpush/v2/subscription-1")
        #expect(request.headers["Content-Encoding"] == "aes128gcm")
        #expect(request.headers["TTL"] == String(WebPushAdapter.defaultTTLSeconds))
        #expect(request.headers["Urgency"] == "high")
        #expect(try Self.decrypted(request) == payload)
        // VAPID: `vapid t=<JWT>, k=<the hub's public key>`, aud the endpoint's origin, signed by the hub's key.
        let authorization = try #require(request.headers["Authorization"])
        #expect(authorization.hasSuffix(", k=" + Base64URL.encode(Self.vapidKey.publicKey.x963Representation)))
        let token = try #require(JSONWebToken.parse(String(authorization.dropFirst("vapid t=".count).prefix { $0 != "," })))
        #expect(token.claims["aud"]?.stringValue == "https://\(Self.pushHost)")
        #expect(token.claims["sub"]?.stringValue == "mailto:ops@example.com")
        #expect(token.hasValidES256Signature(by: Self.vapidKey.publicKey, acceptingDER: false))
        let d = try #require(w.details(id))
        #expect(d.count(.browser, .success) == 1)
        #expect(d.outcomeCounts.map(\.platform) == ["BrowserOutcomeCounts"])
        #expect(w.events("hub.pns-accepted").first?[.message] == "message-1")
    }

    @Test func theRealPushServiceTakesTheHubsMessage() throws {
        var configuration = TestIdentity.configuration()
        configuration.browser = try BrowserCredential(subject: "mailto:ops@example.com", key: Self.vapidKey)
        let w = HubWorld(services: false, configuration: configuration)
        let service = WebPushService(world: w.world)
        let subscription = try service.subscribe(browser: "laptop", vendor: .firefox,
                                                 applicationServerKey: Self.vapidKey.publicKey.x963Representation, world: w.world).get()
        w.register(.browser, try Self.channel(subscription.endpoint).pnsHandle)
        _ = w.send(format: "browser", body: #"{"body":"Hi"}"#)
        w.advance(.seconds(1))
        #expect(w.events("webpush.accepted").count == 1)
        #expect(w.events("webpush.rejected").isEmpty)
        #expect(w.events("hub.pns-accepted").count == 1)
    }

    @Test func aTemplateSendRendersTheBrowsersTemplate() throws {
        let (w, push) = try Self.world()
        let id = w.createID()
        let template = RegistrationTemplate(bodyTemplate: #"{"title":"$(title)","body":"$(message)"}"#, templateName: "web")
        let handle = try Self.channel().pnsHandle
        let put = w.wait { w.client.createOrUpdateRegistration(RegistrationDescription(platform: .browser, handle: handle,
                                                                                       registrationID: id, template: template), $0) }
        guard case .success(let read)? = put else { Issue.record("template registration failed: \(String(describing: put))"); return }
        #expect(read.template?.bodyTemplate == template.bodyTemplate)
        _ = w.sendTemplate([("title", "News"), ("message", "Hello, browser")])
        let request = try #require(push.requests.first?.request)
        #expect(try Self.decrypted(request) == #"{"title":"News","body":"Hello, browser"}"#)
    }

    @Test func aDirectSendNamesTheEndpointAndPassesTheKeys() throws {
        let (w, push) = try Self.world()
        let c = try Self.channel()
        let outcome = w.wait { w.client.sendDirectNotification(.browser(#"{"body":"direct"}"#), subscription: c, $0) }
        guard case .success(let o)? = outcome else { Issue.record("direct send failed: \(String(describing: outcome))"); return }
        #expect(o.httpStatus == 201)
        #expect(try Self.decrypted(try #require(push.requests.first?.request)) == #"{"body":"direct"}"#)
        let keyless = w.raw("POST", w.path("messages/"), query: [("api-version", "2015-01"), ("direct", "")],
                            headers: [("ServiceBusNotification-Format", "browser"), ("ServiceBusNotification-DeviceHandle", c.endpoint)],
                            body: Array("{}".utf8))
        #expect(keyless?.status == 400)
        #expect(w.detail(keyless) == "A direct send to a browser needs the P256DH and Auth headers.")
    }

    @Test(arguments: [(410, PNSOutcome.expiredChannel), (404, PNSOutcome.badChannel)])
    func aGoneSubscriptionRemovesTheRegistration(status: Int, outcome: PNSOutcome) throws {
        let (w, _) = try Self.world(status: status)
        let c = try Self.channel()
        let regID = w.register(.browser, c.pnsHandle)
        let object = #"{"platform":"browser","pushChannel":{"endpoint":"\#(c.endpoint)","p256dh":"\#(c.p256dh)","auth":"\#(c.auth)"}}"#
        _ = w.raw("PUT", w.path("installations/web-1"), headers: [("Content-Type", "application/json")], body: Array(object.utf8))
        let id = w.id(w.wait { w.client.sendNotification(.browser(#"{"body":"x"}"#), tagExpression: nil, $0) })
        #expect(!w.exists(regID))
        #expect(w.events("hub.installation-channel-expired").count == 1)
        #expect(try #require(w.details(id)).count(.browser, outcome) == 2)
        #expect(w.hub.feedbackRecords.map(\.platform) == ["browser", "browser"])
    }

    /// Apple's and WNS's web push answer their id in `apns-id` and `X-WNS-Msg-ID`, not in
    /// `Location`: the hub reads it there (the accounting of a copy follows it to the browser).
    @Test(arguments: [("apns-id", "8E1B3C52-0000-4000-8000-000000000001"), ("X-WNS-Msg-ID", "1A2B3C4D5E6F7081")])
    func theMessageIDIsReadWhereEachVendorAnswersIt(header: String, id: String) throws {
        let (w, push) = try Self.world()
        push.answer = { _, _ in HTTPResponse(status: 201, headers: HTTPHeaders([(header, id)])) }
        w.register(.browser, try Self.channel().pnsHandle)
        _ = w.send(format: "browser", body: #"{"body":"x"}"#)
        #expect(w.events("hub.pns-accepted").first?[.message]?.description == id)
    }

    @Test func withoutTheBrowserCredentialCopiesAreDropped() throws {
        let (w, push) = try Self.world(credential: false)
        w.register(.browser, try Self.channel().pnsHandle)
        let id = w.id(w.wait { w.client.sendNotification(.browser(#"{"body":"x"}"#), tagExpression: nil, $0) })
        #expect(push.requests.isEmpty)
        #expect(try #require(w.details(id)).count(.browser, .invalidCredentials) == 1)
        #expect(w.events("notification.dropped").first?[.reason] == "the hub has no browser credentials")
    }
}
