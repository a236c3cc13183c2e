import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// A world with the fake WNS (two Windows apps), one app server holding an access token for the
/// first app, and one PC whose copy of that app has a channel URI.
final class WNSBench {
    static let toast = #"<toast launch="room=42"><visual><binding template="ToastGeneric"><text>Alice</text><text>Hello</text></binding></visual></toast>"#
    static let tile = #"<tile><visual><binding template="TileMedium"><text>1 new</text></binding></visual></tile>"#
    let app = WNSApp(packageSID: "ms-app://s-1-15-2-1111111111-2222222222-3333333333", secret: "notes-secret",
                     packageFamily: "Example.Notes_8wekyb3d8bbwe")
    let otherApp = WNSApp(packageSID: "ms-app://s-1-15-2-4444444444-5555555555-6666666666", secret: "chess-secret",
                          packageFamily: "Example.Chess_8wekyb3d8bbwe")
    let world: World
    let wns: WNSService
    let server: Probe
    let pc: FakeDevice
    var channel = ""
    private(set) var accessToken = ""
    private(set) var accessTokenIssuedAt = VirtualTime.zero

    init(seed: UInt64 = 31) {
        world = World(seed: seed)
        wns = WNSService(world: world, apps: [app, otherApp])
        server = Probe(world: world, name: "app-server")
        pc = FakeDevice(world: world, name: "surface", serviceHost: WNSService.deviceHost)
        channel = pc.register(app: app.packageFamily, environment: "")
        renewAccessToken()
    }

    func login(sid: String, secret: String, scope: String = "notify.windows.com", grantType: String = "client_credentials") -> HTTPResponse {
        let form = "grant_type=\(grantType)&client_id=\(percentEncode(sid))&client_secret=\(percentEncode(secret))&scope=\(scope)"
        return server.roundTrip(HTTPRequest(method: "POST", authority: WNSService.loginHost, path: "/accesstoken.srf",
                                            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array(form.utf8)), in: world)
    }

    func renewAccessToken() {
        accessTokenIssuedAt = world.now
        accessToken = json(login(sid: app.packageSID, secret: app.secret))?["access_token"]?.stringValue ?? ""
    }

    func request(to uri: String? = nil, type: String? = "wns/toast", contentType: String? = "text/xml", body: String = WNSBench.toast,
                 headers: [(String, String)] = [], auth: Auth = .current, method: String = "POST") -> HTTPRequest {
        var h = HTTPHeaders()
        switch auth {
        case .current: h.add("Authorization", "Bearer " + accessToken)
        case .missing: break
        case .header(let v): h.add("Authorization", v)
        }
        if let type { h.add("X-WNS-Type", type) }
        if let contentType { h.add("Content-Type", contentType) }
        for (n, v) in headers { h.add(n, v) }
        return HTTPRequest(method: method, url: uri ?? channel, headers: h, body: Array(body.utf8))
            ?? HTTPRequest(method: method, authority: WNSService.channelHost, path: "/", headers: h, body: Array(body.utf8))
    }

    func notify(to uri: String? = nil, type: String? = "wns/toast", contentType: String? = "text/xml", body: String = WNSBench.toast,
                headers: [(String, String)] = [], auth: Auth = .current, method: String = "POST",
                sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse {
        server.roundTrip(request(to: uri, type: type, contentType: contentType, body: body, headers: headers, auth: auth, method: method),
                         in: world, sourceLocation: sourceLocation)
    }
}

/// Expects a WNS error: status, `X-WNS-Error-Description`, a message id, and no body.
func expectWNSError(_ r: HTTPResponse, _ status: Int, _ description: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == status, sourceLocation: sourceLocation)
    #expect(r.headers["X-WNS-Error-Description"] == description, sourceLocation: sourceLocation)
    #expect(r.headers["X-WNS-Msg-ID"]?.count == 16, sourceLocation: sourceLocation)
    #expect(r.headers["X-WNS-Status"] == nil, sourceLocation: sourceLocation)
    #expect(r.body.isEmpty, sourceLocation: sourceLocation)
}

@Suite("WNS access tokens (Citations §3.1)")
struct WNSLoginTests {
    @Test func clientCredentialsGetA24HourBearerToken() {
        let bench = WNSBench()
        let r = bench.login(sid: bench.app.packageSID, secret: bench.app.secret)
        #expect(r.status == 200)
        let body = json(r)
        #expect(body?["token_type"]?.stringValue == "bearer")
        #expect(body?["expires_in"]?.int64Value == 86_400)
        #expect((body?["access_token"]?.stringValue ?? "").count > 20)
        #expect(body?["access_token"]?.stringValue != bench.accessToken)
    }

    @Test func badSecretIsInvalidClient() {
        let bench = WNSBench()
        let expected = #"{"error":"invalid_client","error_description":"Invalid client id"}"#
        for r in [bench.login(sid: bench.app.packageSID, secret: "guess"),
                  bench.login(sid: bench.app.packageSID, secret: bench.otherApp.secret),
                  bench.login(sid: "ms-app://s-1-15-2-0", secret: bench.app.secret),
                  bench.login(sid: bench.app.packageSID, secret: bench.app.secret, scope: "s.notify.live.net"),
                  bench.login(sid: bench.app.packageSID, secret: bench.app.secret, grantType: "password")] {
            #expect(r.status == 400)
            #expect(r.bodyText == expected)
        }
    }
}

@Suite("WNS notification requests (Citations §3.3–§3.5)")
struct WNSRequestTests {
    @Test func acceptedToastIs200ReceivedWithMessageId() {
        let bench = WNSBench()
        let r = bench.notify(headers: [("X-WNS-Tag", "room42"), ("X-WNS-RequestForStatus", "true")])
        #expect(r.status == 200)
        #expect(r.body.isEmpty)
        #expect(r.headers["X-WNS-Status"] == "received")
        let id = r.headers["X-WNS-Msg-ID"] ?? ""
        #expect(id.count == 16 && id.allSatisfy { "0123456789ABCDEF".contains($0) }, "\(id)")
        #expect(r.headers["X-WNS-DeviceConnectionStatus"] == "connected")
        #expect(r.headers["X-WNS-Error-Description"] == nil)
        #expect(bench.pc.pushes.map(\.text) == [WNSBench.toast])
        let push = bench.pc.pushes[0]
        #expect(push.headers["X-WNS-Type"] == "wns/toast")
        #expect(push.headers["X-WNS-Tag"] == "room42")
        #expect(push.headers["X-WNS-RequestForStatus"] == nil)
        #expect(push.headers[DeviceChannel.appHeader] == bench.app.packageFamily)
    }

    @Test func otherTypesWithTheirContentTypesAreAccepted() {
        let bench = WNSBench()
        #expect(bench.notify(type: "wns/tile", body: WNSBench.tile).status == 200)
        #expect(bench.notify(type: "wns/badge", body: #"<badge value="3"/>"#).status == 200)
        #expect(bench.notify(type: "wns/raw", contentType: "application/octet-stream", body: "any bytes & <stuff>").status == 200)
        #expect(bench.notify(contentType: "text/xml; charset=utf-8").status == 200)
        #expect(bench.pc.pushes.count == 4)
    }

    @Test func missingAccessTokenIs401() {
        let bench = WNSBench()
        expectWNSError(bench.notify(auth: .missing), 401, "The access token is missing, malformed or expired")
        expectWNSError(bench.notify(auth: .header("Bearer made-up")), 401, "The access token is missing, malformed or expired")
        expectWNSError(bench.notify(auth: .header(bench.accessToken)), 401, "The access token is missing, malformed or expired")
        #expect(bench.pc.pushes.isEmpty)
    }

    @Test func accessTokenExpiresAfter24Hours() {
        let bench = WNSBench()
        bench.world.advance(by: .hours(23) + .minutes(59))
        #expect(bench.notify().status == 200)
        bench.world.advance(by: .minutes(1))
        expectWNSError(bench.notify(), 401, "The access token is missing, malformed or expired")
        bench.renewAccessToken()
        #expect(bench.notify().status == 200)
    }

    @Test func unknownChannelIs404() {
        let bench = WNSBench()
        expectWNSError(bench.notify(to: "https://cloud.notify.windows.com/?token=AwYAAADnope"), 404,
                       "The channel URI is not valid or is not recognized by WNS")
        let token = bench.channel.split(separator: "=", maxSplits: 1)[1]
        expectWNSError(bench.notify(to: "https://cloud.notify.windows.com/x?token=\(token)"), 404,
                       "The channel URI is not valid or is not recognized by WNS")
    }

    @Test func channelExpiresAfter30Days() {
        let bench = WNSBench()
        bench.world.advance(by: .days(29))
        bench.renewAccessToken()
        #expect(bench.notify().status == 200)
        bench.world.advance(by: .days(1))
        bench.renewAccessToken()
        expectWNSError(bench.notify(), 410, "The channel expired")
    }

    @Test func channelOfAnUninstalledAppIsGoneAfterADeliveryAttempt() {
        let bench = WNSBench()
        bench.pc.uninstall()
        #expect(bench.notify().status == 200)
        #expect(bench.pc.refused == 1)
        expectWNSError(bench.notify(), 410, "The channel is no longer valid: the app was removed")
    }

    @Test func tokenOfAnotherAppIs403() {
        let bench = WNSBench()
        let other = json(bench.login(sid: bench.otherApp.packageSID, secret: bench.otherApp.secret))?["access_token"]?.stringValue ?? ""
        expectWNSError(bench.notify(auth: .header("Bearer " + other)), 403, "The access token is not authorized to send to this channel")
        #expect(bench.pc.pushes.isEmpty)
    }

    @Test func missingOrUnknownTypeIs400() {
        let bench = WNSBench()
        expectWNSError(bench.notify(type: nil), 400, "The X-WNS-Type header is missing")
        expectWNSError(bench.notify(type: "wns/popup"), 400, "The X-WNS-Type header value 'wns/popup' is not valid")
        expectWNSError(bench.notify(type: "toast"), 400, "The X-WNS-Type header value 'toast' is not valid")
    }

    @Test func wrongContentTypeIs400() {
        let bench = WNSBench()
        expectWNSError(bench.notify(contentType: "application/json"), 400, "Content-Type must be text/xml for wns/toast")
        expectWNSError(bench.notify(contentType: nil), 400, "Content-Type must be text/xml for wns/toast")
        expectWNSError(bench.notify(type: "wns/raw", contentType: "text/xml"), 400,
                       "Content-Type must be application/octet-stream for wns/raw")
        expectWNSError(bench.notify(contentType: "text/xmlx"), 400, "Content-Type must be text/xml for wns/toast")
        expectWNSError(bench.notify(contentType: "text/xm"), 400, "Content-Type must be text/xml for wns/toast")
    }

    /// The media type is compared without its parameters and surrounding spaces, ignoring case.
    @Test(arguments: ["text/xml", "TEXT/XML", "text/xml; charset=utf-8", " text/xml ;charset=utf-8", "Text/Xml "])
    func contentTypeWithParametersOrCaseIsAccepted(contentType: String) {
        let bench = WNSBench()
        #expect(bench.notify(contentType: contentType).status == 200)
    }

    @Test(arguments: [
        #"<toast><visual><binding template="ToastGeneric"><text>From a: <b></text></binding></visual></toast>"#,
        #"<toast><visual><binding template="ToastGeneric"><text>Tom & Jerry</text></binding></visual></toast>"#,
        #"<toast><visual><binding template="ToastGeneric"><text>Hi</text></binding></visual>"#,
        "Hello Bob",
        "",
    ])
    func malformedToastXMLIs400(body: String) {
        let bench = WNSBench()
        expectWNSError(bench.notify(body: body), 400, "The notification payload is not well-formed XML")
        #expect(bench.pc.pushes.isEmpty)
    }

    @Test func escapedToastIsAccepted() {
        let bench = WNSBench()
        let body = #"<toast><visual><binding template="ToastGeneric"><text>Tom &amp; Jerry: &lt;b&gt;</text></binding></visual></toast>"#
        #expect(bench.notify(body: body).status == 200)
    }

    @Test func wrongRootElementIs400() {
        let bench = WNSBench()
        expectWNSError(bench.notify(body: WNSBench.tile), 400, "The payload root element must be <toast> for wns/toast")
        expectWNSError(bench.notify(type: "wns/tile", body: WNSBench.toast), 400, "The payload root element must be <tile> for wns/tile")
    }

    @Test(arguments: ["GET", "PUT", "DELETE"])
    func methodOtherThanPostIs405(method: String) {
        let bench = WNSBench()
        expectWNSError(bench.notify(method: method), 405, "Only POST is supported")
    }

    @Test func payloadOver5000BytesIs413() {
        let bench = WNSBench()
        let open = #"<toast><visual><binding template="ToastGeneric"><text>"#, close = "</text></binding></visual></toast>"
        func toast(bytes: Int) -> String { open + filler(bytes - open.utf8.count - close.utf8.count) + close }
        #expect(toast(bytes: 5_000).utf8.count == 5_000)
        #expect(bench.notify(body: toast(bytes: 5_000)).status == 200)
        expectWNSError(bench.notify(body: toast(bytes: 5_001)), 413, "The notification payload exceeds the 5000 byte limit")
    }

    @Test func headerRulesAre400() {
        let bench = WNSBench()
        expectWNSError(bench.notify(headers: [("X-WNS-Tag", filler(17))]), 400, "X-WNS-Tag is longer than 16 characters")
        #expect(bench.notify(headers: [("X-WNS-Tag", filler(16))]).status == 200)
        expectWNSError(bench.notify(headers: [("X-WNS-SuppressPopup", "true")]), 400,
                       "X-WNS-SuppressPopup is only valid on Windows Phone channels")
    }
}

@Suite("WNS offline caching and channels (Citations §3.2, §3.6)")
struct WNSOfflineTests {
    @Test func toastForAnOfflineDeviceIsDroppedForGood() {
        let bench = WNSBench()
        bench.pc.goOffline()
        let r = bench.notify(headers: [("X-WNS-RequestForStatus", "true")])
        #expect(r.status == 200 && r.headers["X-WNS-Status"] == "dropped")
        #expect(r.headers["X-WNS-DeviceConnectionStatus"] == "disconnected")
        #expect(bench.world.dropReasons == ["device offline and wns/toast is not cached"])
        #expect(bench.world.leftovers().isEmpty)
        bench.pc.goOnline()
        bench.world.run()
        #expect(bench.pc.pushes.isEmpty)
    }

    @Test func tileKeepsTheLastOneAndDeliversItOnReconnect() {
        let bench = WNSBench()
        bench.pc.goOffline()
        let older = #"<tile><visual><binding template="TileMedium"><text>1</text></binding></visual></tile>"#
        let newer = #"<tile><visual><binding template="TileMedium"><text>2</text></binding></visual></tile>"#
        let first = bench.notify(type: "wns/tile", body: older)
        #expect(bench.notify(type: "wns/tile", body: newer).status == 200)
        #expect(bench.world.dropReasons == ["replaced by a newer wns/tile (WNS keeps the last one)"])
        #expect(bench.world.events("notification.dropped").first?[.wnsMessageID] == .string(first.headers["X-WNS-Msg-ID"] ?? "?"))
        #expect(bench.world.leftovers().count == 1)
        bench.world.advance(by: .hours(6))
        bench.pc.goOnline()
        bench.world.run()
        #expect(bench.pc.pushes.map(\.text) == [newer])
        #expect(bench.pc.pushes.first?.headers["X-WNS-Type"] == "wns/tile")
        #expect(bench.world.leftovers().isEmpty)
    }

    @Test func tileWithNoCachePolicyAndRawWithoutCachePolicyAreDropped() {
        let bench = WNSBench()
        bench.pc.goOffline()
        #expect(bench.notify(type: "wns/tile", body: WNSBench.tile, headers: [("X-WNS-Cache-Policy", "no-cache")]).status == 200)
        #expect(bench.notify(type: "wns/raw", contentType: "application/octet-stream", body: "r1").status == 200)
        #expect(bench.notify(type: "wns/raw", contentType: "application/octet-stream", body: "r2",
                             headers: [("X-WNS-Cache-Policy", "cache")]).status == 200)
        #expect(bench.world.dropReasons == ["device offline and wns/tile is not cached", "device offline and wns/raw is not cached"])
        bench.pc.goOnline()
        bench.world.run()
        #expect(bench.pc.pushes.map(\.text) == ["r2"])
    }

    @Test func channelIsStableUntilItExpiresThenReissued() {
        let bench = WNSBench()
        #expect(bench.channel.hasPrefix("https://cloud.notify.windows.com/?token=AwYAAAD"))
        #expect(bench.pc.register(app: bench.app.packageFamily, environment: "") == bench.channel)
        bench.world.advance(by: .days(30))
        let renewed = bench.pc.register(app: bench.app.packageFamily, environment: "")
        #expect(renewed != bench.channel)
        #expect(renewed.hasPrefix("https://cloud.notify.windows.com/?token=AwYAAAD"))
        bench.renewAccessToken()
        expectWNSError(bench.notify(to: bench.channel), 410, "The channel expired")
        #expect(bench.notify(to: renewed).status == 200)
        #expect(bench.world.events("wns.channel-issued").count == 2)
    }

    @Test func newInstallGetsANewChannel() {
        let bench = WNSBench()
        let second = bench.pc.register(app: bench.app.packageFamily, install: 2, environment: "")
        #expect(second != bench.channel)
        #expect(bench.wns.channels.count == 2)
    }
}
