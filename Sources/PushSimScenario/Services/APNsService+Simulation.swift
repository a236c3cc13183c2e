import PushSimCrypto
import PushSimNetwork
import PushSimServices
import PushSimHub

/// APNs in a simulation: the identity's team key, and the hub's token-based credential for it.
extension APNsService: SimulatedPushService {
    /// The sample app's Apple team key: `PSIMKEY001` of team `PSIMTEAM01`, its P-256 key derived
    /// from a fixed seed (`DerivedKeyMemo/sampleAPNsKeySeed`), so every run has the same one.
    static let defaultAccount = APNsSigningKey(keyID: "PSIMKEY001", teamID: "PSIMTEAM01",
                                               privateKey: DerivedKeyMemo.p256Key(derivedFrom: DerivedKeyMemo.sampleAPNsKeySeed))
    /// A key Apple does not have for the sample key id (`DerivedKeyMemo/wrongAPNsKeySeed`).
    static let wrongKey = DerivedKeyMemo.p256Key(derivedFrom: DerivedKeyMemo.wrongAPNsKeySeed)

    /// The fake with the identity's signing key, the options' 410 report delay, and the app's
    /// Broadcast capability as the options say.
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> APNsService {
        var configuration = APNsConfiguration(keys: [identity.apnsKey], unregisteredReportDelay: options.apnsUnregisteredReportDelay)
        if !options.apnsBroadcastEnabled { configuration.appsWithoutBroadcast = [identity.app.bundleID] }
        return APNsService(world: world, configuration: configuration)
    }

    /// The hub signs provider tokens with the identity's key and sends to the app's bundle id; with
    /// `wrongKey`, under the same key id and team, with a key APNs does not have (its tokens do not
    /// verify: 403 `InvalidProviderToken`). An identity whose key has no private half gives the hub
    /// no APNs credential.
    static func giveHubCredential(from identity: SimulationIdentity, wrongKey: Bool, to hub: inout HubConfiguration) {
        let key = identity.apnsKey
        guard let privateKey = wrongKey ? Self.wrongKey : key.privateKey else { return }
        hub.apns = APNsCredential(keyID: key.keyID, teamID: key.teamID, privateKey: privateKey, bundleID: identity.app.bundleID)
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
}
