import PushSimKernel

/// What the hub may do with a shared access key (Azure's SAS rule rights).
public enum HubRight: String, Sendable, CaseIterable {
    case listen = "Listen", send = "Send", manage = "Manage"
}

/// A shared access policy: a key name, its key and its rights. Azure creates two by default:
/// `DefaultListenSharedAccessSignature` (Listen) and `DefaultFullSharedAccessSignature` (all).
public struct SharedAccessRule: Sendable, Equatable {
    public var keyName: String
    public var key: String
    public var rights: [HubRight]
    public init(keyName: String, key: String, rights: [HubRight]) {
        self.keyName = keyName
        self.key = key
        self.rights = rights
    }
}

/// The hub's APNs settings (token-based auth): key, team, app and endpoint.
public struct APNsCredential: Sendable, Equatable {
    public var keyID: String
    public var teamID: String
    /// Stands in for the `.p8` key (see `SimulatedSignature`).
    public var secret: String
    /// The app's bundle id, sent as `apns-topic`.
    public var bundleID: String
    /// `api.push.apple.com` (production) or `api.sandbox.push.apple.com`.
    public var endpoint: String
    public init(keyID: String, teamID: String, secret: String, bundleID: String, endpoint: String = "api.push.apple.com") {
        self.keyID = keyID; self.teamID = teamID; self.secret = secret; self.bundleID = bundleID; self.endpoint = endpoint
    }
}

/// The hub's FCM v1 settings: project and service account.
public struct FCMCredential: Sendable, Equatable {
    public var projectID: String { didSet { sendPath = Self.sendPath(projectID) } }
    /// `/v1/projects/<projectID>/messages:send`, made once rather than for every copy.
    public private(set) var sendPath: String
    public var serviceAccount: String
    /// Stands in for the service account's private key.
    public var secret: String
    public init(projectID: String, serviceAccount: String, secret: String) {
        self.projectID = projectID; self.serviceAccount = serviceAccount; self.secret = secret
        self.sendPath = Self.sendPath(projectID)
    }
    private static func sendPath(_ projectID: String) -> String { "/v1/projects/\(projectID)/messages:send" }
}

/// The hub's WNS settings: the app's Package SID and secret.
public struct WNSCredential: Sendable, Equatable {
    public var packageSID: String
    public var secret: String
    public init(packageSID: String, secret: String) { self.packageSID = packageSID; self.secret = secret }
}

/// Settings of the fake notification hub.
public struct HubConfiguration: Sendable {
    /// The Service Bus namespace: the hub answers at `<namespace>.servicebus.windows.net`.
    public var namespace: String
    /// The hub's path under the namespace.
    public var hubName: String
    public var accessRules: [SharedAccessRule]
    /// How long a registration lives after its last create-or-update; nil = forever (NH's
    /// default today; older hubs had a configurable TTL, NH-REG, NH-DN530747).
    public var registrationTimeToLive: VirtualDuration?
    public var apns: APNsCredential?
    public var fcm: FCMCredential?
    public var wns: WNSCredential?
    /// Most requests to the PNSs the hub keeps in flight at once; further copies of a fan-out wait
    /// for answers (see `PNSStreams`). Not published by Azure; 1,000 is PushSim's choice.
    public var maxPNSRequestsInFlight = 1_000
    /// The status of an accepted send to tags or to everyone (native, template, test send).
    /// Sources disagree; see ``SendAcceptedStatus``. Default `.created` (201), as the service answers.
    public var sendAcceptedStatus: SendAcceptedStatus = .created
    /// A registration PUT with `If-Match` on an id that holds no registration yet. Sources disagree;
    /// see ``IfMatchWithoutRegistration``. Default `.notFound` (404), as the Update Registration page says.
    public var ifMatchWithoutRegistration: IfMatchWithoutRegistration = .notFound
    /// A registration DELETE without `If-Match`. Sources are silent; see ``DeleteWithoutIfMatch``.
    /// Default `.deletes` (PushSim's behaviour before the rule was written down).
    public var deleteWithoutIfMatch: DeleteWithoutIfMatch = .deletes
    /// A native APNs send (`ServiceBusNotification-Format: apple`) whose body is not a JSON object.
    /// See ``InvalidAPNsPayload``. Default `.refused` (400), as the send pages and the SDK's issue #194 say.
    public var invalidAPNsPayload: InvalidAPNsPayload = .refused

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
