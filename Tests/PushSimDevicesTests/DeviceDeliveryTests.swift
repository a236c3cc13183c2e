import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// Devices on the receiving end of the whole chain: stale tokens, offline periods.
@Suite("Device delivery")
struct DeviceDeliveryTests {
    @Test func pushToAnOldInstallsTokenIsRefusedAndAPNsLearnsItIsGone() {
        let sim = Simulation(seed: 1)
        let alice = sim.addDevice("alice-iphone", .ios)
        let bob = sim.addDevice("bob-iphone", .ios)
        sim.installAndLogIn(alice, as: "alice", at: t(1))
        sim.installAndLogIn(bob, as: "bob", at: t(3))
        var oldToken = ""
        sim.at(t(10), "bob removes the app") { oldToken = bob.handle ?? ""; bob.uninstall() }
        sim.installAndLogIn(bob, as: "bob", at: t(11))
        sim.at(t(20), "send one") { alice.send("one", to: "bob", via: [.apns]) }
        sim.at(t(30), "send two") { alice.send("two", to: "bob", via: [.apns]) }
        sim.at(t(40), "send three") { alice.send("three", to: "bob", via: [.apns]) }
        sim.run()

        #expect(!oldToken.isEmpty && oldToken != bob.handle)
        // The tutorial client left the old registration behind (new handle, new id).
        #expect(sim.events("hub.registration-upserted").count == 3)
        // The device refused the old token's push once; APNs marked the token dead.
        let refused = sim.events("device.push-refused", on: "bob-iphone")
        #expect(refused.count == 1)
        #expect(refused.first?[.why]?.description.contains("earlier install") == true)
        #expect(sim.events("apns.token-invalidated").count == 1)
        // Sends to the old token: accepted (not yet known dead), then 410 Unregistered.
        let toOld = sim.world.journal.requests(to: "apns").filter { $0.request.path == "/3/device/\(oldToken)" }
        #expect(toOld.map { $0.result?.status } == [200, 410])
        let reason = toOld.last.flatMap { try? JSONParser.parse($0.result?.response?.body ?? []) }?["reason"]
        #expect(reason == "Unregistered")
        // The hub dropped the dead registration, so the third send goes to one token only.
        #expect(sim.events("hub.registration-deleted").count == 1)
        #expect(sim.hub.registrationCount == 2)
        #expect(shown(bob) == ["From alice: one", "From alice: two", "From alice: three"])
    }

    @Test func apnsKeepsTheLastNotificationForAnOfflineDevice() {
        let sim = Simulation(seed: 1)
        let alice = sim.addDevice("alice-iphone", .ios)
        let bob = sim.addDevice("bob-iphone", .ios)
        sim.installAndLogIn(alice, as: "alice", at: t(1))
        sim.installAndLogIn(bob, as: "bob", at: t(3))
        sim.at(t(10), "bob goes offline") { bob.goOffline() }
        sim.at(t(11), "send one") { alice.send("one", to: "bob", via: [.apns]) }
        sim.at(t(12), "send two") { alice.send("two", to: "bob", via: [.apns]) }
        sim.at(t(60), "bob comes back") { bob.goOnline() }
        sim.run()
        #expect(shown(bob) == ["From alice: two"])
        #expect(bob.inbox.first.map { $0.time >= t(60) } == true)
        #expect(sim.events("apns.stored").count == 2)
        #expect(sim.events("notification.dropped", on: "apns").first?[.reason]?.description.contains("replaced") == true)
    }

    @Test func wnsToastForAnOfflineDeviceIsNeverShown() {
        let sim = Simulation(seed: 1)
        let alice = sim.addDevice("alice-iphone", .ios)
        let pc = sim.addDevice("bob-pc", .windows)
        sim.installAndLogIn(alice, as: "alice", at: t(1))
        sim.installAndLogIn(pc, as: "bob", at: t(3))
        sim.at(t(10), "pc goes offline") { pc.goOffline() }
        sim.at(t(11), "send") { alice.send("while you were out", to: "bob", via: [.wns]) }
        sim.at(t(60), "pc comes back") { pc.goOnline() }
        sim.at(t(70), "send again") { alice.send("welcome back", to: "bob", via: [.wns]) }
        sim.run()
        #expect(alice.calls.filter { $0.operation == .send }.map(\.status) == [200, 200])
        #expect(shown(pc) == ["From alice: welcome back"])
        #expect(sim.events("notification.dropped", on: "wns").first?[.reason]?.description.contains("not cached") == true)
    }

    @Test func fcmKeepsEveryMessageForAnOfflineDevice() {
        let sim = Simulation(seed: 1)
        let alice = sim.addDevice("alice-iphone", .ios)
        let android = sim.addDevice("bob-android", .android)
        sim.installAndLogIn(alice, as: "alice", at: t(1))
        sim.installAndLogIn(android, as: "bob", at: t(3))
        sim.at(t(10), "offline") { android.goOffline() }
        sim.at(t(11), "send one") { alice.send("one", to: "bob", via: [.fcm]) }
        sim.at(t(12), "send two") { alice.send("two", to: "bob", via: [.fcm]) }
        sim.at(t(60), "online") { android.goOnline() }
        sim.run()
        #expect(shown(android) == ["From alice: one", "From alice: two"])
        #expect(android.inbox.allSatisfy { $0.time >= t(60) && $0.service == "fcm" })
    }
}
