import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices
import PushSimScenario

/// The tutorial's `RegisterClient` and send code, as written.
@Suite("Tutorial client")
struct TutorialClientTests {
    @Test func iPhoneStoresTheUnquotedIdAndUpsertsItsUpperCasedToken() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        sim.run()
        let token = phone.handle ?? "?"
        let upper = token.uppercased()
        #expect(upper != token)
        let requests = sim.backendRequests(from: phone)
        #expect(requests.map { "\($0.method) \($0.path)" } == ["POST /api/register", "PUT /api/register/76592028274533430-4765052952699024478-2"])
        #expect(requests.first?.queryValue("handle") == upper)
        // The reply was "\"76592028274533430-4765052952699024478-2\"": the quotes are stripped before storing.
        #expect(Device.registrationIDKey == "RegistrationId")
        #expect(phone.storage == ["RegistrationId": "76592028274533430-4765052952699024478-2"])
        let put = requests.last!
        #expect(field("Platform", of: put) == "apns")
        #expect(field("Handle", of: put) == upper)
        #expect((try? JSONParser.parse(put.body))?["Tags"] == .array([]))
        #expect(put.headers["Authorization"] == "Basic " + Base64.encode(Array("bob:bob".utf8)))
    }

    @Test(arguments: [(DevicePlatform.android, "fcm"), (.windows, "wns")])
    func otherPlatformsUpsertTheirHandleAsIs(platform: DevicePlatform, name: String) {
        let sim = Simulation(seed: 1)
        let device = sim.addDevice("bob-device", platform)
        sim.installAndLogIn(device, as: "bob", at: t(1))
        sim.run()
        let put = sim.backendRequests(from: device).last!
        #expect(put.method == "PUT")
        #expect(field("Platform", of: put) == name)
        #expect(field("Handle", of: put) == device.handle)
        #expect(device.calls.map(\.status) == [200, 200])
        #expect(sim.events("hub.registration-upserted").first?[.tags] == "username:bob")
    }

    @Test func secondLoginReusesTheStoredId() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        sim.at(t(10), "log in again") { phone.login(user: "bob", password: "bob") }
        sim.run()
        #expect(phone.calls.map(\.operation) == [.createID, .register, .register])
        #expect(sim.backendRequests(from: phone).last?.path == "/api/register/76592028274533430-4765052952699024478-2")
        #expect(sim.hub.registrationCount == 1)
    }

    @Test func on410TheRetryResendsTheSameStoredId() {
        // Defect a, against a backend that does pass 410 on (the tutorial backend never does: defect e).
        let bare = BareWorld(client: .tutorial, ids: ["reg-dead", "reg-fresh"], putStatus: { _ in 410 })
        bare.world.run()
        #expect(bare.backend.log == ["POST /api/register", "PUT /api/register/reg-dead", "PUT /api/register/reg-dead"])
        #expect(bare.phone.storage[Device.registrationIDKey] == "reg-dead")
        #expect(bare.kinds("app.retry").count == 1)
        #expect(bare.kinds("app.retry").first?[.defect] == "a")
        #expect(bare.kinds("app.registration-failed").first?[.status] == "410")
        #expect(bare.kinds("app.registered").isEmpty)
        #expect(bare.phone.calls.map(\.status) == [200, 410, 410])
    }

    @Test func on200ThereIsNoRetry() {
        let bare = BareWorld(client: .tutorial, ids: ["reg-1"], putStatus: { _ in 200 })
        bare.world.run()
        #expect(bare.backend.log == ["POST /api/register", "PUT /api/register/reg-1"])
        #expect(bare.kinds("app.registered").count == 1)
        #expect(bare.kinds("app.retry").isEmpty)
    }

    @Test func otherErrorsAreNotRetried() {
        let bare = BareWorld(client: .tutorial, ids: ["reg-1"], putStatus: { _ in 500 })
        bare.world.run()
        #expect(bare.backend.log == ["POST /api/register", "PUT /api/register/reg-1"])
        #expect(bare.kinds("app.registration-failed").first?[.status] == "500")
    }

    @Test func sendGoesOutOncePerSwitchInWNSGCMAPNSOrder() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("alice-iphone", .ios)
        sim.installAndLogIn(phone, as: "alice", at: t(1))
        sim.at(t(10), "send") { phone.send("hi", to: "bob", via: [.apns, .gcm, .wns]) }
        sim.run()
        let sends = sim.backendRequests(from: phone).filter { $0.path == "/api/notifications" }
        #expect(sends.map { $0.queryValue("pns") } == ["wns", "gcm", "apns"])
        #expect(sends.allSatisfy { $0.queryValue("to_tag") == "bob" && $0.bodyText == "\"hi\"" })
        #expect(sim.events("app.send").map { $0[.pns] } == ["wns", "gcm", "apns"])
        // gcm is unknown to the backend (defect b). Calls are recorded as they complete.
        let answers = sim.world.journal.requests(to: TutorialBackend.name).filter { $0.request.path == "/api/notifications" }
        #expect(answers.map { $0.result?.status } == [200, 500, 200])
        #expect(phone.calls.filter { $0.operation == .send }.compactMap(\.status).sorted() == [200, 200, 500])
    }

    @Test func fcmSwitchSitsBetweenWNSAndAPNS() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("alice-iphone", .ios)
        sim.installAndLogIn(phone, as: "alice", at: t(1))
        sim.at(t(10), "send") { phone.send("hi", to: "bob", via: [.apns, .fcm, .wns]) }
        sim.run()
        #expect(sim.backendRequests(from: phone).compactMap { $0.queryValue("pns") } == ["wns", "fcm", "apns"])
    }

    @Test func messageIsWrappedInQuotesWithoutEscaping() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("alice-iphone", .ios)
        sim.installAndLogIn(phone, as: "alice", at: t(1))
        sim.at(t(10), "send") { phone.send(#"say "hi""#, to: "bob", via: [.apns]) }
        sim.run()
        #expect(sim.backendRequests(from: phone).last?.bodyText == #""say "hi"""#)
    }

    @Test func sendBeforeLoginIsIgnored() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("alice-iphone", .ios)
        sim.at(t(1), "install") { phone.install() }
        sim.at(t(2), "send") { phone.send("hi", to: "bob", via: [.apns]) }
        sim.run()
        #expect(sim.events("app.ignored", on: "alice-iphone").first?[.action] == "send")
        #expect(sim.backendRequests(from: phone).isEmpty)
    }

    @Test func tutorialClientDoesNotReRegisterWhenItsChannelIsRenewed() {
        // Control for the recommended client's test: the tutorial app only enables its button.
        let sim = Simulation(seed: 1)
        let pc = sim.addDevice("bob-pc", .windows)
        sim.installAndLogIn(pc, as: "bob", at: t(1))
        var before: String?
        sim.at(.zero + .days(31), "relaunch") { before = pc.handle; pc.launch() }
        sim.run()
        #expect(pc.handle != before)
        #expect(pc.calls.map(\.operation) == [.createID, .register])
    }
}
