import PushSimKernel
import PushSimNetwork
import PushSimDevices
import PushSimBackend
import PushSimScenario

/// How the served world is built, at start and again on every reset: a seed, the simulation's
/// options, devices declared up front, and a last hook for network and service settings (the
/// CLI's `--scenario` maps a scenario's settings onto these).
///
/// Not `Sendable`: it is handed to ``WorldBridge`` once, before the server starts, and from then
/// on used only on the world's queue.
public struct WorldSetup {
    /// A device declared up front (not installed: install it through the control API).
    public struct DeviceSpec: Sendable, Equatable {
        /// The device's host name in the world, e.g. `bob-iphone`.
        public var name: String
        /// Its OS, which decides its push service.
        public var platform: DevicePlatform
        /// The built-in client logic its app runs.
        public var client: ClientFlavour
        /// Who uses it: the user gets an account on the hardened backend (password = user name) unless
        /// the options give accounts. Nil: no one yet.
        public var user: String?
        /// The backend its app calls; nil takes the options' `Simulation.Options.backend`.
        public var backend: BackendFlavour?
        /// The OS major version; nil takes `Device.defaultOSVersion(_:)`.
        public var osVersion: Int?
        /// A device `name` on `platform`, running the tutorial's client unless `client` says otherwise.
        public init(name: String, platform: DevicePlatform, client: ClientFlavour = .tutorial, user: String? = nil,
                    backend: BackendFlavour? = nil, osVersion: Int? = nil) {
            self.name = name; self.platform = platform; self.client = client; self.user = user
            self.backend = backend; self.osVersion = osVersion
        }
    }

    /// The root seed of every world built (default 0).
    public var seed: UInt64
    /// The simulation's options; their `Simulation.Options.anchor` is replaced by the server's
    /// (see ``ClockPolicy``).
    public var options: Simulation.Options
    /// Devices added, in this order, to every world built.
    public var devices: [DeviceSpec]
    /// Runs after the devices are added (network latency, loss, partitions, service faults).
    public var configure: (Simulation) -> Void
    /// How the fakes check the ES256 and RS256 signatures of tokens clients make: verified (the
    /// default), or structure and claims only (`--signatures structure-only`).
    public var signaturePolicy = SignaturePolicy.verify

    /// A setup with seed 0, default options, no devices and no extra settings unless given.
    public init(seed: UInt64 = 0, options: Simulation.Options = Simulation.Options(), devices: [DeviceSpec] = [],
                configure: @escaping (Simulation) -> Void = { _ in }) {
        self.seed = seed
        self.options = options
        self.devices = devices
        self.configure = configure
    }

    /// A fresh simulation with virtual time zero at `anchor`. Its trace is not kept: nothing a
    /// server answers reads it (the control API reads the journal and the hosts' state), and a
    /// server that runs for days would otherwise keep every event of every request in memory.
    /// Observers (the invariant checkers) still see every event.
    func makeSimulation(anchor: CalendarAnchor) -> Simulation {
        var options = self.options
        options.anchor = anchor
        let simulation = Simulation(seed: seed, options: options)
        simulation.world.isRecordingTrace = false
        for fake in simulation.services { fake.checkSignatures(signaturePolicy) }
        for d in devices {
            simulation.addDevice(d.name, d.platform, client: d.client, user: d.user, backend: d.backend, osVersion: d.osVersion)
        }
        configure(simulation)
        return simulation
    }
}

/// How virtual time relates to the wall clock at the boundary (the PushSimServer article's "How
/// time maps" says it in full).
///
/// In both policies the world's `PushSimKernel.CalendarAnchor` (the Unix time of virtual time
/// zero) is the wall clock's whole second when the server started, so a client that stamps times
/// from its own clock (`iat` of an APNs provider token or a Google assertion, `se` of a SAS token,
/// `apns-expiration`) agrees with the fakes at first, and a message between such a client and the
/// host it calls takes no virtual time. Virtual time then moves by:
/// - `wall`: virtual now = wall time elapsed since the world was made + the sum of clock advances,
///   whatever the traffic. The world never runs past that instant: a request whose answer needs
///   in-world work waits for the wall clock to bring the world there.
/// - `manual`: virtual now = the sum of clock advances (settles included) + the simulated latency
///   of work a request waited for; wall time never enters the world, so the same requests give
///   the same answers and the same record on every run (tests use this).
public enum ClockPolicy: String, Sendable, CaseIterable {
    /// Virtual time follows the wall clock, plus the clock advances.
    case wall
    /// Virtual time moves only by clock advances and simulated latency: repeatable runs.
    case manual
}
