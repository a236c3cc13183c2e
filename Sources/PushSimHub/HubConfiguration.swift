import PushSimKernel

/// What the hub may do with a shared access key (Azure's SAS rule rights).
public enum HubRight: String, Sendable, CaseIterable {
    /// Listen: registration and installation management. Send: sends and their telemetry.
    /// Manage: PNS feedback, and implies the other two.
    case listen = "Listen", send = "Send", manage = "Manage"
}

/// A shared access policy: a key name, its key and its rights. Azure creates two by default:
/// `DefaultListenSharedAccessSignature` (Listen) and `DefaultFullSharedAccessSignature` (all).
public struct SharedAccessRule: Sendable, Equatable {
    /// The policy's name, the `skn` of the tokens it signs.
    public var keyName: String
    /// The key that signs the policy's tokens.
    public var key: String
    /// The claims its tokens grant.
    public var rights: [HubRight]
    /// A policy with `rights`.
    public init(keyName: String, key: String, rights: [HubRight]) {
        self.keyName = keyName
        self.key = key
        self.rights = rights
    }
}

/// The hub's APNs settings (token-based auth): key, team, app and endpoint.
public struct APNsCredential: Sendable, Equatable {
    /// The signing key's 10-character id, the provider token's `kid`.
    public var keyID: String
    /// The developer team id, the provider token's `iss`.
    public var teamID: String
    /// Stands in for the `.p8` key (see `SimulatedSignature`).
    public var secret: String
    /// The app's bundle id, sent as `apns-topic`.
    public var bundleID: String
    /// `api.push.apple.com` (production) or `api.sandbox.push.apple.com`.
    public var endpoint: String
    /// Settings for the production endpoint unless `endpoint` says otherwise.
    public init(keyID: String, teamID: String, secret: String, bundleID: String, endpoint: String = "api.push.apple.com") {
        self.keyID = keyID; self.teamID = teamID; self.secret = secret; self.bundleID = bundleID; self.endpoint = endpoint
    }
}

/// The hub's FCM v1 settings: project and service account.
public struct FCMCredential: Sendable, Equatable {
    /// The Firebase project id; setting it remakes ``sendPath``.
    public var projectID: String { didSet { sendPath = Self.sendPath(projectID) } }
    /// `/v1/projects/<projectID>/messages:send`, made once rather than for every copy.
    public private(set) var sendPath: String
    /// The service account whose signed assertions buy the hub its Google OAuth tokens.
    public var serviceAccount: String
    /// Stands in for the service account's private key.
    public var secret: String
    /// Settings for one project and service account.
    public init(projectID: String, serviceAccount: String, secret: String) {
        self.projectID = projectID; self.serviceAccount = serviceAccount; self.secret = secret
        self.sendPath = Self.sendPath(projectID)
    }
    private static func sendPath(_ projectID: String) -> String { "/v1/projects/\(projectID)/messages:send" }
}

/// The hub's WNS settings: the app's Package SID and secret.
public struct WNSCredential: Sendable, Equatable {
    /// `ms-app://S-1-15-2-…`, the client id of the hub's WNS token requests.
    public var packageSID: String
    /// The app's client secret.
    public var secret: String
    /// Settings for one Windows app.
    public init(packageSID: String, secret: String) { self.packageSID = packageSID; self.secret = secret }
}

/// Settings of the fake notification hub.
public struct HubConfiguration: Sendable {
    /// The Service Bus namespace: the hub answers at `<namespace>.servicebus.windows.net`.
    public var namespace: String
    /// The hub's path under the namespace.
    public var hubName: String
    /// The shared access policies whose tokens the hub accepts.
    public var accessRules: [SharedAccessRule]
    /// How long a registration lives after its last create-or-update; nil = forever (NH's
    /// default today; older hubs had a configurable TTL, NH-REG, NH-DN530747).
    public var registrationTimeToLive: VirtualDuration?
    /// The hub's APNs credentials; nil: every copy for an APNs registration is dropped ("the hub
    /// has no apple credentials").
    public var apns: APNsCredential?
    /// The hub's FCM v1 credentials; nil: copies for FCM registrations are dropped.
    public var fcm: FCMCredential?
    /// The hub's WNS credentials; nil: copies for WNS registrations are dropped.
    public var wns: WNSCredential?
    /// Most requests to the PNSs the hub keeps in flight at once; further copies of a fan-out wait
    /// for answers (see `PNSStreams`). Not published by Azure; 1,000 is PushSim's choice.
    public var maxPNSRequestsInFlight = 1_000
    /// The status of an accepted send to tags or to everyone (native, template, test send).
    /// Sources disagree; see ``SendAcceptedStatus``. Default `.created` (201), as the service answers.
    public var sendAcceptedStatus: SendAcceptedStatus = .created
    /// The status of a successful registration PUT. Sources disagree; see ``RegistrationWriteStatus``.
    /// Default `.ok` (200), as the service answers.
    public var registrationWriteStatus: RegistrationWriteStatus = .ok
    /// A registration PUT with `If-Match` on an id that holds no registration yet. Sources disagree;
    /// see ``IfMatchWithoutRegistration``. Default `.notFound` (404), as the Update Registration page says.
    public var ifMatchWithoutRegistration: IfMatchWithoutRegistration = .notFound
    /// A registration DELETE without `If-Match`. Sources are silent; see ``DeleteWithoutIfMatch``.
    /// Default `.deletes` (PushSim's behaviour before the rule was written down).
    public var deleteWithoutIfMatch: DeleteWithoutIfMatch = .deletes
    /// A native APNs send (`ServiceBusNotification-Format: apple`) whose body is not a JSON object.
    /// See ``InvalidAPNsPayload``. Default `.refused` (400), as the send pages and the SDK's issue #194 say.
    public var invalidAPNsPayload: InvalidAPNsPayload = .refused
    /// How long the hub uses one APNs provider token before it mints the next. Apple asks for a
    /// new token no more often than every 20 minutes and no less often than every 60 (A-JWT);
    /// the hub's real interval is not published, and 50 minutes sits inside that window. Longer
    /// than an hour, APNs answers 403 `ExpiredProviderToken` and the hub mints a new token and
    /// sends the copy again; shorter than 20 minutes, APNs answers 429
    /// `TooManyProviderTokenUpdates`.
    public var apnsProviderTokenRenewal: VirtualDuration = .minutes(50)

    /// A hub with no registration TTL and the given credentials (none by default); the source
    /// rules keep their defaults.
    public init(namespace: String, hubName: String, accessRules: [SharedAccessRule],
                registrationTimeToLive: VirtualDuration? = nil,
                apns: APNsCredential? = nil, fcm: FCMCredential? = nil, wns: WNSCredential? = nil) {
        self.namespace = namespace
        self.hubName = hubName
        self.accessRules = accessRules
        self.registrationTimeToLive = registrationTimeToLive
        self.apns = apns
        self.fcm = fcm
        self.wns = wns
    }

    /// `<namespace>.servicebus.windows.net`
    public var host: String { "\(namespace).servicebus.windows.net" }

    /// The connection string the Azure portal shows for a rule.
    public func connectionString(for rule: SharedAccessRule) -> String {
        "Endpoint=sb://\(host)/;SharedAccessKeyName=\(rule.keyName);SharedAccessKey=\(rule.key)"
    }
}
