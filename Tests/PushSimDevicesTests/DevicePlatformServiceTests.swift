import Testing
import PushSimNetwork
import PushSimHub
@testable import PushSimDevices

/// A device platform names its push service through the descriptor, and the hub finds its own
/// platform from the service's native format: nothing between them is spelt out by hand.
@Suite struct DevicePlatformServiceTests {
    @Test func eachPlatformHasItsOwnServiceAndHubPlatform() {
        let services = DevicePlatform.allCases.map(\.service)
        #expect(services == PushServiceDescriptor.all)
        #expect(DevicePlatform.allCases.map(\.registrationPlatform) == ["apns", "fcm", "wns"])
        #expect(services.map { RegistrationPlatform(sendFormat: $0.hubFormat) } == [.apple, .fcmV1, .windows])
    }

    @Test func everyHubPlatformIsFoundByItsFormat() {
        for platform in RegistrationPlatform.allCases { #expect(RegistrationPlatform(sendFormat: platform.sendFormat) == platform) }
        #expect(RegistrationPlatform(sendFormat: "baidu") == nil)
    }

    /// Each platform's entry: default OS version, app id with its service, and the payload its OS
    /// shows by itself (the explorer's convergence sends), as they were spelt out before.
    @Test func eachPlatformHasOneEntryWithItsFacts() {
        #expect(DevicePlatform.allCases.map { Device.defaultOSVersion($0) } == [12, 14, 11])
        let app = AppIdentity(bundleID: "b", androidPackage: "p", fcmSenderID: "s", windowsPackageFamily: "w", backendHost: "h")
        #expect(DevicePlatform.allCases.map { app.pushService(on: $0).appID } == ["b", "p", "w"])
        #expect(DevicePlatform.allCases.map { app.pushService(on: $0).scope } == ["production", "s", ""])
        #expect(DevicePlatform.allCases.map { $0.profile.shownText.payload("hi") } == [
            #"{"aps":{"alert":"hi"}}"#, #"{"message":{"notification":{"body":"hi"}}}"#,
            #"<toast><visual><binding template="ToastText01"><text id="1">hi</text></binding></visual></toast>"#])
    }

    /// An app identity holds one link per platform; one left unset is the platform entry's
    /// sample-app link, and the three first platforms' named ids are those links.
    @Test func appIdentityHoldsOneLinkPerPlatform() {
        var app = AppIdentity(backendHost: "h")
        #expect(DevicePlatform.allCases.map { app[$0] } == DevicePlatform.allCases.map(\.profile.defaultAppLink))
        app[.android] = PlatformAppLink(appID: "p", scope: "s")
        #expect(app.androidPackage == "p" && app.fcmSenderID == "s")
        #expect(app[.ios] == DevicePlatform.ios.profile.defaultAppLink)
        #expect(app == AppIdentity(bundleID: app.bundleID, androidPackage: "p", fcmSenderID: "s",
                                   windowsPackageFamily: app.windowsPackageFamily, backendHost: "h"))
        #expect(app != AppIdentity(backendHost: "h"))
    }
}
