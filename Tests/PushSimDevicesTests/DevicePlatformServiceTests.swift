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
}
