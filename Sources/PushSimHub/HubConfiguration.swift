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
    /// The hub's credentials, one per push service, none by default. Each service's is read and
    /// set through its own accessor, declared with its adapter (`apns`, `fcm`, `wns`).
    public var credentials = PNSCredentials()
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
    /// Which generation of the live service the registration answers imitate (headers, content
    /// types, addresses, the entry's markup, the never-expiring time). See ``HubAnswerShape``.
    /// Default `.current`, as the service answers since 2023.
    public var answerShape: HubAnswerShape = .current
    /// How long the hub uses one APNs provider token before it mints the next. Apple asks for a
    /// new token no more often than every 20 minutes and no less often than every 60 (A-JWT);
    /// the hub's real interval is not published, and 50 minutes sits inside that window. Longer
    /// than an hour, APNs answers 403 `ExpiredProviderToken` and the hub mints a new token and
    /// sends the copy again; shorter than 20 minutes, APNs answers 429
    /// `TooManyProviderTokenUpdates`.
    public var apnsProviderTokenRenewal: VirtualDuration = .minutes(50)

    /// A hub with the given registration TTL (none by default) and no credentials (set them with
    /// each service's accessor, e.g. `configuration.apns = APNsCredential(…)`); the source rules
    /// keep their defaults.
    public init(namespace: String, hubName: String, accessRules: [SharedAccessRule],
                registrationTimeToLive: VirtualDuration? = nil) {
        self.namespace = namespace
        self.hubName = hubName
        self.accessRules = accessRules
        self.registrationTimeToLive = registrationTimeToLive
    }

    /// `<namespace>.servicebus.windows.net`
    public var host: String { "\(namespace).servicebus.windows.net" }

    /// The connection string the Azure portal shows for a rule.
    public func connectionString(for rule: SharedAccessRule) -> String {
        "Endpoint=sb://\(host)/;SharedAccessKeyName=\(rule.keyName);SharedAccessKey=\(rule.key)"
    }
}
