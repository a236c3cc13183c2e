import PushSimNetwork
import PushSimServices
import PushSimHub

/// APNs in a simulation: the identity's team key, and the hub's token-based credential for it.
extension APNsService: SimulatedPushService {
    /// The sample app's Apple team key: `PSIMKEY001` of team `PSIMTEAM01`.
    static let defaultAccount = APNsSigningKey(keyID: "PSIMKEY001", teamID: "PSIMTEAM01", secret: "apns-p8-stand-in")

    /// The fake with the identity's signing key and the options' 410 report delay.
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> APNsService {
        APNsService(world: world, configuration: APNsConfiguration(
            keys: [identity.apnsKey], unregisteredReportDelay: options.apnsUnregisteredReportDelay))
    }

    /// The hub signs provider tokens with the identity's key and sends to the app's bundle id.
    static func giveHubCredential(from identity: SimulationIdentity, wrongSecret: Bool, to hub: inout HubConfiguration) {
        let key = identity.apnsKey
        hub.apns = APNsCredential(keyID: key.keyID, teamID: key.teamID, secret: wrongSecret ? "wrong-key" : key.secret,
                                  bundleID: identity.app.bundleID)
    }
}

extension SimulationIdentity {
    /// The Apple signing key the fake APNs accepts and the hub signs provider tokens with.
    public var apnsKey: APNsSigningKey {
        get { account(APNsService.self) }
        set { setAccount(newValue, for: APNsService.self) }
    }
    /// The Apple signing key's id (the provider token's `kid`).
    public var apnsKeyID: String {
        get { apnsKey.keyID }
        set { apnsKey.keyID = newValue }
    }
    /// The Apple developer team id (the provider token's `iss`).
    public var apnsTeamID: String {
        get { apnsKey.teamID }
        set { apnsKey.teamID = newValue }
    }
    /// Stands in for the `.p8` private key.
    public var apnsKeySecret: String {
        get { apnsKey.secret }
        set { apnsKey.secret = newValue }
    }
}
