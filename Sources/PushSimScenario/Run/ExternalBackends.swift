import PushSimNetwork

/// The `backend external` addresses of one scenario, and the world host standing in for each.
///
/// Which backend a device uses: its own `backend …` option if it has one, else the scenario's
/// last `backend` setting. Each distinct external address becomes one host, named
/// `external-backend`, `external-backend-2`, … in the order devices first use them (so the
/// names, and the trace, do not depend on anything but the file).
struct ExternalBackends {
    /// Distinct addresses in order of first use.
    private(set) var addresses: [ExternalBackendAddress] = []
    /// Device name → its external address (looked up only, never iterated).
    private var byDevice: [String: ExternalBackendAddress] = [:]
    /// Where the first device using each address is declared, for diagnostics.
    private var firstUse: [SourceLocation] = []

    init(_ scenario: Scenario) {
        var scenarioWide: ExternalBackendAddress?
        for setting in scenario.settings {
            switch setting {
            case .backend: scenarioWide = nil
            case .externalBackend(let address): scenarioWide = address
            default: break
            }
        }
        for d in scenario.devices {
            guard let address = d.externalBackend ?? (d.backend == nil ? scenarioWide : nil) else { continue }
            byDevice[d.name] = address
            if !addresses.contains(address) {
                addresses.append(address)
                firstUse.append(d.location)
            }
        }
    }

    /// The in-world name of the host for the `index`th address.
    static func hostName(_ index: Int) -> String { index == 0 ? "external-backend" : "external-backend-\(index + 1)" }

    /// The name of the host `device` talks to, when it is an external backend.
    func hostName(for device: DeviceDeclaration) -> String? {
        byDevice[device.name].flatMap { address in addresses.firstIndex(of: address).map(Self.hostName) }
    }

    /// Registers a host per address, made by `connector`; a diagnostic when there is none to make them.
    func connect(to simulation: Simulation, with connector: ExternalBackendConnector?) -> ScenarioDiagnostic? {
        guard !addresses.isEmpty else { return nil }
        guard let connector else {
            return ScenarioDiagnostic(location: firstUse[0],
                                      message: "this scenario talks to your backend at \(addresses[0]), and nothing here connects to it",
                                      hint: "run it with pushsim run, which reaches the backend over loopback and serves the hub to it "
                                          + "(from Swift, pass an ExternalBackendConnector such as PushSimServer's ScenarioLoopback)")
        }
        for (i, address) in addresses.enumerated() {
            simulation.addBackend(connector.backendHost(for: address, in: simulation), name: Self.hostName(i))
        }
        return nil
    }
}
