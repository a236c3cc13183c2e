import PushSimNetwork
import PushSimServices
import PushSimHub

/// WNS in a simulation: the identity's Windows package, and the hub's Package SID credential for it.
extension WNSService: SimulatedPushService {
    /// The fake with the identity's Package SID, secret and package family.
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> WNSService {
        WNSService(world: world, apps: [WNSApp(packageSID: identity.wnsPackageSID, secret: identity.wnsSecret,
                                               packageFamily: identity.app.windowsPackageFamily)])
    }

    /// The hub buys WNS tokens with the identity's Package SID and secret.
    static func giveHubCredential(from identity: SimulationIdentity, wrongSecret: Bool, to hub: inout HubConfiguration) {
        hub.wns = WNSCredential(packageSID: identity.wnsPackageSID, secret: wrongSecret ? "wrong-secret" : identity.wnsSecret)
    }
}
