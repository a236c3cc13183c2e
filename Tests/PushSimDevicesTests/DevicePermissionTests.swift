import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// Notification permission on the device: the push arrives (200), only what the user sees changes.
@Suite struct DevicePermissionTests {
    /// One device of `platform` (OS `os`), `before` run before the install at 1 s and `after`
    /// after it (at 2 s), then `payload` pushed at 5 s.
    private func deliver(_ payload: String, to platform: DevicePlatform, os: Int? = nil, headers: [(String, String)] = [],
                         before: ((Device) -> Void)? = nil, after: ((Device) -> Void)? = nil) -> (Simulation, Device) {
        let sim = Simulation(seed: 1)
        let device = sim.addDevice("dev", platform, osVersion: os)
        if let before { sim.at(t(0), "before") { before(device) } }
        sim.at(t(1), "install") { device.install() }
        if let after { sim.at(t(2), "after") { after(device) } }
        sim.push(payload, to: device, headers: headers, at: t(5))
        sim.run()
        return (sim, device)
    }

    @Test func aDeniedIPhoneTakesThePushButShowsNoAlertNorBadge() {
        let (sim, phone) = deliver(#"{"aps":{"alert":"Hi","badge":4}}"#, to: .ios, after: { $0.denyNotifications() })
        #expect(phone.inbox.isEmpty)
        #expect(phone.badge == nil)
        #expect(phone.suppressed.map(\.text) == ["Hi"])
        #expect(sim.events("device.push-received", on: "dev").count == 1)
        let event = sim.events("notification.suppressed", on: "dev").first
        #expect(event?[.reason]?.description.contains("UNAuthorizationStatus: denied") == true)
    }

    @Test func aDeniedIPhoneStillWakesForABackgroundPush() {
        let (sim, phone) = deliver(#"{"aps":{"content-available":1}}"#, to: .ios, headers: [("apns-push-type", "background")],
                                   after: { $0.denyNotifications() })
        #expect(sim.events("app.woken", on: "dev").count == 1)
        #expect(phone.suppressed.isEmpty)
    }

    @Test func provisionalGoesQuietlyWithoutSound() {
        let (sim, phone) = deliver(#"{"aps":{"alert":"Psst","sound":"default"}}"#, to: .ios, before: { $0.allowNotificationsProvisionally() })
        #expect(phone.notificationSettings.status == .provisional)
        #expect(phone.inbox.map(\.isQuiet) == [true])
        #expect(phone.inbox.first?.sound == nil)
        #expect(sim.events("notification.shown", on: "dev").first?[.delivery] == "quiet")
    }

    @Test func provisionalAfterTheUserChoseChangesNothing() {
        let (sim, phone) = deliver(#"{"aps":{"alert":"Hi"}}"#, to: .ios, after: { $0.allowNotificationsProvisionally() })
        #expect(phone.notificationSettings.status == .authorized)
        #expect(sim.events("device.ignored", on: "dev").first?[.why]?.description.contains("already chose") == true)
        #expect(phone.inbox.map(\.isQuiet) == [false])
    }

    @Test(arguments: [(13, true), (12, false)])
    func androidAsksFrom13(os: Int, suppressed: Bool) {
        let (_, phone) = deliver(#"{"notification":{"body":"Hi"}}"#, to: .android, os: os, before: { $0.denyNotifications() })
        #expect(phone.suppressed.count == (suppressed ? 1 : 0))
        #expect(phone.inbox.count == (suppressed ? 0 : 1))
    }

    @Test func aDataMessageStillReachesTheAppWhoseNotificationIsSuppressed() {
        let (_, phone) = deliver(#"{"data":{"message":"Score"}}"#, to: .android, after: { $0.denyNotifications() })
        #expect(phone.suppressed.first?.reason.hasPrefix("onMessageReceived ran") == true)
    }

    @Test func aDisabledChannelKeepsOnlyItsOwnOff() {
        let (_, phone) = deliver(#"{"notification":{"body":"Sale"}}"#, to: .android,
                                 after: { $0.setNotificationChannel(Device.fallbackChannel, enabled: false) })
        #expect(phone.suppressed.first?.reason.contains("channel \"fcm_fallback_notification_channel\"") == true)
        #expect(phone.notificationSettings.disabledChannels == [Device.fallbackChannel])
    }

    @Test func channelsAreAndroid8sAndLater() {
        let (sim, phone) = deliver(#"{"notification":{"body":"Hi"}}"#, to: .android, os: 7,
                                   after: { $0.setNotificationChannel("x", enabled: false) })
        #expect(phone.inbox.count == 1)
        #expect(sim.events("device.ignored", on: "dev").first?[.why]?.description.contains("Android 8") == true)
    }

    @Test func windowsToastsOffButRawStillReachesTheApp() {
        let (sim, pc) = deliver("sync", to: .windows, headers: [("X-WNS-Type", "wns/raw")], after: { $0.denyNotifications() })
        #expect(sim.events("app.data-received", on: "dev").count == 1)
        #expect(pc.suppressed.isEmpty)
        let (_, toasted) = deliver("<toast><visual><binding template=\"ToastText01\"><text>Hi</text></binding></visual></toast>", to: .windows,
                                   after: { $0.denyNotifications() })
        #expect(toasted.suppressed.map(\.text) == ["Hi"])
    }

    /// An uninstall forgets the permission; the next install asks again and the user answers as before.
    @Test func aReinstallAsksAgain() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("dev", .ios)
        sim.at(t(1), "install") { phone.install() }
        sim.at(t(2), "deny") { phone.denyNotifications() }
        sim.at(t(3), "uninstall") { phone.uninstall() }
        sim.run()
        #expect(phone.notificationSettings.status == .notDetermined)
        sim.at(t(4), "install") { phone.install() }
        sim.run()
        #expect(phone.notificationSettings.status == .denied)
    }
}
