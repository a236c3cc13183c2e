import PushSimKernel
import PushSimNetwork

/// The tutorial app's client logic, as written (NH-IOS; the tutorial's steps 3 and 4):
/// registration by ``TutorialRegisterClient`` (the stored id reused after a 410: defect a; the
/// iOS token taken from `[deviceToken description]`: defect h); a handle only enables the Log In
/// button; logout is one `DELETE`, never retried; the message is sent wrapped in quotes without
/// escaping (`"\"%@\""`: defect d); data messages are shown whoever is logged in; backups carry
/// the stored registration id; nothing is retried.
public final class TutorialClientLogic: AppClientLogic {
    public init() {}

    public func register(on device: Device, handle: String) {
        TutorialRegisterClient(device: device).register(handle: handle, retry: true)
    }

    public func handleReceived(on device: Device, changed: Bool) {}

    public func logout(on device: Device, registrationID: String?, forget: () -> Void) {
        if let id = registrationID { device.callBackend(.unregister, "DELETE", "/api/register/\(id)") { _ in } }
        forget()
    }

    public func messageBody(_ message: String) -> String { "\"" + message + "\"" }
}
