import Dispatch
import Foundation
import PushSimNetwork
import PushSimScenario
import PushSimServices

/// What answers the requests an ``HTTPServer`` reads off its connections: the served world of
/// `pushsim serve` (``WorldBridge``), or a scenario run's loopback (``ScenarioLoopback``).
/// Called from the server's loop thread, so it must be safe to share between threads.
public protocol ServerDoor: AnyObject, Sendable {
    /// Answers one whole request: calls `completion` exactly once, from any thread, with the
    /// answer, when it is ready. Must not wait for it: the server's one loop thread calls this,
    /// and every other connection waits while it runs. `connection` numbers the TCP connection (from
    /// 1, in accept order). The default runs ``answer(_:connection:)`` on a thread of its own, for
    /// a door that can only block (a test's stand-in backend); not on a Dispatch worker, since a
    /// blocked worker is taken from the pool that everything else in the process shares.
    func answer(_ request: WireRequest, connection: Int, completion: @escaping @Sendable (HTTPResponse) -> Void)
    /// As ``answer(_:connection:completion:)``, for a request the server hands over while it has
    /// nothing else to do (the only one at the door): the door may build the answer on the calling
    /// thread when that is quick, saving two hand-offs between threads, but must still not wait for
    /// an answer that is pending. The default is ``answer(_:connection:completion:)``.
    func answerAlone(_ request: WireRequest, connection: Int, completion: @escaping @Sendable (HTTPResponse) -> Void)
    /// Answers one whole request, blocking the calling thread until the answer is ready (tests,
    /// tools; never from the server's loop thread).
    func answer(_ request: WireRequest, connection: Int) -> HTTPResponse
    /// Notes a request the server refused before it was whole (a framing error). Must not wait.
    func recordRefused(_ request: WireRequest, _ response: HTTPResponse)
    /// Where the server listens (`http://127.0.0.1:<port>`), once it does, and where the key
    /// files for clients were written.
    func configure(baseURL: String, keyFiles: ClientKeyFiles)
    /// The server has stopped: flush what is kept.
    func close()
}

extension ServerDoor {
    /// ``answer(_:connection:completion:)``: a door without a quicker way.
    public func answerAlone(_ request: WireRequest, connection: Int, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        answer(request, connection: connection, completion: completion)
    }

    /// ``answer(_:connection:)`` on a thread of its own, for a door that can only block.
    public func answer(_ request: WireRequest, connection: Int, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let thread = Thread { completion(self.answer(request, connection: connection)) }
        thread.name = "pushsim-blocking-door"
        thread.start()
    }
}

/// Waits for an answer given through a completion: the blocking form of a door that answers
/// asynchronously. `start` receives the completion and must call it exactly once.
func waitForAnswer(_ start: (@escaping @Sendable (HTTPResponse) -> Void) -> Void) -> HTTPResponse {
    let box = AnswerBox()
    start { response in
        box.response = response
        box.ready.signal()
    }
    box.ready.wait()
    return box.response!
}

/// Where a completion leaves the answer for the thread waiting on `ready`.
/// `@unchecked Sendable`: `response` is written once, before `ready` is signalled, and read after.
private final class AnswerBox: @unchecked Sendable {
    let ready = DispatchSemaphore(value: 0)
    var response: HTTPResponse?
}

extension WorldBridge: ServerDoor {}

extension Simulation {
    /// Opens the world to clients outside it that reach it through a server at `baseURL`: the hub
    /// accepts SAS tokens signed for `<baseURL>/<hub>` (and the same with `localhost`) besides its
    /// own resource URI. (APNs and FCM verify real clients' ES256 and RS256 signatures with the
    /// world's keys, which the server hands out, and keys registered through the control API.)
    func acceptClients(at baseURL: String) {
        guard !baseURL.isEmpty else { return }
        let name = hub.configuration.hubName
        hub.alsoAcceptedResourceURIs = [baseURL + "/" + name, baseURL.replacing("127.0.0.1", with: "localhost") + "/" + name]
    }
}
