import PushSim

/// Your app's client logic: the recommended one, but it registers again only when the handle changed.
public final class MyApp: AppClientLogic {
    let recommended = RecommendedClientLogic()
    public init() {}
    public func register(on device: Device, handle: String) { recommended.register(on: device, handle: handle) }
    public func handleReceived(on device: Device, changed: Bool) { if changed && device.authorization != nil { device.register() } }
    public func logout(on device: Device, registrationID: String?, forget: () -> Void) { recommended.logout(on: device, registrationID: registrationID, forget: forget) }
}
