import PushSimCrypto
import PushSimNetwork
import PushSimServices
import PushSimHub

/// FCM in a simulation: the identity's Firebase project, and the hub's service-account credential for it.
extension FCMService: SimulatedPushService {
    /// The sample app's Firebase project and the service account allowed to send to it, its RSA
    /// key derived from a fixed seed (`DerivedKeyMemo/sampleServiceAccountSeed`, kept already
    /// made). The project's number, the Android app's sender id, is the app's (``AppIdentity/fcmSenderID``).
    static let defaultAccount = FCMCredential(projectID: "pushsim-notifyusers",
                                              serviceAccount: "hub@pushsim-notifyusers.iam.gserviceaccount.com",
                                              privateKey: DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.sampleServiceAccountSeed))
    /// A key Google does not have for the sample service account (`DerivedKeyMemo/wrongServiceAccountSeed`).
    static let wrongKey = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.wrongServiceAccountSeed)

    /// The fake with the identity's project, sender id and service account (its public key).
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> FCMService {
        let account = identity.fcmAccount
        return FCMService(world: world, projects: [FCMProject(projectID: account.projectID, projectNumber: identity.fcmSenderID,
                                                              serviceAccount: account.serviceAccount,
                                                              serviceAccountKey: account.privateKey.publicKey)])
    }

    /// The hub buys OAuth tokens with the identity's service account and sends to its project; with
    /// `wrongKey` it signs its assertions with a key Google does not have for the account (400
    /// `invalid_grant`, "Invalid JWT Signature.").
    static func giveHubCredential(from identity: SimulationIdentity, wrongKey: Bool, to hub: inout HubConfiguration) {
        var account = identity.fcmAccount
        if wrongKey { account.privateKey = Self.wrongKey }
        hub.fcm = account
    }
}

extension SimulationIdentity {
    /// The Firebase project the fake FCM holds and the service account the hub signs its token
    /// requests as.
    public var fcmAccount: FCMCredential {
        get { account(FCMService.self) }
        set { setAccount(newValue, for: FCMService.self) }
    }
    /// The Firebase project id, in FCM v1 send URLs.
    public var fcmProjectID: String {
        get { fcmAccount.projectID }
        set { fcmAccount.projectID = newValue }
    }
    /// The Firebase project number, the Android app's sender id (the app's, ``AppIdentity/fcmSenderID``).
    public var fcmSenderID: String {
        get { app.fcmSenderID }
        set { app.fcmSenderID = newValue }
    }
    /// The service account allowed to send to the Firebase project.
    public var fcmServiceAccount: String {
        get { fcmAccount.serviceAccount }
        set { fcmAccount.serviceAccount = newValue }
    }
    /// The service account's private key: the hub signs with it, the fake FCM verifies with its public half.
    public var fcmServiceAccountKey: RSAPrivateKey {
        get { fcmAccount.privateKey }
        set { fcmAccount.privateKey = newValue }
    }
}
