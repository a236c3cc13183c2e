import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// What a device shows for a payload its push service hands it, per platform.
@Suite("Device display")
struct DeviceDisplayTests {
    /// Installs one device of `platform`, pushes `payload` to it at 5 s, and returns the run.
    private func deliver(_ payload: String, to platform: DevicePlatform, headers: [(String, String)] = [])
        -> (Simulation, Device) {
        let sim = Simulation(seed: 1)
        let device = sim.addDevice("dev", platform)
        sim.at(t(1), "install") { device.install() }
        sim.push(payload, to: device, headers: headers, at: t(5))
        sim.run()
        return (sim, device)
    }

    // MARK: iOS

    @Test func iOSShowsAnAlertString() {
        let (_, phone) = deliver(#"{"aps":{"alert":"Hello"}}"#, to: .ios)
        #expect(shown(phone) == ["Hello"])
        #expect(phone.inbox.first?.service == "apns")
        #expect(phone.inbox.first?.time == t(5) + .milliseconds(10))
    }

    @Test(arguments: [
        (#"{"aps":{"alert":{"title":"Game","body":"Your turn"}}}"#, "Game: Your turn"),
        (#"{"aps":{"alert":{"body":"Your turn"}}}"#, "Your turn"),
        (#"{"aps":{"alert":{"title":"Game"}}}"#, "Game"),
    ])
    func iOSShowsAnAlertDictionary(payload: String, text: String) {
        let (_, phone) = deliver(payload, to: .ios)
        #expect(shown(phone) == [text])
    }

    @Test func iOSBackgroundPushWakesTheAppWithoutShowing() {
        let (sim, phone) = deliver(#"{"aps":{"content-available":1},"sync":"inbox"}"#, to: .ios)
        #expect(phone.inbox.isEmpty)
        #expect(sim.events("app.woken", on: "dev").count == 1)
        #expect(sim.events("notification.dropped", on: "dev").isEmpty)
    }

    @Test(arguments: [#"{"aps":{"alert":"From alice: say "hi""}}"#, "plain text", #"{"alert":"no aps"}"#, #"{"aps":{"category":"x"}}"#])
    func iOSDiscardsWhatItCannotShow(payload: String) {
        let (sim, phone) = deliver(payload, to: .ios)
        #expect(phone.inbox.isEmpty)
        let dropped = sim.events("notification.dropped", on: "dev")
        #expect(dropped.count == 1)
        #expect(dropped.first?[.reason]?.description.hasPrefix("device discarded") == true)
    }

    // MARK: Android

    @Test func androidShowsDataMessage() {
        let (_, android) = deliver(#"{"token":"t","data":{"message":"From alice: hi"}}"#, to: .android)
        #expect(shown(android) == ["From alice: hi"])
        #expect(android.inbox.first?.service == "fcm")
    }

    @Test(arguments: [
        (#"{"notification":{"title":"Sale","body":"Half price"}}"#, "Sale: Half price"),
        (#"{"notification":{"body":"Half price"}}"#, "Half price"),
        // Bug: `android.notification` was not read, so a message with only that (as async-firebase's
        // AndroidConfig.build writes one) showed nothing; its title and body override `notification`'s (F-MSG).
        (#"{"android":{"notification":{"title":"Sale","body":"Half price"}}}"#, "Sale: Half price"),
        (#"{"notification":{"title":"Sale","body":"Half price"},"android":{"notification":{"body":"Today only"}}}"#, "Sale: Today only"),
        (#"{"notification":{"body":"Half price"},"android":{"notification":{"title":"Sale"}}}"#, "Sale: Half price"),
    ])
    func androidShowsNotificationBody(payload: String, text: String) {
        let (_, android) = deliver(payload, to: .android)
        #expect(shown(android) == [text])
    }

    @Test func androidPrefersDataMessageOverNotification() {
        let (_, android) = deliver(#"{"notification":{"body":"system"},"data":{"message":"app"}}"#, to: .android)
        #expect(shown(android) == ["app"])
    }

    @Test func androidDataWithoutMessageIsHandedToTheAppUnshown() {
        let (sim, android) = deliver(#"{"data":{"score":"3-1"}}"#, to: .android)
        #expect(android.inbox.isEmpty)
        #expect(sim.events("app.data-received", on: "dev").count == 1)
    }

    @Test func androidDiscardsNonJSON() {
        let (sim, android) = deliver("not json", to: .android)
        #expect(android.inbox.isEmpty)
        #expect(sim.events("notification.dropped", on: "dev").count == 1)
    }

    // MARK: Windows

    @Test func windowsShowsToastText() {
        let toast = #"<toast><visual><binding template="ToastText02"><text id="1">Hello</text><text id="2">there</text></binding></visual></toast>"#
        let (_, pc) = deliver(toast, to: .windows, headers: [("X-WNS-Type", "wns/toast")])
        #expect(shown(pc) == ["Hello there"])
        #expect(pc.inbox.first?.service == "wns")
    }

    @Test func windowsTileUpdateIsNotShown() {
        let tile = #"<tile><visual><binding template="TileSmall"><text>7</text></binding></visual></tile>"#
        let (sim, pc) = deliver(tile, to: .windows, headers: [("X-WNS-Type", "wns/tile")])
        #expect(pc.inbox.isEmpty)
        #expect(sim.events("app.updated", on: "dev").first?[.type] == "wns/tile")
    }

    @Test(arguments: ["<toast><visual><text>a < b</text></visual></toast>", "<toast><visual></visual></toast>"])
    func windowsDiscardsABrokenOrEmptyToast(toast: String) {
        let (sim, pc) = deliver(toast, to: .windows, headers: [("X-WNS-Type", "wns/toast")])
        #expect(pc.inbox.isEmpty)
        #expect(sim.events("notification.dropped", on: "dev").count == 1)
    }

    // MARK: Handles

    @Test func pushForAnotherHandleIsRefusedWith410() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("dev", .ios)
        sim.at(t(1), "install") { phone.install() }
        var status: Int?
        sim.at(t(5), "push with a wrong token") { [world = sim.world] in
            world.pushToDevice(service: "apns", device: "dev", handle: String(repeating: "ab", count: 32), app: "app",
                               headers: [], payload: Array(#"{"aps":{"alert":"x"}}"#.utf8)) { status = $0 }
        }
        sim.run()
        #expect(status == 410)
        #expect(phone.inbox.isEmpty)
        #expect(sim.events("device.push-refused", on: "dev").count == 1)
    }
}
