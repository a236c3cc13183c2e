import PushSim

/// Your app's client logic: the recommended one, but it registers again only when the handle changed.
public final class MyApp: RecommendedClientLogic {
    public override func handleReceived(on device: Device, changed: Bool) { if changed && device.authorization != nil { device.register() } }
}
