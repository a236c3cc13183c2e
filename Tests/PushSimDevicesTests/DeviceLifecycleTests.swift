import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// The OS side of a device: handles from the push service, install, uninstall, reinstall, login gating.
@Suite("Device lifecycle")
struct DeviceLifecycleTests {
    @Test func iPhoneGetsAnAPNsTokenOnInstall() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        sim.at(t(1), "install") { phone.install() }
        sim.run()
        let token = phone.handle ?? ""
        // 32 bytes as 64 lower-case hex digits, issued by APNs to this device.
        #expect(token.count == 64)
        #expect(token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(sim.apns.tokens[token]?.device == "bob-iphone")
        let received = sim.events("device.handle-received", on: "bob-iphone")
        #expect(received.count == 1)
        #expect(received.first?[.changed] == true)
        #expect(phone.installCount == 1 && phone.isAppInstalled)
    }

    @Test func androidGetsAnFCMTokenAndWindowsAChannelURI() {
        let sim = Simulation(seed: 1)
        let android = sim.addDevice("bob-android", .android)
        let pc = sim.addDevice("bob-pc", .windows)
        sim.at(t(1), "install") { android.install(); pc.install() }
        sim.run()
        #expect(android.handle?.contains(":APA91b") == true)
        #expect(sim.fcm.tokens[android.handle ?? ""]?.device == "bob-android")
        #expect(pc.handle?.hasPrefix("https://cloud.notify.windows.com/?token=") == true)
        #expect(sim.events("device.handle-received").map(\.host) == ["bob-android", "bob-pc"])
    }

    @Test func loginBeforeTheHandleArrivesIsIgnored() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        // Same instant as the install: the token is still on its way.
        sim.at(t(1), "install and log in at once") {
            phone.install()
            phone.login(user: "bob", password: "bob")
        }
        sim.run()
        let ignored = sim.events("app.ignored", on: "bob-iphone")
        #expect(ignored.count == 1)
        #expect(ignored.first?[.action] == "login")
        #expect(ignored.first?[.why]?.description.contains("handle") == true)
        #expect(phone.loggedInUser == nil)
        #expect(sim.backendRequests(from: phone).isEmpty)
        #expect(phone.handle != nil)
    }

    @Test func loginAfterTheHandleArrivesRegisters() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        sim.run()
        #expect(sim.events("app.ignored").isEmpty)
        #expect(phone.loggedInUser == "bob")
        #expect(phone.calls.map(\.operation) == [.createID, .register])
        #expect(phone.calls.map(\.status) == [200, 200])
        #expect(sim.events("app.registered", on: "bob-iphone").count == 1)
    }

    @Test func loginWithoutTheAppIsIgnored() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        sim.at(t(1), "log in") { phone.login(user: "bob", password: "bob") }
        sim.run()
        #expect(sim.events("app.ignored", on: "bob-iphone").first?[.why]?.description.contains("not installed") == true)
        #expect(sim.world.journal.entries.isEmpty)
    }

    @Test func uninstallClearsStorageAndLogin() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        sim.installAndLogIn(phone, as: "bob", at: t(1))
        var storedBefore: [String: String] = [:]
        sim.at(t(10), "uninstall") {
            storedBefore = phone.storage
            phone.uninstall()
        }
        sim.at(t(11), "send without the app") { phone.send("hi", to: "alice", via: [.apns]) }
        sim.run()
        #expect(storedBefore[Device.registrationIDKey] == "76592028274533430-4765052952699024478-2")
        #expect(phone.storage.isEmpty)
        #expect(phone.handle == nil && phone.loggedInUser == nil && !phone.isAppInstalled)
        #expect(sim.events("app.ignored", on: "bob-iphone").first?[.action] == "send")
        #expect(!phone.calls.contains { $0.operation == .send })
    }

    @Test func reinstallGetsANewTokenAndRelaunchKeepsIt() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        var tokens: [String] = []
        sim.at(t(1), "install") { phone.install() }
        sim.at(t(2), "relaunch") { tokens.append(phone.handle ?? ""); phone.launch() }
        sim.at(t(3), "uninstall") { tokens.append(phone.handle ?? ""); phone.uninstall() }
        sim.at(t(4), "reinstall") { phone.install() }
        sim.run()
        tokens.append(phone.handle ?? "")
        // A relaunch gets the same token; a new install a new one.
        #expect(tokens[0] == tokens[1])
        #expect(tokens[2] != tokens[0] && !tokens[2].isEmpty)
        #expect(phone.installCount == 2)
        #expect(sim.events("device.handle-received", on: "bob-iphone").map { $0[.changed] } == [true, false, true])
    }

    @Test func installingTwiceIsIgnored() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        sim.at(t(1), "install") { phone.install() }
        sim.at(t(2), "install again") { phone.install() }
        sim.run()
        #expect(phone.installCount == 1)
        #expect(sim.events("device.ignored", on: "bob-iphone").first?[.action] == "install")
    }
}
