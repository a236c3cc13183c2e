import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// An iOS app with the Firebase Messaging SDK (issue 44 item 3): it gets its APNs token, then an
/// FCM token bound to it, and a send to the FCM token reaches it through APNs.
@Suite struct DeviceFirebaseIOSTests {
    @Test func theAppGetsAnFCMTokenBoundToItsAPNsToken() throws {
        let sim = Simulation(seed: 5)
        let iphone = sim.addDevice("ann-iphone", .ios, firebase: true)
        let plain = sim.addDevice("bob-iphone", .ios)
        sim.at(t(1), "install") { iphone.install(); plain.install() }
        sim.run()
        let apnsToken = try #require(iphone.handle)
        let fcmToken = try #require(iphone.fcmToken)
        #expect(iphone.usesFirebaseMessaging && iphone.firebaseInstallationID != nil)
        #expect(sim.fake(FCMService.self).apnsBinding(of: fcmToken) == FCMAPNsBinding(apnsToken: apnsToken, sandbox: false, bundleID: "com.pushsim.notifyusers"))
        #expect(plain.fcmToken == nil && plain.firebaseInstallationID == nil)
    }

    @Test func aNewAPNsTokenGetsANewFCMTokenAndUninstallKeepsTheLastOne() throws {
        let sim = Simulation(seed: 5)
        let iphone = sim.addDevice("ann-iphone", .ios, firebase: true)
        var tokens: [String?] = []
        sim.at(t(1), "install") { iphone.install() }
        sim.at(t(2), "look") { tokens.append(iphone.fcmToken) }
        sim.at(t(3), "refresh") { iphone.refreshHandle() }
        sim.at(t(4), "look") { tokens.append(iphone.fcmToken) }
        sim.at(t(5), "uninstall") { iphone.uninstall() }
        sim.run()
        #expect(tokens[0] != nil && tokens[1] != nil && tokens[0] != tokens[1])
        #expect(iphone.fcmToken == nil && iphone.lastFCMToken == tokens[1])
    }

    @Test func firebaseIsIgnoredOnAndroid() {
        let sim = Simulation(seed: 5)
        let phone = sim.addDevice("ann-pixel", .android, firebase: true)
        sim.at(t(1), "install") { phone.install() }
        sim.run()
        #expect(!phone.usesFirebaseMessaging && phone.fcmToken == nil && phone.lastFCMToken == phone.handle)
    }
}
