import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices
import PushSimScenario

/// The registration logic of Microsoft's guidance (the `recommended` client).
@Suite("Recommended client")
struct RecommendedClientTests {
    @Test func on410ItForgetsTheIdGetsANewOneAndUpsertsAgain() {
        let bare = BareWorld(client: .recommended, ids: ["reg-old", "reg-new"], putStatus: { $0 == "reg-old" ? 410 : 200 })
        bare.world.run()
        #expect(bare.backend.log == ["POST /api/register", "PUT /api/register/reg-old",
                                     "POST /api/register", "PUT /api/register/reg-new"])
        #expect(bare.phone.storage[Device.registrationIDKey] == "reg-new")
        #expect(bare.kinds("app.retry").first?[.forgottenID] == "reg-old")
        #expect(bare.kinds("app.registered").first?[.registration] == "reg-new")
    }

    @Test func itStartsOverOnlyOnce() {
        let bare = BareWorld(client: .recommended, ids: ["reg-1", "reg-2", "reg-3"], putStatus: { _ in 410 })
        bare.world.run()
        #expect(bare.backend.log == ["POST /api/register", "PUT /api/register/reg-1",
                                     "POST /api/register", "PUT /api/register/reg-2"])
        #expect(bare.kinds("app.registration-failed").count == 1)
        #expect(bare.kinds("app.registered").isEmpty)
    }

    @Test func itRegistersLikeTheTutorialOnTheHappyPath() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios, client: .recommended)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        sim.run()
        let requests = sim.backendRequests(from: phone)
        #expect(requests.map { "\($0.method) \($0.path)" } == ["POST /api/register", "PUT /api/register/76592028274533430-4765052952699024478-2"])
        #expect(field("Platform", of: requests[1]) == "apns")
        #expect(field("Handle", of: requests[1]) == phone.handle?.uppercased())
        #expect(phone.storage[Device.registrationIDKey] == "76592028274533430-4765052952699024478-2")
        #expect(phone.calls.map(\.status) == [200, 200])
    }

    @Test func itReRegistersWhenTheOSHandsItANewChannel() {
        // WNS channels live 30 days; the app asks for one at every launch.
        let sim = Simulation(seed: 1)
        let pc = sim.addDevice("bob-pc", .windows, client: .recommended)
        sim.installAndLogIn(pc, as: "bob", at: t(1))
        var before: String?
        sim.at(.zero + .days(31), "relaunch") { before = pc.handle; pc.launch() }
        sim.run()
        #expect(pc.handle != nil && pc.handle != before)
        #expect(pc.calls.map(\.operation) == [.createID, .register, .register])
        let put = sim.backendRequests(from: pc).last!
        #expect(put.path == "/api/register/76592028274533430-4765052952699024478-2")
        #expect(field("Handle", of: put) == pc.handle)
    }

    @Test func itEscapesTheMessageBody() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("alice-iphone", .ios, client: .recommended)
        sim.installAndLogIn(phone, as: "alice", at: t(1))
        sim.at(t(10), "send") { phone.send(#"say "hi""#, to: "bob", via: [.apns]) }
        sim.run()
        let body = sim.backendRequests(from: phone).last?.body ?? []
        #expect((try? JSONParser.parse(body))?.stringValue == #"say "hi""#)
    }
}
