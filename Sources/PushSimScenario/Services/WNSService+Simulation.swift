import PushSimNetwork
import PushSimServices
import PushSimHub

/// WNS in a simulation: the identity's Windows package, and the hub's Package SID credential for it.
extension WNSService: SimulatedPushService {
    /// The sample app's Package SID and client secret (W-OVR); its package family is the app's
    /// (``AppIdentity/windowsPackageFamily``).
    static let defaultAccount = WNSCredential(
        packageSID: "ms-app://s-1-15-2-2411820470-3261380829-1234567890-1234567890-1234567890-1234567890-123456789",
        secret: "wns-client-secret-stand-in")

    /// The fake with the identity's Package SID, secret and package family.
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> WNSService {
        let account = identity.wnsAccount
        return WNSService(world: world, apps: [WNSApp(packageSID: account.packageSID, secret: account.secret,
                                                      packageFamily: identity.app.windowsPackageFamily)])
    }

    /// The hub buys WNS tokens with the identity's Package SID and secret; with `wrongKey`, with
    /// a secret WNS does not have.
    static func giveHubCredential(from identity: SimulationIdentity, wrongKey: Bool, to hub: inout HubConfiguration) {
        var account = identity.wnsAccount
        if wrongKey { account.secret = "wrong-secret" }
        hub.wns = account
    }
}

extension SimulationIdentity {
    /// The Windows app's Package SID and secret: what the fake WNS accepts and the hub buys its
    /// access tokens with.
    public var wnsAccount: WNSCredential {
        get { account(WNSService.self) }
        set { setAccount(newValue, for: WNSService.self) }
    }
    /// The Windows app's Package SID (`ms-app://S-1-15-2-…`), which gets WNS tokens with ``wnsSecret`` (W-OVR).
    public var wnsPackageSID: String {
        get { wnsAccount.packageSID }
        set { wnsAccount.packageSID = newValue }
    }
    /// The Windows app's client secret.
    public var wnsSecret: String {
        get { wnsAccount.secret }
        set { wnsAccount.secret = newValue }
    }
}
