import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices
import PushSimScenario

/// What the recommended app does when calls fail for a passing reason, as exploration found it
/// must: a lost registration, a lost logout and a failed token fetch are tried again.
@Suite("Recommended client: retries")
struct RecommendedClientRetryTests {
    private func partition(_ sim: Simulation, _ a: String, _ b: String, from: Int64, to: Int64) {
        sim.world.faults.rules.append(LinkFault(between: [a, b], window: t(from)..<t(to), effect: .partition))
    }

    @Test func aRegistrationLostToAPartitionIsRetriedWithBackOff() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios, client: .recommended)
        partition(sim, "bob-iphone", TutorialBackend.name, from: 2, to: 100)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        sim.run()
        // The create-id call goes unanswered for 60 s, then is retried 2 s later, after the partition.
        let retries = sim.events("app.retry", on: "bob-iphone")
        #expect(retries.first?[.operation] == "create-id")
        #expect(phone.storage[Device.registrationIDKey] == "76592028274533430-4765052952699024478-2")
        #expect(sim.events("app.registered", on: "bob-iphone").count == 1)
    }

    @Test func theTutorialAppRetriesNothing() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios, client: .tutorial)
        partition(sim, "bob-iphone", TutorialBackend.name, from: 2, to: 100)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        sim.run()
        #expect(sim.events("app.retry", on: "bob-iphone").isEmpty)
        #expect(phone.storage[Device.registrationIDKey] == nil)
    }

    @Test func aLostLogoutIsRetriedWithTheOldCredentials() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios, client: .recommended)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        partition(sim, "bob-iphone", TutorialBackend.name, from: 10, to: 80)
        sim.at(t(20), "log out") { phone.logout() }
        sim.run()
        let deletes = sim.backendRequests(from: phone).filter { $0.method == "DELETE" }
        #expect(deletes.count == 2)   // the first was lost in the partition
        #expect(sim.events("app.retry", on: "bob-iphone").first?[.operation] == "unregister")
        #expect(deletes.first?.headers["Authorization"]?.hasPrefix("Basic ") == true)
        #expect(deletes.first?.headers["Authorization"] != "Basic ")
        #expect(sim.hub.liveRegistrations(tag: "username:bob", now: sim.world.now) == 0)
    }

    @Test func aFailedTokenFetchIsAskedForAgain() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-pixel", .android, client: .recommended)
        partition(sim, "bob-pixel", "fcm", from: 0, to: 40)
        sim.at(t(1), "install") { phone.install() }
        sim.run()
        #expect(sim.events("device.handle-failed", on: "bob-pixel").count >= 1)
        #expect(phone.handle != nil)
    }

    @Test func everyStartRegistersAgainWhileLoggedIn() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios, client: .recommended)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        sim.at(t(30), "relaunch") { phone.launch() }
        sim.run()
        #expect(phone.calls.map(\.operation) == [.createID, .register, .register])
    }

    @Test func oneRegistrationAtATime() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios, client: .recommended)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        // A start right after the login: its registration waits for the first and then upserts the same id.
        sim.at(t(2) + .milliseconds(1), "relaunch") { phone.launch() }
        sim.run()
        #expect(phone.calls.map(\.operation) == [.createID, .register, .register])
        #expect(sim.hub.liveRegistrations(tag: "username:bob", now: sim.world.now) == 1)
    }

    /// Exploration found it (seed 3933 of the hardened sweep without faults): a logout one second
    /// after the login, while the registration was still on its way, left it on the hub.
    @Test(arguments: [Int64(300), 500, 900, 1_500, 2_500])
    func aLogoutDuringTheRegistrationLeavesNoRegistration(logoutAfterMilliseconds: Int64) {
        let sim = Simulation(seed: 3)
        sim.world.faults.latencyMin = .milliseconds(5)
        sim.world.faults.latencyMax = .milliseconds(400)
        let phone = sim.addDevice("alice-ios", .ios, client: .recommended)
        sim.installAndLogIn(phone, as: "alice", at: t(1))
        sim.at(t(2) + .milliseconds(logoutAfterMilliseconds), "log out") { phone.logout() }
        sim.run()
        #expect(sim.hub.liveRegistrations(tag: "username:alice", now: sim.world.now) == 0)
    }
}
