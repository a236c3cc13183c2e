import PushSimKernel
import PushSimNetwork

/// The app's client logic: what the app on a simulated device does when the user or the OS acts.
///
/// PushSim ships two, chosen in scenarios with `client tutorial|recommended`:
/// ``TutorialClientLogic`` (the tutorial's code as written, defects included) and
/// ``RecommendedClientLogic`` (what Microsoft's guidance recommends instead). Write your own to
/// test your app's logic against the fakes: `Device(…, logic: MyLogic())` or
/// `simulation.addDevice(…, logic: MyLogic())`. A logic acts through the device's public API:
/// ``Device/callBackend(_:_:_:query:contentType:body:authorization:then:)`` to reach the backend,
/// ``Device/storage`` for what the app keeps, ``Device/authorization`` for the logged-in user's
/// Basic credentials, and ``Device/record(_:_:)`` to trace what it decides. It runs inside the
/// world, one event at a time: it must not block or keep time of its own (schedule with
/// `Device.world`).
public protocol AppClientLogic: AnyObject {
    /// Registers `handle` for the logged-in user (the user logged in, or asked to register again
    /// with other tags). Called only with the app installed, a handle and credentials.
    func register(on device: Device, handle: String)
    /// The OS handed the app a handle: at each start, and when it rotates (`changed`).
    func handleReceived(on device: Device, changed: Bool)
    /// The user logs out. `registrationID` is the stored one (nil when there is none);
    /// `forget` clears the stored id, the credentials and the requested tags, and must be called.
    func logout(on device: Device, registrationID: String?, forget: () -> Void)
    /// The app starts (before it asks for a handle), or the network comes back: finish work left over.
    func resumed(on device: Device)
    /// How long to wait before asking the OS for a handle again after failed attempt `attempt`
    /// (from 0); nil waits for the next start.
    func handleRetryDelay(after attempt: Int) -> VirtualDuration?
    /// The body of `POST /api/notifications` for `message`.
    func messageBody(_ message: String) -> String
    /// Whether an FCM data message is shown while nobody is logged in.
    var showsDataMessagesWhileLoggedOut: Bool { get }
    /// What the app's storage is when it is restored from `backup` on another device.
    func restoredStorage(_ backup: [String: String]) -> [String: String]
}

extension AppClientLogic {
    /// By default, nothing to finish.
    public func resumed(on device: Device) {}
    /// By default a handle that does not come is not asked for again before the next start.
    public func handleRetryDelay(after attempt: Int) -> VirtualDuration? { nil }
    /// The message as a JSON string (what the tutorial's backend reads with `[FromBody] string`).
    public func messageBody(_ message: String) -> String { jsonString(message) }
    /// By default a data message is shown whoever is logged in.
    public var showsDataMessagesWhileLoggedOut: Bool { true }
    /// By default the backup comes back whole.
    public func restoredStorage(_ backup: [String: String]) -> [String: String] { backup }
}

extension ClientFlavour {
    /// The built-in logic of this flavour.
    public func makeLogic() -> AppClientLogic {
        switch self {
        case .tutorial: return TutorialClientLogic()
        case .recommended: return RecommendedClientLogic()
        }
    }
}
