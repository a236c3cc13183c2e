import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices
import PushSimScenario

/// `POST /api/notifications?pns=&to_tag=` of the hardened backend, end to end: checked input,
/// encoded payloads (defect d fixed), `gcm` as FCM (b), the recipient's tag only (g).
@Suite("Hardened backend: send")
struct HardenedNotificationsTests {
    /// alice on an iPhone running the careful (recommended) client; bob with an iPhone, an Android
    /// phone and a Windows PC; all on the hardened backend with default accounts (password = user
    /// name). Everyone is installed and logged in by 10 s.
    final class People {
        let sim = hardenedWorld(accounts: nil)
        let alice: Device
        let bob: [DevicePlatform: Device]

        init() {
            alice = sim.addDevice("alice-iphone", .ios, client: .recommended, user: "alice")
            var b: [DevicePlatform: Device] = [:]
            for p in DevicePlatform.allCases { b[p] = sim.addDevice("bob-\(p.rawValue)", p, user: "bob") }
            bob = b
            installAndLogIn(sim, alice, as: "alice", at: t(1))
            for p in DevicePlatform.allCases { installAndLogIn(sim, b[p]!, as: "bob", at: t(2)) }
        }

        /// Hub send requests, in order.
        var sends: [RequestJournal.Entry] {
            sim.world.journal.requests(to: "hub").filter { $0.request.path.hasSuffix("/messages/") }
        }
    }

    @Test(arguments: [(PushSwitch.apns, DevicePlatform.ios), (.fcm, .android), (.gcm, .android), (.wns, .windows)])
    func eachServiceReachesTheRecipientsDeviceOnIt(pns: PushSwitch, platform: DevicePlatform) {
        let p = People()
        p.sim.at(t(20), "alice sends") { p.alice.send("hello", to: "bob", via: [pns]) }
        p.sim.run()
        #expect(p.alice.calls.filter { $0.operation == .send }.map(\.status) == [200])
        for (q, device) in p.bob {
            #expect(shown(device) == (q == platform ? ["From alice: hello"] : []), "\(q)")
        }
        // `gcm`, what the tutorial's iOS app sends for its GCM switch, goes out through FCM (defect b fixed).
        #expect(p.bob[platform]!.inbox.first?.service == (pns == .gcm ? "fcm" : pns.rawValue))
        #expect(shown(p.alice).isEmpty)
    }

    @Test func sendTargetsTheRecipientsTagOnlyWithTheNativeFormats() {
        let p = People()
        p.sim.at(t(20), "alice sends") { p.alice.send("hi", to: "bob", via: [.wns, .gcm, .apns]) }
        p.sim.run()
        #expect(p.sends.map { $0.request.headers["ServiceBusNotification-Format"] } == ["windows", "fcmv1", "apple"])
        #expect(p.sends.map { $0.request.headers["ServiceBusNotification-Tags"] } == ["username:bob", "username:bob", "username:bob"])
        #expect(p.sends.map { $0.from } == [HardenedBackend.name, HardenedBackend.name, HardenedBackend.name])
        #expect(p.sends.map(\.request.bodyText) == [
            #"<toast><visual><binding template="ToastText01"><text id="1">From alice: hi</text></binding></visual></toast>"#,
            #"{"message":{"data":{"message":"From alice: hi"}}}"#,
            #"{"aps":{"alert":"From alice: hi"}}"#,
        ])
    }

    @Test func aDeviceTaggedFromTheSenderDoesNotGetTheHardenedSend() {
        // alice's old iPhone registered with a from:alice tag through the tutorial backend (defect i
        // there); the send through the tutorial backend reaches it (defect g), the hardened one does not.
        let sim = hardenedWorld(accounts: nil)
        let bob = sim.addDevice("bob-iphone", .ios, user: "bob")
        let tagged = sim.addDevice("alice-iphone", .ios, user: "alice", backend: .tutorial)
        let viaTutorial = sim.addDevice("alice-pixel", .android, user: "alice", backend: .tutorial)
        let viaHardened = sim.addDevice("alice-tablet", .android, user: "alice")
        for (i, d) in [bob, tagged, viaTutorial, viaHardened].enumerated() {
            installAndLogIn(sim, d, as: d === bob ? "bob" : "alice", at: t(Int64(i + 1)))
        }
        sim.at(t(10), "alice-iphone asks for from:alice") { tagged.register(withTags: ["from:alice"]) }
        sim.at(t(20), "alice-pixel sends") { viaTutorial.send("via the tutorial backend", to: "bob", via: [.apns]) }
        sim.at(t(30), "alice-tablet sends") { viaHardened.send("via the hardened backend", to: "bob", via: [.apns]) }
        sim.run()
        #expect(tagged.calls.filter { $0.operation == .register }.map(\.status) == [200, 200])
        #expect(shown(bob) == ["From alice: via the tutorial backend", "From alice: via the hardened backend"])
        #expect(shown(tagged) == ["From alice: via the tutorial backend"])
        let hardenedSend = sim.world.journal.requests(to: "hub").filter {
            $0.from == HardenedBackend.name && $0.request.path.hasSuffix("/messages/")
        }
        #expect(hardenedSend.map { $0.request.headers["ServiceBusNotification-Tags"] } == ["username:bob"])
    }

    @Test(arguments: [
        #"say "hi""#, #"back\slash \n \u0041"#, "a < b & c > d", "</text></binding><text>x", "line one\nline two",
        "héllo wörld — 日本語 🎉", #"x","badge":9,"sound":"alarm.caf"#, "{\"data\":{\"message\":\"spoof\"}}", "it's &amp; ok",
    ])
    func messagesArriveExactlyAsWrittenOnEveryPlatform(message: String) {
        let p = People()
        p.sim.at(t(20), "alice sends") { p.alice.send(message, to: "bob", via: [.wns, .fcm, .apns]) }
        p.sim.run()
        #expect(p.alice.calls.filter { $0.operation == .send }.map(\.status) == [200, 200, 200])
        for (platform, device) in p.bob {
            #expect(shown(device) == ["From alice: " + message], "\(platform)")
        }
        // Nothing was injected into the APNs payload: aps holds the alert only.
        let apns = p.sim.pnsRequests("apns").map(\.request.body)
        #expect(apns.count == 1)
        #expect((try? JSONParser.parse(apns.first ?? []))?["aps"]?.objectMembers?.map(\.0) == ["alert"])
    }

    // MARK: Refused input

    @Test(arguments: [nil, "", "mpns", "baidu", "apns,fcm"] as [String?])
    func pnsMustBeApnsFcmGcmOrWns(pns: String?) {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/notifications",
                                  query: (pns.map { [("pns", $0)] } ?? []) + [("to_tag", "bob")], body: jsonBody("hi"))
        sim.run()
        #expect(answer.status == 400)
        #expect(errorText(answer).contains("pns"))
        #expect(sim.hardenedHubCalls.isEmpty)
    }

    @Test(arguments: [nil, "", "bob || from:alice", "bob carol", "bob&&x", "bob,carol", "b(o)b", "ünïcode"] as [String?])
    func toTagMustNameAUser(toTag: String?) {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/notifications",
                                  query: [("pns", "apns")] + (toTag.map { [("to_tag", $0)] } ?? []), body: jsonBody("hi"))
        sim.run()
        // A tag expression in to_tag would widen the audience: refused.
        #expect(answer.status == 400, "\(toTag ?? "nil")")
        #expect(errorText(answer).contains("to_tag"))
        #expect(sim.hardenedHubCalls.isEmpty)
    }

    @Test(arguments: ["", "hi", "\"unterminated", "42", "true", "null", #"{"message":"hi"}"#, #"["hi"]"#, "\"a\" \"b\""])
    func bodyMustBeAJSONString(body: String) {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/notifications", query: [("pns", "apns"), ("to_tag", "bob")], body: body)
        sim.run()
        #expect(answer.status == 400, "\(body)")
        #expect(errorText(answer).contains("JSON string"))
        #expect(sim.hardenedHubCalls.isEmpty)
    }

    @Test func sendWithNoRegisteredRecipientAnswers200() {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/notifications", query: [("pns", "WNS"), ("to_tag", "nobody")],
                                  body: jsonBody("hi"))
        sim.run()
        #expect(answer.status == 200)
        #expect(sim.hardenedHubCalls == ["POST messages"])
        #expect(sim.world.journal.requests(to: "hub").first?.request.headers["ServiceBusNotification-Tags"] == "username:nobody")
    }

    @Test func messageTooLargeForTheHubIs413NotARetryableOutage() {
        // Within the backend's 64 KB, but the payload around it exceeds the hub's 64 KB send limit.
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/notifications", query: [("pns", "apns"), ("to_tag", "bob")],
                                  body: jsonBody(String(repeating: "y", count: HardenedBackend.maxBody - 16)))
        sim.run()
        #expect(sim.hubStatuses(by: .hardened) == [413])
        #expect(answer.status == 413)
        #expect(answer.result?.response?.headers["Retry-After"] == nil)
    }

    @Test func senderNameComesFromTheAccount() {
        // bob cannot send as alice: the text says who authenticated.
        let p = People()
        p.sim.hardened(at: t(20), "POST", "/api/notifications", query: [("pns", "apns"), ("to_tag", "bob")],
                       auth: .user("bob"), body: jsonBody("From alice: trust me"))
        p.sim.run()
        #expect(shown(p.bob[.ios]!) == ["From bob: From alice: trust me"])
    }
}
