import Dispatch
import PushSimKernel
import PushSimNetwork
import PushSimScenario

/// The one door into the served world. Connection threads hand it requests; it runs each on ONE
/// serial queue that owns the ``Simulation`` (through `WorldState`), so the world stays
/// single-threaded and sees the requests one at a time, in the order the queue takes them.
///
/// For each request, on the queue:
/// 1. the clock catches up (``ClockPolicy``);
/// 2. the ``Router`` picks the control API, or a world host by its real name;
/// 3. a world request enters the world from the external host `sdk` as a new causal chain, and
///    the world runs (other due events too) until that call's answer is back, which is returned
///    as the fake gave it: status, header fields, body;
/// 4. the exchange goes to the record, if one is kept.
///
/// `@unchecked Sendable`: its only stored state is the queue (thread-safe) and `state`, which
/// is created in `init` before the bridge is shared and touched only inside `queue.sync` after.
public final class WorldBridge: @unchecked Sendable {
    private let queue = DispatchQueue(label: "pushsim.serve.world")
    private let state: WorldState
    private let scenarioPath: String?
    /// Whether the record's header line is written (once, when the server's address is known).
    private var wroteHeader = false

    /// Builds the world from `setup`. `anchor` fixes the Unix time of virtual time zero (tests);
    /// nil takes the wall clock's current second. `recordPath` starts a JSON Lines record there.
    /// `scenarioPath` names the scenario the setup came from, for the record's header.
    public init(setup: WorldSetup, clock: ClockPolicy = .wall, anchor: CalendarAnchor? = nil, recordPath: String? = nil,
                scenarioPath: String? = nil) throws {
        state = WorldState(setup: setup, policy: clock, anchor: anchor)
        self.scenarioPath = scenarioPath
        if let recordPath { state.recorder = try RequestRecorder(path: recordPath) }
    }

    /// Answers one request (blocks the calling thread while the world works on it). `connection`
    /// numbers the TCP connection it came on (from 1, in accept order; 0 when there is none): the
    /// request enters the world from `sdk#<connection>`, because a real service ties some state to
    /// a connection (APNs adopts one provider token per connection and refuses a new one within
    /// 20 minutes on the same connection; a client that opens a connection per request is not
    /// refused).
    public func answer(_ request: WireRequest, connection: Int = 0) -> HTTPResponse {
        queue.sync {
            state.catchUp()
            return answerNow(request, connection: connection)
        }
    }

    /// Replays one recorded request: runs the world to `arrived` (the virtual time it entered the
    /// world when it was recorded), then answers it as ``answer(_:connection:)`` did, without
    /// looking at the wall clock whatever the policy. For a bridge built with the recorded seed,
    /// anchor and clock policy.
    public func replay(_ request: WireRequest, arrived: VirtualTime, connection: Int) -> HTTPResponse {
        queue.sync {
            if arrived > state.world.now { state.settle(for: arrived - state.world.now) }
            return answerNow(request, connection: connection)
        }
    }

    /// Answers `request` at the world's now (on the queue).
    private func answerNow(_ request: WireRequest, connection: Int) -> HTTPResponse {
        writeHeaderOnce()
        let arrived = state.world.now
        let route = state.router.route(request)
        let response: HTTPResponse
        let routeName: String
        switch route {
        case .control?:
            routeName = "control"
            response = ControlAPI(state: state).handle(request)
        case .host(let authority)?:
            routeName = authority
            response = state.call(Router.worldRequest(request, authority: authority),
                                  from: connection == 0 ? WorldState.callerName : "\(WorldState.callerName)#\(connection)")
        case nil:
            routeName = "none"
            response = ServerAnswer.error(404, "Nothing is served at \(request.method) \(request.path). "
                + "Fakes: /{hub}/… (Notification Hubs), /v1/projects/{p}/messages:send and /token (FCM), "
                + "/3/device/{token} (APNs), /?token=… and /accesstoken.srf (WNS); control API: /_pushsim/.")
        }
        state.answered += 1
        state.recorder?.record(seq: state.answered, at: state.world.now, arrived: arrived, connection: connection, route: routeName,
                               request: request, response: response)
        return response
    }

    /// The record's header, before its first exchange (by then the server is configured).
    private func writeHeaderOnce() {
        guard !wroteHeader, let recorder = state.recorder else { return }
        wroteHeader = true
        recorder.header(seed: state.setup.seed, anchorUnixSeconds: state.world.anchor.unixSecondsAtZero, clock: state.policy,
                        baseURL: state.baseURL,
                        scenario: scenarioPath, serviceAccountFile: state.serviceAccountPath)
    }

    /// Records an exchange the server answered without the world (a request it could not parse).
    public func recordRefused(_ request: WireRequest, _ response: HTTPResponse) {
        queue.sync {
            writeHeaderOnce()
            state.answered += 1
            state.recorder?.record(seq: state.answered, at: state.world.now, arrived: state.world.now, connection: 0, route: "refused",
                                   request: request, response: response)
        }
    }

    /// Tells the control API where the server listens and where the service-account file is.
    public func configure(baseURL: String, serviceAccountPath: String?) {
        queue.sync {
            state.baseURL = baseURL
            state.serviceAccountPath = serviceAccountPath
            state.acceptTokensSignedForTheServer()

        }
    }

    /// What a client needs to reach the fakes through a server at `baseURL`.
    public func connectionInfo(baseURL: String) -> ConnectionInfo {
        queue.sync { ConnectionInfo(simulation: state.simulation, baseURL: baseURL) }
    }

    /// Runs `body` on the world's queue with the simulation (tests and tools; keep it short).
    public func withSimulation<T: Sendable>(_ body: (Simulation) -> T) -> T {
        queue.sync { body(state.simulation) }
    }

    /// Flushes and closes the record; later requests are no longer recorded.
    public func close() {
        queue.sync {
            state.recorder?.close()
            state.recorder = nil
        }
    }
}
