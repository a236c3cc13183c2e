import PushSim
import PushSimServer

/// `pushsim serve --scenario FILE`: a scenario's settings and devices as the served world's setup.
/// Its steps and expectations are not run: the clients over the wire take their place.
///
/// The settings are applied as `ScenarioRunner` applies them (its `simulationOptions(for:)` and
/// `applyNetworkAndFaults(of:to:)`): simulation options first, devices, then the network and the
/// services' faults.
enum ScenarioSetup {
    /// The setup of a world built from `scenario`, with `seed` (nil: the scenario's, else 0).
    static func worldSetup(_ scenario: Scenario, seed: UInt64?) -> WorldSetup {
        let devices = scenario.devices.map {
            WorldSetup.DeviceSpec(name: $0.name, platform: $0.platform, client: $0.client, user: $0.user,
                                  backend: $0.backend, osVersion: $0.osVersion)
        }
        return WorldSetup(seed: seed ?? scenario.seed ?? 0, options: ScenarioRunner.simulationOptions(for: scenario), devices: devices) {
            ScenarioRunner.applyNetworkAndFaults(of: scenario, to: $0)
        }
    }
}
