import Testing
import PushSimKernel
import PushSimNetwork
import PushSimCrypto
@testable import PushSimDevices
@testable import PushSimScenario

/// The simulated browser: its keys, its permission, and its service worker decrypting pushes
/// for real (RFC 8291) — against the RFC's worked example, and dropping what does not decrypt.
@Suite struct BrowserTests {
    /// RFC 8291 section 5: the message, the user agent's private key and auth secret.
    static let exampleBody = Base64URL.decode("""
        DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQp\
        u6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN
        """) ?? []
    static let exampleAuth = Base64URL.decode("BTBZMqHH6r4Tts7J_aSIgg") ?? []
    static let examplePrivate = Base64URL.decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94") ?? []
    static let endpoint = "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV"

    /// A browser holding the RFC example's subscription, a world to push to it in.
    private func exampleBrowser() throws -> (World, Browser) {
        let world = World(seed: 1)
        let browser = Browser(world: world, name: "laptop", vendor: .chrome, permission: .granted)
        browser.subscription = BrowserPushSubscription(endpoint: Self.endpoint, applicationServerKey: [],
                                                       privateKey: try P256PrivateKey(rawRepresentation: Self.examplePrivate),
                                                       authSecret: Self.exampleAuth)
        return (world, browser)
    }

    /// Pushes `body` to the browser over the channel as the push service does; returns the answer's status.
    private func push(_ body: [UInt8], to browser: Browser, in world: World, endpoint: String = BrowserTests.endpoint,
                      coding: String = "aes128gcm", headers: [(String, String)] = []) -> Int? {
        var status: Int?
        world.pushToDevice(service: "webpush", device: browser.name, handle: endpoint, app: "chrome", message: "m1",
                           headers: [("Content-Encoding", coding)] + headers, payload: body) { status = $0 }
        world.run()
        return status
    }

    @Test func theExampleMessageIsDecryptedAndShown() throws {
        #expect(Self.exampleBody.count == 144)
        let (world, browser) = try exampleBrowser()
        #expect(push(Self.exampleBody, to: browser, in: world) == 200)
        #expect(browser.inbox.map(\.text) == ["When I grow up, I want to be a watermelon"])
    }

    /// Any flipped byte of the record (ciphertext or tag), a wrong coding or a short body: the
    /// push is taken (200) but never shown, and the trace says why; nothing crashes.
    @Test(arguments: [86, 100, 143])
    func aTamperedMessageIsDroppedNotShown(at index: Int) throws {
        let (world, browser) = try exampleBrowser()
        var body = Self.exampleBody
        body[index] ^= 0x01
        #expect(push(body, to: browser, in: world) == 200)
        #expect(browser.inbox.isEmpty)
        #expect(world.trace.events.contains { $0.kind == .browserPushDropped && $0[.why]?.description.contains("decryption failed") == true })
    }

    @Test func aShortBodyOrAnotherCodingIsDropped() throws {
        let (world, browser) = try exampleBrowser()
        #expect(push(Array(Self.exampleBody.prefix(30)), to: browser, in: world) == 200)
        #expect(push(Self.exampleBody, to: browser, in: world, coding: "aesgcm") == 200)   // no Encryption, no Crypto-Key
        #expect(push(Self.exampleBody, to: browser, in: world, coding: "br") == 200)
        #expect(browser.inbox.isEmpty)
        #expect(world.trace.events.filter { $0.kind == .browserPushDropped }.count == 3)
    }

    /// The older `aesgcm` coding, as pywebpush sends it when asked (`content_encoding="aesgcm"`):
    /// salt in `Encryption`, the sender's key in `Crypto-Key` beside the VAPID key. Chrome and
    /// Firefox show it; before, PushSim's browser dropped every aesgcm push.
    @Test func anAesgcmMessageIsDecryptedAndShown() throws {
        let (world, browser) = try exampleBrowser()
        let sender = try P256PrivateKey(derivedFrom: Array("aesgcm sender".utf8))
        let salt = Array(UInt8(1)...16)
        let userAgent = try P256PrivateKey(rawRepresentation: Self.examplePrivate).publicKey
        let body = try DraftWebPushEncryption.encrypt(Array("Kick-off".utf8), userAgentPublicKey: userAgent, authSecret: Self.exampleAuth,
                                                      applicationServerPrivateKey: sender, salt: salt, paddingLength: 3)
        let headers = [("Encryption", "salt=\(Base64URL.encode(salt))=="),
                       ("Crypto-Key", "dh=\(Base64URL.encode(sender.publicKey.x963Representation));p256ecdsa=BAAA")]
        #expect(push(body, to: browser, in: world, coding: "aesgcm", headers: headers) == 200)
        #expect(browser.inbox.map(\.text) == ["Kick-off"])
        #expect(push(body, to: browser, in: world, coding: "aesgcm", headers: [headers[0], ("Crypto-Key", "p256ecdsa=BAAA")]) == 200)
        #expect(browser.inbox.count == 1)
        #expect(world.trace.events.contains { $0.kind == .browserPushDropped && $0[.why]?.description.contains("no dh") == true })
    }

    @Test func aPushForAnotherEndpointIsRefusedAsGone() throws {
        let (world, browser) = try exampleBrowser()
        #expect(push(Self.exampleBody, to: browser, in: world, endpoint: "https://push.example.net/push/other") == 410)
        browser.clearProfile()
        #expect(browser.subscription == nil && browser.permission == .default)
        #expect(push(Self.exampleBody, to: browser, in: world) == 410)
        #expect(browser.inbox.isEmpty)
    }

    /// The subscription's keys come from the world's seed and the browser's name: the same in
    /// every run, different for another browser or seed; p256dh is a P-256 point, auth 16 bytes.
    @Test func keysAreDeterministic() throws {
        func keys(seed: UInt64, browser name: String) -> ([UInt8], [UInt8], String) {
            let simulation = Simulation(seed: seed)
            let server = simulation.addApplicationServer("shop")
            let browser = simulation.addBrowser(name, vendor: .firefox)
            browser.subscribe(applicationServerKey: server.vapidKey.publicKey.x963Representation)
            _ = simulation.run()
            return (browser.subscription?.p256dh ?? [], browser.subscription?.authSecret ?? [], browser.subscription?.endpoint ?? "")
        }
        let a = keys(seed: 7, browser: "bob-firefox"), b = keys(seed: 7, browser: "bob-firefox")
        #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2)
        #expect(a.0.count == 65 && a.1.count == 16)
        #expect((try? P256PublicKey(x963Representation: a.0)) != nil)
        #expect(keys(seed: 8, browser: "bob-firefox").0 != a.0)
        #expect(keys(seed: 7, browser: "ann-firefox").1 != a.1)
    }

    /// Notification.requestPermission semantics: default asks (allow → granted, deny → denied);
    /// denied never asks; anything but granted rejects subscribe() with NotAllowedError.
    @Test func permission() {
        let simulation = Simulation(seed: 3)
        let key = simulation.addApplicationServer("shop").vapidKey.publicKey.x963Representation
        let allows = simulation.addBrowser("a", vendor: .chrome)
        let denies = simulation.addBrowser("b", vendor: .chrome, promptAnswer: .deny)
        let blocked = simulation.addBrowser("c", vendor: .safari, permission: .denied)
        for browser in [allows, denies, blocked] { browser.subscribe(applicationServerKey: key) }
        blocked.subscribe(applicationServerKey: [4, 1, 2])
        _ = simulation.run()
        #expect(allows.permission == .granted && allows.subscribeOutcomes == [nil] && allows.subscription != nil)
        #expect(denies.permission == .denied && denies.subscribeOutcomes == ["NotAllowedError"] && denies.subscription == nil)
        #expect(blocked.subscribeOutcomes == ["NotAllowedError", "InvalidAccessError"])
        #expect(!simulation.world.trace.events.contains { $0.kind == .browserPermissionAsked && $0.host == "c" })
    }

    /// The service worker's display convention (WebPushShownText).
    @Test(arguments: [
        (#"{"title":"Sale","body":"20% off"}"#, "Sale: 20% off"),
        (#"{"title":"Sale"}"#, "Sale"),
        (#"{"body":"20% off"}"#, "20% off"),
        (#"{"other":1}"#, #"{"other":1}"#),
        ("plain", "plain"),
        (#"{"title":7,"body":"b"}"#, "b"),
    ])
    func shownText(_ plaintext: String, _ shown: String) {
        #expect(WebPushShownText.text(of: Array(plaintext.utf8)) == shown)
    }

    @Test func anEmptyMessageShowsNothing() {
        #expect(WebPushShownText.text(of: []) == nil)
    }
}
