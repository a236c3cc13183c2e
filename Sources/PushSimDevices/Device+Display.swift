import PushSimKernel
import PushSimNetwork

extension Device {
    /// What the OS and app do with a push that reached them: the platform's display
    /// (``DevicePlatformProfile``), one file each: `Device+DisplayIOS.swift` (APNs alerts, badges,
    /// sounds, background pushes), `Device+DisplayAndroid.swift` (FCM data and notification
    /// messages), `Device+DisplayWindows.swift` (WNS toasts, badges, tiles).
    func present(_ request: HTTPRequest) {
        platform.profile.present(self, request, request.headers[DeviceChannel.serviceHeader] ?? "?")
    }

    /// Records that the device dropped a push it could not show, and why.
    func discard(_ service: String, _ why: String) {
        record(.notificationDropped, [.service: .string(service), .reason: "device discarded it: \(why)"])
    }
}
