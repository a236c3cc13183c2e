import PushSimKernel
import PushSimNetwork

/// The tutorial app's client logic, as written (NH-IOS; the tutorial's steps 3 and 4):
/// registration by `TutorialRegisterClient` (the stored id reused after a 410: defect a; the
/// iOS token taken from `[deviceToken description]`: defect h); a handle only enables the Log In
/// button; logout is one `DELETE`, never retried; the message is sent wrapped in quotes without
/// escaping (`"\"%@\""`: defect d); data messages are shown whoever is logged in; backups carry
/// the stored registration id; nothing is retried.
///
/// Subclass it to fix one defect and keep the others.
open class TutorialClientLogic: AppClientLogic {
    /// The tutorial's logic; it keeps no state of its own.
    public init() {}

    /// Registers through `TutorialRegisterClient`: on a 410 it runs the routine once more, with
    /// the same stored id (defect a).
    open func register(on device: Device, handle: String) {
        TutorialRegisterClient(device: device).register(handle: handle, retry: true)
    }

    /// Nothing: in the tutorial a handle only enables the Log In button.
    open func handleReceived(on device: Device, changed: Bool) {}

    /// Sends one `DELETE` for the stored id, answer ignored and never retried, then forgets.
    open func logout(on device: Device, registrationID: String?, forget: () -> Void) {
        if let id = registrationID { device.callBackend(.unregister, "DELETE", "/api/register/\(id)") { _ in } }
        forget()
    }

    /// The message between quotes, unescaped (`"\"%@\""`, defect d): a quote or backslash in
    /// it makes the body invalid JSON.
    open func messageBody(_ message: String) -> String { "\"" + message + "\"" }

    /// Nothing to do when the app comes back.
    open func resumed(on device: Device) {}

    /// A handle that does not come is not asked for again.
    open func handleRetryDelay(after attempt: Int) -> VirtualDuration? { nil }

    /// Data messages are shown whoever is logged in.
    open var showsDataMessagesWhileLoggedOut: Bool { true }

    /// Backups carry everything, the registration id too.
    open func restoredStorage(_ backup: [String: String]) -> [String: String] { backup }
}
