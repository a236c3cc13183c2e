import PushSimNetwork
import PushSimServices
import PushSimHub

/// APNs in a simulation: the identity's team key, and the hub's token-based credential for it.
extension APNsService: SimulatedPushService {
    /// The fake with the identity's signing key and the options' 410 report delay.
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> APNsService {
        APNsService(world: world, configuration: APNsConfiguration(
            keys: [APNsSigningKey(keyID: identity.apnsKeyID, teamID: identity.apnsTeamID, secret: identity.apnsKeySecret)],
            unregisteredReportDelay: options.apnsUnregisteredReportDelay))
    }

    /// The hub signs provider tokens with the identity's key and sends to the app's bundle id.
    static func giveHubCredential(from identity: SimulationIdentity, wrongSecret: Bool, to hub: inout HubConfiguration) {
        hub.apns = APNsCredential(keyID: identity.apnsKeyID, teamID: identity.apnsTeamID,
                                  secret: wrongSecret ? "wrong-key" : identity.apnsKeySecret, bundleID: identity.app.bundleID)
    }
}
