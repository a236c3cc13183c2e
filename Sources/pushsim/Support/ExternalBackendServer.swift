import Foundation
import PushSim
import PushSimNetwork
import PushSimServer

/// `pushsim run`'s side of `backend external "<url>"`: the loopback server through which the
/// user's backend reaches the hub (and the push services), started when the first scenario that
/// needs it runs, on the address given with `--listen` (default 127.0.0.1:9310), and stopped when
/// the process ends. Scenarios without an external backend never start it.
final class ExternalBackendServer: ExternalBackendConnector {
    /// Where the hub is served when `--listen` is not given.
    static let defaultAddress = "127.0.0.1:9310"
    /// `--listen`: `<ipv4>:<port>`, checked when the server starts.
    let address: String
    /// The bridge between the server's requests and the running simulation.
    private let loopback: ScenarioLoopback
    /// The server, once the first scenario with an external backend has started it.
    private var server: HTTPServer?

    /// A server for `address` (not started yet) whose backends have `timeoutSeconds` of wall
    /// clock to answer each request.
    init(address: String, timeoutSeconds: Int) {
        self.address = address
        loopback = ScenarioLoopback(timeoutSeconds: timeoutSeconds)
    }

    /// The host through which `simulation` reaches the user's backend at `backend`; starts the
    /// server first if no scenario has yet.
    func backendHost(for backend: ExternalBackendAddress, in simulation: Simulation) -> PushSimNetwork.Host {
        if server == nil { start() }
        return loopback.backendHost(for: backend, in: simulation)
    }

    /// Detaches the loopback from the run that ended: requests still waiting, and any that come
    /// later, are answered 503.
    func runEnded() { loopback.runEnded() }

    /// Starts the server on ``address`` and says where on standard error; a bad address or one it
    /// cannot listen on is a usage error.
    private func start() {
        let parts = address.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1]), (1...65_535).contains(port) else {
            PushsimCommand.fail("--listen takes <ipv4>:<port>, such as 127.0.0.1:9310, not '\(address)'")
        }
        let server = HTTPServer(bridge: loopback, configuration: HTTPServer.Configuration(host: String(parts[0]), port: port))
        do { try server.start() } catch {
            PushsimCommand.fail("cannot serve the hub to your backend at \(address): \(error) (choose another address with --listen)")
        }
        self.server = server
        FileHandle.standardError.write(Data("pushsim: serving the hub to external backends at \(server.baseURL)\n".utf8))
    }
}
