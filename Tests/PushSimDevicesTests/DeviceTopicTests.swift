import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// An Android app subscribes its own token to FCM topics from the device (issue 44 item 2).
@Suite struct DeviceTopicTests {
    /// Asked at install time, before the token came, the subscription waits for it; then FCM has
    /// the token on the topic, and unsubscribing takes it off.
    @Test func anAndroidAppSubscribesItsTokenOnceItHasOne() {
        let sim = Simulation(seed: 3)
        let phone = sim.addDevice("ann-pixel", .android)
        var afterSubscribe: [String] = [], afterUnsubscribe: [String] = []
        sim.at(t(1), "install and subscribe") { phone.install(); phone.subscribe(toTopic: "/topics/news") }
        sim.at(t(2), "look") { afterSubscribe = sim.fcm.topics(of: phone.handle ?? "").map(\.topic) }
        sim.at(t(3), "unsubscribe") { phone.unsubscribe(fromTopic: "news") }
        sim.at(t(4), "look") { afterUnsubscribe = sim.fcm.topics(of: phone.handle ?? "").map(\.topic) }
        sim.run()
        #expect(afterSubscribe == ["news"])
        #expect(afterUnsubscribe.isEmpty)
        #expect(sim.world.trace.events.filter { $0.kind == .deviceTopic }.count == 2)
    }

    @Test func otherPlatformsAndBadNamesAreIgnoredWithTheReason() {
        let sim = Simulation(seed: 3)
        let iphone = sim.addDevice("bob-iphone", .ios), phone = sim.addDevice("ann-pixel", .android)
        sim.at(t(1), "install") { iphone.install(); phone.install() }
        sim.at(t(2), "subscribe") { iphone.subscribe(toTopic: "news"); phone.subscribe(toTopic: "bad name") }
        sim.run()
        let reasons = sim.world.trace.events.filter { $0.kind == .deviceIgnored }.compactMap { $0[.why]?.description }
        #expect(reasons == ["topics are FCM's: only an Android app subscribes to one",
                            "the Firebase SDK refuses the name: it must match [a-zA-Z0-9-_.~%]{1,900}"])
        #expect(sim.fcm.subscriberCount(of: "news", project: sim.identity.fcmProjectID) == 0)
    }
}
