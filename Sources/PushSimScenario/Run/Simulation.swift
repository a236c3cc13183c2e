import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimHub
import PushSimBackend
import PushSimDevices

/// A whole push ecosystem in one value: the world (clock, queue, seed, network, trace), fake
/// APNs, FCM and WNS, the notification hub, the tutorial backend, and devices running the app.
/// Every part is wired with the same fixed credentials (``SimulationIdentity``), so a scenario
/// needs to say nothing about keys to get a working system.
public final class Simulation {
    /// Clock, event queue, seeded randomness, network and trace, shared by every part.
    public let world: World
    /// The fake push services, one per entry of ``PushServiceDescriptor/all`` and in its order,
    /// each accepting the identity's credentials for its service.
    public let services: [any FakePushService]
    /// The fake APNs, accepting the identity's team key.
    public var apns: APNsService { fake(APNsService.self) }
    /// The fake FCM, with the identity's Firebase project.
    public var fcm: FCMService { fake(FCMService.self) }
    /// The fake WNS, with the identity's Windows package.
    public var wns: WNSService { fake(WNSService.self) }
    /// The browsers' push services (Chrome's, Firefox's, Safari's and Edge's), on their public
    /// hosts; Chrome's endpoints reach it through ``fcm``'s host. Simulated browsers (``browsers``)
    /// subscribe over its channel; tests may also call ``WebPushService/subscribe(browser:vendor:applicationServerKey:world:)``.
    public let webPush: WebPushService
    /// The notification hub, holding credentials for all three services (unless the options make
    /// them wrong or missing) and the options' rules.
    public let hub: NotificationHub
    /// The tutorial's backend, defects included.
    public let backend: TutorialBackend
    /// The same backend with its defects fixed; both run side by side, each device picks one.
    public let hardenedBackend: HardenedBackend
    /// The name of the hub policy whose key the built-in backends sign their hub calls with
    /// (see ``useBackendHubKey(keyName:)``).
    public private(set) var backendHubKeyName = "DefaultFullSharedAccessSignature"
    /// The options the simulation was made with.
    public let options: Options
    /// Sends straight through the hub (scenario name `operator`).
    public let operatorConsole: OperatorConsole
    /// Devices in the order they were added.
    public private(set) var devices: [Device] = []
    /// Device name → position in ``devices`` (looked up only, never iterated): a run with 10,000
    /// devices looks one up per step.
    private var deviceIndex: [String: Int] = [:]
    /// Simulated browsers, in the order they were added (``addBrowser(_:vendor:permission:promptAnswer:)``).
    public internal(set) var browsers: [Browser] = []
    /// Sites' application servers sending Web Push, in the order they were added.
    public internal(set) var applicationServers: [WebPushApplicationServer] = []
    /// The names and credentials every part was wired with.
    public let identity: SimulationIdentity

    /// Options a scenario can set.
    public struct Options {
        /// How long a hub registration lives after its last create-or-update (`hub ttl`); nil =
        /// forever, the hub's default (see `HubConfiguration.registrationTimeToLive`).
        public var registrationTimeToLive: VirtualDuration?
        /// The hub SDK generation the tutorial backend runs on; it decides how defect e shows
        /// (Citations §5.2 e). Default `.current`.
        public var hubSDK: TutorialHubSDK = .current
        /// Event and time limits of the run (`limit events`, `limit time`); default 20 million
        /// events, 10 years.
        public var limits = RunLimits()
        /// How long after APNs learns the app is gone from a device it starts answering 410;
        /// Apple delays this on purpose (§1.9). Default zero.
        public var apnsUnregisteredReportDelay: VirtualDuration = .zero
        /// Whether the app's App ID has APNs' Broadcast capability (`apns broadcast disabled`:
        /// channel management and broadcasts answer 400 `FeatureNotEnabled`). Default true.
        public var apnsBroadcastEnabled = true
        /// The backend devices use unless they choose one.
        public var backend: BackendFlavour = .tutorial
        /// Accounts of the hardened backend (user → password). Nil: each device's user gets an
        /// account with the user name as password, as the tutorial's convention has it.
        public var accounts: [String: String]?
        /// Push services whose credentials the hub has wrong (`"wrong"`) or lacks (`"missing"`).
        public var hubCredentialProblems: [String: String] = [:]
        /// The APNs auth key the Firebase project has for relaying to iOS app instances; default uploaded.
        public var fcmAPNsKey = FCMAPNsKeyState.uploaded
        /// The hub's answers where sources disagree or are silent, in the order set (see
        /// ``HubRuleSetting``); none keeps the hub's defaults.
        public var hubRules: [HubRuleSetting] = []
        /// Shared access policies the hub has besides its two defaults, in the order declared.
        public var hubPolicies: [HubAccessPolicy] = []
        /// The hub policy whose key the built-in backends sign their hub calls with when the world
        /// is built (`backend key …`); a name the hub has no policy of keeps the full key.
        public var backendHubKeyName = HubAccessPolicy.defaultNames[0]
        /// The Unix time of virtual time zero (`pushsim serve` sets it from the wall clock at start).
        public var anchor = CalendarAnchor()
        /// The defaults: tutorial backend, current SDK, no TTL, no rules, working credentials.
        public init() {}
    }

    /// Builds and wires every part, all on one world seeded with `seed`; nothing runs until ``run(until:)``.
    public init(seed: UInt64, options: Options = Options(), identity: SimulationIdentity = SimulationIdentity()) {
        self.identity = identity
        self.options = options
        let world = World(seed: seed, anchor: options.anchor, limits: options.limits)
        self.world = world
        services = SimulatedPushServices.all.map { $0.make(world: world, identity: identity, options: options) }
        webPush = WebPushService(world: world)
        let full = SharedAccessRule(keyName: "DefaultFullSharedAccessSignature", key: identity.hubFullKey, rights: HubRight.allCases)
        let listen = SharedAccessRule(keyName: "DefaultListenSharedAccessSignature", key: identity.hubListenKey, rights: [.listen])
        // A declared policy's key is a stand-in made from its name, as the defaults' are.
        let declared = options.hubPolicies.map { SharedAccessRule(keyName: $0.name, key: "\($0.name)-key-stand-in", rights: $0.rights) }
        var hubConfiguration = HubConfiguration(namespace: identity.hubNamespace, hubName: identity.hubName, accessRules: [full, listen] + declared,
                                                registrationTimeToLive: options.registrationTimeToLive)
        for service in SimulatedPushServices.all {
            // `hub credentials <service> missing` leaves the hub without one; `wrong` gives it a key
            // (or secret) the service does not have for the account.
            let problem = options.hubCredentialProblems[service.descriptor.name]
            if problem != "missing" { service.giveHubCredential(from: identity, wrongKey: problem == "wrong", to: &hubConfiguration) }
        }
        // The hub's VAPID key for browsers (NH-BROWSER): browsers that sign in subscribe with it.
        hubConfiguration.browser = Self.hubBrowserCredential
        for rule in options.hubRules { rule.apply(to: &hubConfiguration) }
        hub = NotificationHub(world: world, configuration: hubConfiguration)
        let backendRule = hubConfiguration.accessRules.first { $0.keyName == options.backendHubKeyName } ?? full
        backendHubKeyName = backendRule.keyName
        let backendConfiguration = BackendConfiguration(hubConnectionString: hubConfiguration.connectionString(for: backendRule),
                                                        hubPath: identity.hubName, hubSDK: options.hubSDK)
        backend = TutorialBackend(world: world, configuration: backendConfiguration)!
        hardenedBackend = HardenedBackend(world: world, configuration: backendConfiguration, accounts: options.accounts ?? [:])!
        operatorConsole = OperatorConsole(world: world, connectionString: hubConfiguration.connectionString(for: full),
                                          hubPath: identity.hubName)
    }

    /// The connection string the Azure portal would show for the hub's policy named `keyName`;
    /// nil when the hub has no such policy.
    public func hubConnectionString(keyName: String) -> String? {
        hub.configuration.accessRules.first { $0.keyName == keyName }.map(hub.configuration.connectionString(for:))
    }

    /// Signs the built-in backends' calls to the hub from now on with the key of the hub's policy
    /// named `keyName` (`DefaultFullSharedAccessSignature` when built); false, and nothing
    /// changes, when the hub has no such policy.
    @discardableResult
    public func useBackendHubKey(keyName: String) -> Bool {
        guard let connectionString = hubConnectionString(keyName: keyName) else { return false }
        backend.useHub(connectionString: connectionString, world: world)
        hardenedBackend.useHub(connectionString: connectionString, world: world)
        backendHubKeyName = keyName
        return true
    }

    /// The backend calls of a device, or the operator's sends.
    public func calls(of name: String) -> [AppCallRecord] {
        name == OperatorConsole.name ? operatorConsole.calls : device(name)?.calls ?? applicationServer(name)?.calls ?? []
    }

    /// Adds a device running the app's client logic. `user` is who uses it (it gets an account on
    /// the hardened backend unless accounts were given); `backend` defaults to the options' one.
    /// `backendHost` points the app at any other host instead: one added with ``addBackend(_:name:aliases:)``.
    /// `logic` runs client logic of your own instead of `client`'s (see ``AppClientLogic``); `firebase`
    /// gives an iOS app the Firebase Messaging SDK (``Device/usesFirebaseMessaging``).
    @discardableResult
    public func addDevice(_ name: String, _ platform: DevicePlatform, client: ClientFlavour = .tutorial, user: String? = nil,
                          backend: BackendFlavour? = nil, osVersion: Int? = nil, backendHost: String? = nil,
                          logic: AppClientLogic? = nil, firebase: Bool = false) -> Device {
        var app = identity.app
        app.backendHost = backendHost ?? ((backend ?? options.backend) == .hardened ? HardenedBackend.publicHost : TutorialBackend.publicHost)
        if let user, options.accounts == nil, hardenedBackend.accounts[user] == nil { hardenedBackend.accounts[user] = user }
        let device = Device(world: world, name: name, platform: platform, client: client, app: app, osVersion: osVersion, logic: logic,
                            firebase: firebase)
        deviceIndex[name] = devices.count
        devices.append(device)
        return device
    }

    /// Adds a backend of your own to the world under `name` (and `aliases`): a ``Host`` that
    /// answers the app's requests (`POST /api/register?handle=…`, `PUT /api/register/{id}`,
    /// `DELETE /api/register/{id}`, `POST /api/notifications?pns=…&to_tag=…`, Basic
    /// authorisation) and reaches the hub with a ``NotificationHubClient`` made from
    /// ``hubConnectionString``. Point devices at it with `addDevice(…, backendHost: name)`.
    public func addBackend(_ host: Host, name: String, aliases: [String] = []) {
        world.register(host, name: name, aliases: aliases)
    }

    /// The device added under `name`, or nil.
    public func device(_ name: String) -> Device? { deviceIndex[name].map { devices[$0] } }

    /// The fake of type `S` (`fake(APNsService.self)`): every simulation has one of each fake.
    public func fake<S: FakePushService>(_ type: S.Type) -> S {
        for service in services { if let s = service as? S { return s } }
        preconditionFailure("the simulation has no \(S.descriptor.displayName) fake")
    }

    /// The fake that plays `service`, or nil when none here does.
    public func fake(playing service: PushServiceDescriptor) -> (any FakePushService)? {
        services.first { type(of: $0).descriptor == service }
    }

    /// Adds `fault` to the fake that plays `service` (`fault apns outage …`); false when no fake
    /// here plays it, which the runner reports rather than dropping the fault.
    @discardableResult
    public func injectFault(_ fault: ServiceFault, into service: PushServiceDescriptor) -> Bool {
        guard let fake = fake(playing: service) else { return false }
        fake.inject(fault)
        return true
    }

    /// Everything faults are injected into: the fakes in ``services``' order, then the notification
    /// hub (``NotificationHub/faults``, where only whole-service rules hit).
    public var faultHolders: [any FaultHolder] { services.map { $0 as any FaultHolder } + [hub] }

    /// The fault holder named `name` (`apns`, `fcm`, `wns`, `hub`), or nil.
    public func faultHolder(named name: String) -> (any FaultHolder)? {
        faultHolders.first { $0.faultHolderName == name }
    }

    /// Adds `fault` to what `name` names (`fault <name> …`): the fake push service of that name,
    /// or the notification hub itself (``faultHolder(named:)``). False when nothing here answers
    /// to the name.
    @discardableResult
    public func injectFault(_ fault: ServiceFault, into name: String) -> Bool {
        guard let holder = faultHolder(named: name) else { return false }
        holder.faults.append(fault)
        return true
    }

    /// Adds `count` compact devices of one platform running this simulation's app, addressed
    /// `<name>#0` … (see ``DeviceFleet``): for populations too large for a ``Device`` each.
    public func addFleet(_ name: String, _ platform: DevicePlatform, count: Int) -> DeviceFleet {
        DeviceFleet(world: world, name: name, platform: platform, app: identity.app, count: count)
    }

    /// Schedules `action` at `time` as the start of a new causal chain (a new correlation id).
    ///
    /// The world keeps `action` until it runs: an action that captures this simulation strongly
    /// keeps the whole world alive while it is pending (after a run cut short by a limit, say).
    /// Capture it `[unowned simulation]`, as ``ScenarioRunner`` does.
    public func at(_ time: VirtualTime, _ label: String = "step", _ action: @escaping () -> Void) {
        world.schedule(at: time) { [unowned world] in
            world.newCorrelation()
            world.record(layer: "scenario", host: "scenario", kind: .scenarioStep, [.step: .string(label)])
            action()
        }
    }

    /// Runs until nothing is left to do, `stop` is reached, or a limit is hit.
    @discardableResult
    public func run(until stop: VirtualTime? = nil) -> RunEnd { world.run(until: stop) }
}
