import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimBackend
import PushSimDevices
import PushSimScenario

/// `POST /api/notifications?pns=&to_tag=` of the tutorial's NotificationsController, end to end:
/// backend → hub → PNS → device.
@Suite("Tutorial backend: send")
struct NotificationsControllerTests {
    /// alice on an iPhone; bob and carol each with an iPhone, an Android phone and a Windows PC.
    /// Everyone is installed and logged in by 10 s.
    final class People {
        let sim: Simulation
        let alice: Device
        let bob: [DevicePlatform: Device]
        let carol: [DevicePlatform: Device]

        init(seed: UInt64 = 1, senderClient: ClientFlavour = .tutorial) {
            sim = Simulation(seed: seed)
            alice = sim.addDevice("alice-iphone", .ios, client: senderClient)
            var b: [DevicePlatform: Device] = [:], c: [DevicePlatform: Device] = [:]
            for p in DevicePlatform.allCases {
                b[p] = sim.addDevice("bob-\(p.rawValue)", p)
                c[p] = sim.addDevice("carol-\(p.rawValue)", p)
            }
            bob = b
            carol = c
            installAndLogIn(sim, alice, as: "alice", at: t(1))
            for p in DevicePlatform.allCases {
                installAndLogIn(sim, b[p]!, as: "bob", at: t(2))
                installAndLogIn(sim, c[p]!, as: "carol", at: t(3))
            }
        }

        var everyone: [Device] { [alice] + DevicePlatform.allCases.flatMap { [bob[$0]!, carol[$0]!] } }

        /// Devices that have shown something, with what they showed.
        var shownByDevice: [String: [String]] {
            var out: [String: [String]] = [:]
            for d in everyone where !d.inbox.isEmpty { out[d.name] = shown(d) }
            return out
        }
    }

    @Test(arguments: [(PushSwitch.apns, DevicePlatform.ios), (.fcm, .android), (.wns, .windows)])
    func eachServiceReachesOnlyTheRecipientsDeviceOnIt(pns: PushSwitch, platform: DevicePlatform) {
        let p = People()
        p.sim.at(t(20), "alice sends") { p.alice.send("hello", to: "bob", via: [pns]) }
        p.sim.run()
        #expect(p.everyone.allSatisfy { $0.calls.filter { $0.operation == .register }.map(\.status) == [200] })
        #expect(p.alice.calls.last?.operation == .send)
        #expect(p.alice.calls.last?.status == 200)
        #expect(p.shownByDevice == [p.bob[platform]!.name: ["From alice: hello"]])
        #expect(p.bob[platform]!.inbox.first?.service == pns.rawValue)
    }

    @Test func sameSeedSameTrace() {
        func run() -> [TraceEvent] {
            let p = People(seed: 42)
            p.sim.at(t(20), "alice sends") { p.alice.send("hello", to: "bob", via: [.wns, .gcm, .apns]) }
            p.sim.at(t(21), "carol sends") { p.carol[.android]!.send("hey", to: "alice", via: [.apns]) }
            p.sim.run()
            return p.sim.world.trace.events
        }
        let first = run()
        #expect(first.count > 100)
        #expect(first == run())
    }

    @Test func payloadsAreTheTutorialsNativeFormats() {
        let p = People()
        p.sim.at(t(20), "alice sends") { p.alice.send("hi", to: "bob", via: [.wns, .fcm, .apns]) }
        p.sim.run()
        let sends = p.sim.world.journal.requests(to: "hub").filter { $0.request.path.hasSuffix("/messages/") }
        #expect(sends.map { $0.request.headers["ServiceBusNotification-Format"] } == ["windows", "fcmv1", "apple"])
        #expect(sends.allSatisfy { $0.request.headers["ServiceBusNotification-Tags"] == "username:bob||from:alice" })   // string.Join("||", tags)
        #expect(sends.map(\.request.bodyText) == [
            #"<toast><visual><binding template="ToastText01"><text id="1">From alice: hi</text></binding></visual></toast>"#,
            #"{"message":{ "data" : {"message":"From alice: hi"}}}"#,
            #"{"aps":{"alert":"From alice: hi"}}"#,
        ])
        #expect(sends.allSatisfy { $0.result?.status == 201 })
    }

    @Test func gcmSwitchIs500AndNothingReachesTheHub() {
        let p = People()
        p.sim.at(t(20), "alice sends") { p.alice.send("hello", to: "bob", via: [.gcm]) }
        p.sim.run()
        // The backend only knows `fcm` (defect b).
        #expect(p.alice.calls.last?.operation == .send)
        #expect(p.alice.calls.last?.status == 500)
        #expect(p.sim.events("backend.unknown-pns").first?[.defect] == "b")
        #expect(!p.sim.hubCalls.contains { $0.hasPrefix("POST messages") })
        #expect(p.shownByDevice.isEmpty)
    }

    @Test func missingPnsIs500() {
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/notifications", query: [("to_tag", "bob")], body: jsonBody("hi"))
        sim.run()
        // `pns.ToLower()` on null.
        #expect(answer.status == 500)
        #expect(sim.hubCalls.isEmpty)
    }

    @Test func sendWithNoRegisteredRecipientStillAnswers200() {
        // The outcome is Enqueued, not Abandoned or Unknown.
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/notifications", query: [("pns", "APNS"), ("to_tag", "nobody")],
                                 body: jsonBody("hi"))
        sim.run()
        #expect(answer.status == 200)
        #expect(sim.hubCalls == ["POST messages"])
        #expect(sim.events("hub.no-target").count == 1)
    }

    @Test func badlyQuotedMessageBindsToNull() {
        // The tutorial app wraps `Hi "Bob"` in quotes without escaping: not a JSON string.
        let p = People()
        p.sim.at(t(20), "alice sends") { p.alice.send("Hi \"Bob\"", to: "bob", via: [.apns]) }
        p.sim.run()
        #expect(p.alice.calls.last?.status == 200)
        #expect(shown(p.bob[.ios]!) == ["From alice: "])
    }

    // MARK: Defect d: payloads built by concatenation

    @Test func quoteInMessageMakesTheAPNsPayloadInvalidAndTheHubRefusesIt() {
        // A careful (recommended) client escapes the body, so the backend gets the quote itself and
        // builds `{"aps":{"alert":"From alice: say "hi""}}`: not JSON. The hub checks an APNs
        // payload when it is sent and answers 400 (see HubFidelityRules); the tutorial's backend
        // lets the SDK's exception escape: 500.
        let p = People(senderClient: .recommended)
        p.sim.at(t(20), "alice sends") { p.alice.send("say \"hi\"", to: "bob", via: [.apns]) }
        p.sim.run()
        #expect(p.sim.hubStatuses.last == 400)
        #expect(p.alice.calls.last?.status == 500)
        #expect(p.sim.pnsRequests("apns").isEmpty)
        #expect(p.shownByDevice.isEmpty)
    }

    @Test func quoteInMessageMakesTheFCMPayloadInvalidAndTheHubRefusesIt() {
        let p = People(senderClient: .recommended)
        p.sim.at(t(20), "alice sends") { p.alice.send("say \"hi\"", to: "bob", via: [.fcm]) }
        p.sim.run()
        #expect(p.sim.hubStatuses.last == 400)
        #expect(p.alice.calls.last?.status == 500)
        #expect(p.sim.pnsRequests("fcm").isEmpty)
        #expect(p.shownByDevice.isEmpty)
    }

    @Test(arguments: ["a < b", "fish & chips"])
    func markupInMessageBreaksTheToastAndNothingIsShown(message: String) {
        let p = People(senderClient: .recommended)
        p.sim.at(t(20), "alice sends") { p.alice.send(message, to: "bob", via: [.wns]) }
        p.sim.run()
        // The toast is not well-formed XML: no toast is ever delivered.
        #expect(p.shownByDevice.isEmpty)
        #expect(!p.sim.events("wns.accepted").contains { $0[.type] == "wns/toast" })
        #expect(p.sim.events("notification.shown").isEmpty)
        // The SDK refuses the payload before sending (ArgumentException), so the hub never sees it
        // and the uncaught exception is a 500 for the app.
        #expect(p.sim.events("sdk.argument-exception").count == 1)
        #expect(p.sim.events("hub.send-accepted").isEmpty)
        #expect(p.alice.calls.filter { $0.operation == .send }.map(\.status) == [500])
    }

    @Test func craftedMessageInjectsFieldsIntoTheAPNsPayload() {
        let p = People(senderClient: .recommended)
        p.sim.at(t(20), "alice sends") { p.alice.send(#"x","badge":9,"sound":"alarm.caf"#, to: "bob", via: [.apns]) }
        p.sim.run()
        let pushed = p.sim.pnsRequests("apns").map(\.request.bodyText)
        #expect(pushed.count == 1)
        let json = try? JSONParser.parse(Array((pushed.first ?? "").utf8))
        #expect(json?["aps"]?["alert"] == "From alice: x")
        #expect(json?["aps"]?["badge"]?.int64Value == 9)
        #expect(json?["aps"]?["sound"] == "alarm.caf")
        #expect(shown(p.bob[.ios]!) == ["From alice: x"])
    }

    @Test func escapedMessageFromTheRecommendedClientIsShownWhole() {
        // Control for the injection cases: a harmless message is shown as typed.
        let p = People(senderClient: .recommended)
        p.sim.at(t(20), "alice sends") { p.alice.send("it's 5 o'clock", to: "bob", via: [.apns]) }
        p.sim.run()
        #expect(shown(p.bob[.ios]!) == ["From alice: it's 5 o'clock"])
    }

    // MARK: Defects g and i: who gets the message

    @Test func sendersOwnDeviceTaggedFromGetsItsOwnMessage() {
        let p = People()
        // alice re-registers her iPhone's registration with a `from:alice` tag (accepted unchecked).
        p.sim.request(at: t(15), "PUT", "/api/register/\(p.alice.storage[Device.registrationIDKey] ?? "")", auth: .user("alice"),
                      body: registrationBody(platform: "apns", handle: (p.alice.handle ?? "").uppercased(), tags: ["from:alice"]))
        p.sim.at(t(20), "alice sends") { p.alice.send("hello", to: "bob", via: [.apns]) }
        p.sim.run()
        // The tag list means OR (defect g): alice's own phone shows it too.
        #expect(p.shownByDevice == ["bob-ios": ["From alice: hello"], "alice-iphone": ["From alice: hello"]])
    }

    @Test func userCanSubscribeToAnotherUsersNotifications() {
        let p = People()
        // alice registers her own iPhone with bob's tag (defect i).
        p.sim.request(at: t(15), "PUT", "/api/register/\(p.alice.storage[Device.registrationIDKey] ?? "")", auth: .user("alice"),
                      body: registrationBody(platform: "apns", handle: (p.alice.handle ?? "").uppercased(), tags: ["username:bob"]))
        p.sim.at(t(20), "carol sends") { p.carol[.ios]!.send("for bob only", to: "bob", via: [.apns]) }
        p.sim.run()
        #expect(p.shownByDevice == ["bob-ios": ["From carol: for bob only"], "alice-iphone": ["From carol: for bob only"]])
    }
}
