import PushSimNetwork
import PushSimScenario
import PushSimServices

/// What answers the requests an ``HTTPServer`` reads off its connections: the served world of
/// `pushsim serve` (``WorldBridge``), or a scenario run's loopback (``ScenarioLoopback``).
/// Called from the server's threads, so it must be safe to share between them.
public protocol ServerDoor: AnyObject, Sendable {
    /// Answers one whole request; blocks the calling connection thread until the answer is ready.
    /// `connection` numbers the TCP connection (from 1, in accept order).
    func answer(_ request: WireRequest, connection: Int) -> HTTPResponse
    /// Notes a request the server refused before it was whole (a framing error).
    func recordRefused(_ request: WireRequest, _ response: HTTPResponse)
    /// Where the server listens (`http://127.0.0.1:<port>`), once it does.
    func configure(baseURL: String, serviceAccountPath: String?)
    /// The server has stopped: flush what is kept.
    func close()
}

extension WorldBridge: ServerDoor {}

extension Simulation {
    /// Opens the world to clients outside it that reach it through a server at `baseURL`: the hub
    /// accepts SAS tokens signed for `<baseURL>/<hub>` (and the same with `localhost`) besides its
    /// own resource URI, and each fake accepts real clients' signatures
    /// (``FakePushService/acceptRealClients()``: APNs and FCM check the structure and claims of real
    /// ES256 and RS256 signatures, which cannot be verified without a cryptography library).
    func acceptClients(at baseURL: String) {
        guard !baseURL.isEmpty else { return }
        let name = hub.configuration.hubName
        hub.alsoAcceptedResourceURIs = [baseURL + "/" + name, baseURL.replacing("127.0.0.1", with: "localhost") + "/" + name]
        for fake in services { fake.acceptRealClients() }
    }
}
