import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario

/// The loopback boundary of a scenario run whose devices talk to the user's own backend
/// (`backend external "http://127.0.0.1:8080"`): both directions of it.
///
/// - **Out**: each external address becomes an `ExternalBackendHost` in the world. A phone's
///   request to it is sent to the real backend over loopback HTTP, and its answer comes back into
///   the world as the host's response.
/// - **In**: while the world waits for that answer, the backend calls the hub (or a push service)
///   through an ``HTTPServer`` whose door is this object. Those requests enter the world from the
///   external backend's host, in the phone's causal chain, and the world runs until each is
///   answered; then the answer goes back out.
///
/// **Time.** Virtual time stands still while the backend thinks: only the backend's own calls
/// into the world move it (by their simulated latency). A backend that does not answer within
/// ``timeoutSeconds`` of wall-clock time (or cannot be reached, or answers something that is not
/// HTTP) gives the phone a transport failure (`timed out`, `host unreachable`), recorded in the
/// trace with the reason.
///
/// **Threads.** The world runs on the thread that runs the scenario, and only there: the server's
/// loop thread puts requests in a mailbox, each with its completion, and goes on; the world
/// thread takes them out while it waits for an external answer, and calls the completions.
/// Requests that arrive while no external answer is awaited wait for the next one (a backend that
/// calls the hub after it has answered the phone is served then), and those still waiting when a
/// run ends are answered 503.
///
/// **Determinism.** The run is as repeatable as the backend is: the same answers and the same
/// calls in the same order give a byte-identical trace. What crosses the boundary is not recorded
/// (use `pushsim serve --record` to record a backend's hub traffic). The answers' `Date` and
/// `Server` fields, which carry the wall clock and the backend's version, stay at the boundary.
///
/// `@unchecked Sendable`: the mailbox and the attached flag are guarded by `condition`; the
/// rest is touched only on the world thread, or set before the server starts.
public final class ScenarioLoopback: ServerDoor, ExternalBackendConnector, @unchecked Sendable {
    /// How long (wall clock, seconds) one request to an external backend may take.
    public let timeoutSeconds: Int
    private let condition = MonotonicCondition()
    private var mailbox: [Job] = []
    private var attached = false
    private var baseURL = ""
    /// What `GET /_pushsim/info` answers (set when the server listens).
    private var info: ConnectionInfo?
    // World thread only:
    private weak var simulation: Simulation?
    private var router: Router?

    /// A loopback that gives each request to an external backend `timeoutSeconds` of wall-clock
    /// time (at least 1; default 10).
    public init(timeoutSeconds: Int = 10) {
        self.timeoutSeconds = max(1, timeoutSeconds)
    }

    /// One request from outside, waiting for the world, and where its answer goes.
    private struct Job {
        let request: WireRequest
        let completion: @Sendable (HTTPResponse) -> Void
    }

    // MARK: ServerDoor (the server's loop thread)

    /// Answers one request of the backend's. `GET /_pushsim/info` is answered at once; anything
    /// else waits in the mailbox until the world thread serves it (while it awaits an external
    /// answer), or is answered 503 when no scenario is attached. `connection` is not used.
    public func answer(_ request: WireRequest, connection: Int, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        if request.path == "/_pushsim" || request.path.hasPrefix("/_pushsim/") { completion(control(request)); return }
        let posted = condition.withLock { () -> Bool in
            guard attached else { return false }
            mailbox.append(Job(request: request, completion: completion))
            condition.broadcast()
            return true
        }
        if !posted { completion(Self.noRun) }
    }

    /// Answers one request, blocking the calling thread until the answer is ready.
    public func answer(_ request: WireRequest, connection: Int) -> HTTPResponse {
        waitForAnswer { answer(request, connection: connection, completion: $0) }
    }

    /// Does nothing: a scenario run keeps no record of its loopback traffic.
    public func recordRefused(_ request: WireRequest, _ response: HTTPResponse) {}

    /// Notes where the server listens, for `GET /_pushsim/info` and for the hub's SAS resource
    /// check once a run attaches; `keyFiles` is not used.
    public func configure(baseURL: String, keyFiles: ClientKeyFiles) {
        let info = ConnectionInfo(simulation: Simulation(seed: 0), baseURL: baseURL)
        condition.withLock {
            self.baseURL = baseURL
            self.info = info
        }
    }

    /// The server has stopped: as ``runEnded()``.
    public func close() { runEnded() }

    static let noRun = ServerAnswer.error(503, "No scenario is waiting for its external backend now: "
        + "pushsim run serves the hub only while a phone's request is with the backend.")

    /// `GET /_pushsim/info` only: the rest of the control API belongs to `pushsim serve`.
    private func control(_ request: WireRequest) -> HTTPResponse {
        guard request.method == "GET", request.path == "/_pushsim/info" || request.path == "/_pushsim" || request.path == "/_pushsim/",
              let info = condition.withLock({ self.info }) else {
            return ServerAnswer.error(404, "During pushsim run only GET /_pushsim/info is served; the control API is pushsim serve's.")
        }
        return ServerAnswer.json(200, info.json())
    }

    // MARK: ExternalBackendConnector (world thread)

    /// The host that stands in for the backend at `address` in `simulation`'s world. The first
    /// call for a simulation attaches the loopback to it: the backend's calls are served in that
    /// world from then on, and its hub accepts SAS tokens signed for this server's address.
    public func backendHost(for address: ExternalBackendAddress, in simulation: Simulation) -> PushSimNetwork.Host {
        if self.simulation !== simulation {
            self.simulation = simulation
            router = Router(hubName: simulation.hub.configuration.hubName, hubHost: simulation.hub.configuration.host)
            simulation.acceptClients(at: condition.withLock { baseURL })
            condition.withLock { attached = true }
        }
        return ExternalBackendHost(address: address, loopback: self)
    }

    /// Detaches from the run: requests waiting in the mailbox, and any that come later, are answered 503.
    public func runEnded() {
        let left = condition.withLock { () -> [Job] in
            attached = false
            defer { mailbox.removeAll() }
            return mailbox
        }
        for job in left { job.completion(Self.noRun) }
        simulation = nil
        router = nil
    }

    // MARK: Forwarding (world thread)

    /// Sends `request` to the backend at `address` and waits for its answer, serving the calls
    /// the backend makes into `world` meanwhile (from `caller`, in the current causal chain).
    func forward(_ request: HTTPRequest, to address: ExternalBackendAddress, caller: String,
                 world: World) -> Result<HTTPResponse, LoopbackHTTPClient.Failure> {
        let outcome = Outcome()
        let (timeout, condition) = (timeoutSeconds, condition)
        let thread = Thread {
            let result = LoopbackHTTPClient.send(request, to: address.ipv4, port: address.port, basePath: address.basePath,
                                                 hostHeader: "\(address.host):\(address.port)", timeoutSeconds: timeout)
            condition.withLock {
                outcome.result = result
                condition.broadcast()
            }
        }
        thread.name = "pushsim-external-backend"
        thread.start()
        let deadline = DispatchTime.now() + .seconds(timeout)
        let chain = world.correlation
        while true {
            condition.lock()
            var timedOut = false
            while mailbox.isEmpty && outcome.result == nil && !timedOut { timedOut = !condition.wait(until: deadline) }
            let taken = mailbox
            mailbox.removeAll()
            let result = outcome.result
            condition.unlock()
            for job in taken { job.completion(serve(job.request, from: caller, chain: chain, world: world)) }
            if let result { return result }
            if timedOut && taken.isEmpty { return .failure(.timedOut) }
        }
    }

    /// The answer of one request from the backend: it enters the world from `caller` in causal
    /// chain `chain`, and the world runs until it is answered (30 s of virtual time at most).
    private func serve(_ wire: WireRequest, from caller: String, chain: String, world: World) -> HTTPResponse {
        guard let router, case .host(let authority)? = router.route(wire) else {
            return ServerAnswer.error(404, "Nothing is served at \(wire.method) \(wire.path). The hub is at /{hub}/…; "
                + "FCM, APNs and WNS at their real paths (see GET /_pushsim/info).")
        }
        var result: CallResult?
        world.inCorrelation(chain) {
            world.call(Router.worldRequest(wire, authority: authority), from: caller, timeout: .seconds(30)) { result = $0 }
            // Its own condition, not requestStop(): runs nest here (a phone's request to another
            // external backend can arrive meanwhile), and a stop would end the innermost one.
            world.run(until: world.now + .seconds(31)) { result != nil }
        }
        switch result {
        case .response(let response)?: return response
        case .failure(let failure)?:
            return ServerAnswer.error(failure == .timedOut ? 504 : 502, "The simulated world gave no answer: \(failure.rawValue).")
        case nil:
            return ServerAnswer.error(504, "The simulated world stopped before it answered (a run limit).")
        }
    }

    /// The backend's answer, written by the client thread, read by the world thread.
    /// `@unchecked Sendable`: `result` is touched only with `condition` locked.
    private final class Outcome: @unchecked Sendable {
        var result: Result<HTTPResponse, LoopbackHTTPClient.Failure>?   // guarded by `condition`
    }
}
