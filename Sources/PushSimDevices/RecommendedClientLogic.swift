import PushSimKernel
import PushSimNetwork

/// The client logic Microsoft's guidance recommends (NH-DN743807), the tutorial's defects fixed:
/// - registration by `RecommendedRegisterClient`, one at a time (two at once could each create
///   an id, and the hub would hold two registrations for the phone: each notification shown twice);
/// - it registers again at every start while the user is logged in, changed handle or not:
///   handles change (A-REG, F-TOK, W-OVR), registrations expire on the hub, and a registration
///   lost to a fault is repaired at the next start;
/// - logout keeps the old credentials for one call as a pending unregistration in storage and
///   retries it (`AppRetry`) on a transient failure, at each start and when the network comes
///   back, until the backend has answered: a lost `DELETE` would leave the registration on the
///   hub, and the phone would go on showing the old user's notifications;
/// - a handle that does not come is asked for again after the `AppRetry` delays;
/// - the message is a JSON string; no data message is shown while nobody is logged in (one sent
///   just before the logout's unregistration got through is for the user who left);
/// - the registration id stays out of backups (iOS's `isExcludedFromBackup`, Android's Auto
///   Backup rules): a registration belongs to one device's handle.
///
/// Subclass it to change one decision and keep the rest (the example package's `MyApp` does).
open class RecommendedClientLogic: AppClientLogic {
    /// The recommended logic; it keeps no state of its own (what it needs is on the device).
    public init() {}

    /// Registers through `RecommendedRegisterClient`, one registration at a time: a request that
    /// comes while one runs is remembered, and one more registration runs after it.
    open func register(on device: Device, handle: String) {
        guard !device.isRegistering else { device.registerAgain = true; return }
        device.isRegistering = true
        RecommendedRegisterClient(device: device).register(handle: handle, restartsLeft: 1) { [device] in
            device.isRegistering = false
            if device.registerAgain { device.registerAgain = false; device.register() }
        }
    }

    /// Registers again whenever a user is logged in, whether the handle changed or not.
    open func handleReceived(on device: Device, changed: Bool) {
        if device.authorization != nil { device.register() }
    }

    /// Puts the stored id and the credentials aside as a pending unregistration, calls `forget`,
    /// and sends the `DELETE` (retried per `AppRetry.unregistrationDelays`). With no stored id
    /// it only calls `forget`.
    open func logout(on device: Device, registrationID: String?, forget: () -> Void) {
        guard let id = registrationID else { return forget() }
        device.storage[Device.pendingUnregistrationKey] = id + " " + (device.authorization ?? "")
        forget()
        Self.unregisterPending(on: device)
    }

    /// Sends the `DELETE` of a pending unregistration, if a logout left one.
    open func resumed(on device: Device) { Self.unregisterPending(on: device) }

    /// The `AppRetry.delays`, one per failed attempt; nil once they run out.
    open func handleRetryDelay(after attempt: Int) -> VirtualDuration? {
        attempt < AppRetry.delays.count ? AppRetry.delays[attempt] : nil
    }

    /// False: a data message that comes while nobody is logged in is for the user who left.
    open var showsDataMessagesWhileLoggedOut: Bool { false }

    /// The message as a JSON string.
    open func messageBody(_ message: String) -> String { jsonString(message) }

    /// The backup without the registration id and without a pending unregistration.
    open func restoredStorage(_ backup: [String: String]) -> [String: String] {
        var storage = backup
        storage[Device.registrationIDKey] = nil
        storage[Device.pendingUnregistrationKey] = nil
        return storage
    }

    /// The pending unregistration, if any: sends its `DELETE` (retried per
    /// ``AppRetry.unregistrationDelays``) and forgets it once the backend has answered anything
    /// but a passing failure.
    static func unregisterPending(on device: Device) {
        guard let pending = device.storage[Device.pendingUnregistrationKey], let space = pending.firstIndex(of: " ") else { return }
        let id = String(pending[..<space]), auth = String(pending[pending.index(after: space)...])
        let installed = device.generation
        device.callBackendRetrying(.unregister, "DELETE", "/api/register/\(id)", authorization: auth, delays: AppRetry.unregistrationDelays,
                                   stillWanted: { [device] in installed == device.generation && device.storage[Device.pendingUnregistrationKey] == pending }) { [device] result in
            guard !AppRetry.isTransient(result), device.storage[Device.pendingUnregistrationKey] == pending else { return }
            device.storage[Device.pendingUnregistrationKey] = nil
        }
    }
}
