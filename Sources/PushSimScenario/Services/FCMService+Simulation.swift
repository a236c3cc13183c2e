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

    /// The fake with the identity's project, sender id and service account (its public key), and
    /// the project's APNs auth key as the options say (``FCMAPNsKeyState``).
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> FCMService {
        let account = identity.fcmAccount
        var project = FCMProject(projectID: account.projectID, projectNumber: identity.fcmSenderID,
                                 serviceAccount: account.serviceAccount, serviceAccountKey: account.privateKey.publicKey)
        project.apnsAuthKey = options.fcmAPNsKey.key(for: identity)
        return FCMService(world: world, projects: [project])
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

/// What the Firebase project holds as its APNs auth key, which FCM relays sends to iOS app
/// instances with (`fcm apns key uploaded|missing|wrong-team`, the control API's
/// `POST /_pushsim/fcm/apns-key`; F-APNS-KEY).
public enum FCMAPNsKeyState: String, CaseIterable, Sendable {
    /// The identity's Apple team key (``SimulationIdentity/apnsKey``): relayed sends reach APNs and are taken.
    case uploaded
    /// No key: FCM answers relayed sends with 401 `THIRD_PARTY_AUTH_ERROR` without asking APNs.
    case missing
    /// The right key and key id entered with another team id (`WRONGTEAM1`): APNs refuses FCM's
    /// provider tokens with 403 `InvalidProviderToken`, and FCM answers 401 `THIRD_PARTY_AUTH_ERROR`.
    case wrongTeam = "wrong-team"

    /// The team id a `wrong-team` upload names.
    public static let wrongTeamID = "WRONGTEAM1"

    /// The key the project holds in this state, or nil.
    public func key(for identity: SimulationIdentity) -> APNsSigningKey? {
        let key = identity.apnsKey
        switch self {
        case .uploaded: return key.privateKey.map { APNsSigningKey(keyID: key.keyID, teamID: key.teamID, privateKey: $0) }
        case .missing: return nil
        case .wrongTeam: return key.privateKey.map { APNsSigningKey(keyID: key.keyID, teamID: Self.wrongTeamID, privateKey: $0) }
        }
    }
}
