import PushSimDevices
import PushSimBackend

/// The names and credentials every part of a simulation shares: one app on every platform, one
/// account with each push service, one hub. The APNs and Google keys are real keys made from fixed
/// seeds (`DerivedKeyMemo`): the same in every run, whatever its seed, so that a run's trace
/// depends on its seed alone and `pushsim serve` hands out the same keys every time.
///
/// Each push service's account (what its fake accepts and the hub's credential is made from) is
/// declared by the service's wiring file (`APNsService+Simulation.swift`, …) with its accessors
/// (`apnsKeyID`, …); the identity holds it by the service's name, so a new service needs no edit
/// here.
public struct SimulationIdentity: Sendable {
    /// The app's ids on each platform (PushSim's sample app); its backend host is the tutorial backend.
    public var app = AppIdentity(backendHost: TutorialBackend.publicHost)
    /// The Service Bus namespace of the hub (`<namespace>.servicebus.windows.net`).
    public var hubNamespace = "pushsim"
    /// The hub's name, its path in every REST URL.
    public var hubName = "notifyusers"
    /// Key of the hub's `DefaultFullSharedAccessSignature` rule (every right).
    public var hubFullKey = "hub-full-key-stand-in"
    /// Key of the hub's `DefaultListenSharedAccessSignature` rule (listen only).
    public var hubListenKey = "hub-listen-key-stand-in"
    /// Each service's account with its service's name, in ``SimulatedPushServices/all``'s order;
    /// searched by name (a handful of short names: cheaper than hashing them).
    private var accounts: [(service: String, account: any Sendable)] = []

    /// The fixed identity: every field above and each service's default account.
    public init() { self = Self.fixed }

    /// Built once: a `Simulation` made with the default identity copies it.
    private static let fixed = SimulationIdentity(defaultAccounts: ())

    private init(defaultAccounts: Void) {
        accounts = SimulatedPushServices.all.map { ($0.descriptor.name, $0.defaultAccount) }
    }

    /// The account `service`'s fake accepts.
    func account<S: SimulatedPushService>(_ service: S.Type) -> S.Account {
        accounts.first { $0.service == S.descriptor.name }?.account as? S.Account ?? S.defaultAccount
    }

    /// Sets the account `service`'s fake accepts (and the hub's credential for it is made from).
    mutating func setAccount<S: SimulatedPushService>(_ account: S.Account, for service: S.Type) {
        if let i = accounts.firstIndex(where: { $0.service == S.descriptor.name }) { accounts[i].account = account }
        else { accounts.append((S.descriptor.name, account)) }
    }
}
