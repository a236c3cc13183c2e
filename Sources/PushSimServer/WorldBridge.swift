import Dispatch
import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario

/// The one door into the served world. The server hands it requests; it runs each on ONE
/// serial queue that owns the `Simulation` (through `WorldState`), so the world stays
/// single-threaded and sees the requests one at a time, in the order the queue takes them.
///
/// For each request, on the queue:
/// 1. the clock catches up (``ClockPolicy``);
/// 2. the `Router` picks the control API, or a world host by its real name;
/// 3. a world request enters the world from the external host `sdk` as a new causal chain;
/// 4. its answer is built at the event that produces it: at once under `manual` (the world runs
///    on the spot), or under `wall` when the wall clock lets the world reach that event;
/// 5. the exchange goes to the record, if one is kept.
///
/// **Pending answers hold no thread.** A request whose answer is not built yet keeps its
/// completion on the queue, by ticket. Whenever the world moves (another request, or the wake
/// timer), the answers built meanwhile are handed to their completions. The wake timer is one
/// `DispatchSourceTimer` on the queue, armed for the moment something can change without a request:
/// the world's next event falling due by the wall clock (under `wall`), a long poll's wall-clock
/// bound, and at most 50 ms ahead as a safety net while anything waits.
///
/// `@unchecked Sendable`: its stored state is the queue (thread-safe) and what is touched only on
/// it: `state` (created in `init` before the bridge is shared), the completions, the timer.
public final class WorldBridge: @unchecked Sendable {
    private let queue = DispatchQueue(label: "pushsim.serve.world")
    private let state: WorldState
    private let scenarioPath: String?
    /// Whether the record's header line is written (once, when the server's address is known).
    private var wroteHeader = false
    /// Completions of the requests whose answers are not built yet, by ticket (on the queue).
    private var waiting: [Int: @Sendable (HTTPResponse) -> Void] = [:]
    /// Looks again at the waiting requests when nothing else would (on the queue; made on first need).
    private var wakeTimer: DispatchSourceTimer?
    /// When the wake timer is armed for (monotonic nanoseconds), if it is.
    private var wakeArmedAt: UInt64?

    /// Builds the world from `setup`. `anchor` fixes the Unix time of virtual time zero (tests);
    /// nil takes the wall clock's current second. `recordPath` starts a JSON Lines record there.
    /// `scenarioPath` names the scenario the setup came from, for the record's header.
    /// `retention` bounds what the world keeps of its traffic.
    /// `controlToken`, when given, is the bearer token every control-API request must carry.
    /// `longestWait` bounds every long poll, in wall-clock seconds (default 300, the most one may ask).
    public init(setup: WorldSetup, clock: ClockPolicy = .wall, anchor: CalendarAnchor? = nil, recordPath: String? = nil,
                scenarioPath: String? = nil, retention: ServeRetention = ServeRetention(), controlToken: String? = nil,
                longestWait: Double = 300, keepsTrace: Bool = false) throws {
        state = WorldState(setup: setup, policy: clock, anchor: anchor, retention: retention)
        state.controlToken = controlToken
        state.longestWait = longestWait
        state.keepsTrace = keepsTrace
        self.scenarioPath = scenarioPath
        if let recordPath { state.recorder = try RequestRecorder(path: recordPath) }
    }

    /// Answers one request: `completion` gets the answer, on the world's queue, once the world has
    /// produced it; the caller does not wait. `connection` numbers the TCP connection it came on
    /// (from 1, in accept order; 0 when there is none): the request enters the world from
    /// `sdk#<connection>`, because a real service ties some state to a connection (APNs adopts one
    /// provider token per connection and refuses a new one within 20 minutes on the same
    /// connection; a client that opens a connection per request is not refused).
    public func answer(_ request: WireRequest, connection: Int = 0, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        queue.async { [self] in take(request, connection: connection, completion: completion) }
    }

    /// As ``answer(_:connection:completion:)``, on the calling thread (`queue.sync`): the server's
    /// loop calls this for a lone request. An answer the world builds at once is given before this
    /// returns; one that must wait is kept, as always, and given later from the queue.
    public func answerAlone(_ request: WireRequest, connection: Int, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        queue.sync { take(request, connection: connection, completion: completion) }
    }

    /// Answers one request, blocking the calling thread until the world has produced the answer
    /// (tests and tools; never on the world's queue). An answer the world builds at once is built
    /// on the calling thread (`queue.sync`), without a hand-off.
    public func answer(_ request: WireRequest, connection: Int = 0) -> HTTPResponse {
        waitForAnswer { completion in queue.sync { take(request, connection: connection, completion: completion) } }
    }

    /// On the queue: enters `request` and keeps its completion until the answer is built.
    private func take(_ request: WireRequest, connection: Int, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        state.catchUp()
        let pending = enter(request, connection: connection, arrived: state.world.now)
        waiting[pending.ticket] = completion
        look()
    }

    /// On the queue, after the world may have moved: runs it to the wall clock's now, ends the long
    /// polls whose bound has passed, hands every answer built to its completion, and arms the wake
    /// timer for the next moment something can change while requests still wait.
    private func look() {
        if !waiting.isEmpty {
            state.catchUp()
            state.expireWaits()
        }
        for pending in state.takeReady() {
            if let completion = waiting.removeValue(forKey: pending.ticket), let response = pending.response { completion(response) }
        }
        guard !waiting.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        // At most 50 ms between looks, whatever the world says: a safety net, not the pace; and
        // not sooner than 50 µs, so that a wake already due cannot spin the queue.
        let at = max(min(state.nextWake() ?? .max, now &+ 50_000_000), now &+ 50_000)
        if let armed = wakeArmedAt, armed <= at { return }
        let timer = wakeTimer ?? makeWakeTimer()
        wakeArmedAt = at
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: at))
    }

    deinit { wakeTimer?.cancel() }

    private func makeWakeTimer() -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in
            self?.wakeArmedAt = nil
            self?.look()
        }
        timer.resume()
        wakeTimer = timer
        return timer
    }

    /// Routes `request` and enters it into the world (on the queue).
    private func enter(_ request: WireRequest, connection: Int, arrived: VirtualTime, replayExpiry: VirtualTime? = nil,
                       replayAnchor: CalendarAnchor? = nil) -> PendingAnswer {
        writeHeaderOnce()
        let route = state.router.route(request)
        let outcome: Outcome
        let routeName: String
        switch route {
        case .control?:
            routeName = "control"
            outcome = ControlAPI(state: state, replayAnchor: replayAnchor).handle(request)
        case .host(let authority)?:
            routeName = authority
            outcome = state.call(Router.worldRequest(request, authority: authority),
                                 from: connection == 0 ? WorldState.callerName : "\(WorldState.callerName)#\(connection)")
        case nil:
            routeName = "none"
            outcome = .answer(ServerAnswer.error(404, "Nothing is served at \(request.method) \(request.path). "
                + "Fakes: /{hub}/… (Notification Hubs), /v1/projects/{p}/messages:send and /token (FCM), "
                + "/3/device/{token} (APNs), /?token=… and /accesstoken.srf (WNS); control API: /_pushsim/."))
        }
        return state.enter(request, connection: connection, route: routeName, outcome: outcome, arrived: arrived,
                           replayExpiry: replayExpiry)
    }

    /// The record's header, before its first exchange (by then the server is configured).
    private func writeHeaderOnce() {
        guard !wroteHeader, let recorder = state.recorder else { return }
        wroteHeader = true
        recorder.header(seed: state.setup.seed, anchorUnixSeconds: state.world.anchor.unixSecondsAtZero, clock: state.policy,
                        baseURL: state.baseURL,
                        scenario: scenarioPath, keyFiles: state.keyFiles, signatures: state.setup.signaturePolicy)
    }

    /// Records an exchange the server answered without the world (a request it could not parse).
    public func recordRefused(_ request: WireRequest, _ response: HTTPResponse) {
        queue.async { [self] in
            writeHeaderOnce()
            _ = state.enter(request, connection: 0, route: "refused", outcome: .answer(response), arrived: state.world.now)
        }
    }

    /// Tells the control API where the server listens and where the client key files are.
    public func configure(baseURL: String, keyFiles: ClientKeyFiles) {
        queue.sync {
            state.baseURL = baseURL
            state.keyFiles = keyFiles
            state.acceptTokensSignedForTheServer()
        }
    }

    /// Registers `keys` as the control API does (``RegisteredKey``).
    func register(_ keys: [RegisteredKey]) {
        queue.sync { for key in keys { state.register(key) } }
    }

    /// What a client needs to reach the fakes through a server at `baseURL`.
    public func connectionInfo(baseURL: String) -> ConnectionInfo {
        queue.sync { ConnectionInfo(simulation: state.simulation, baseURL: baseURL) }
    }

    /// Runs `body` on the world's queue with the simulation (tests and tools; keep it short).
    public func withSimulation<T: Sendable>(_ body: (Simulation) -> T) -> T {
        queue.sync { body(state.simulation) }
    }

    /// The session as a teaching page (swim-lanes, step-through, what each phone showed, the
    /// invariants' verdicts), for a bridge that keeps its trace (`keepsTrace`, as a replay made for
    /// the page does); `title` heads it and `source` says where the session came from.
    public func sessionPage(title: String, source: String) -> String {
        queue.sync {
            ServedSessionPage.html(of: state.simulation, expectations: state.expectations, title: title, source: source,
                                   seed: state.setup.seed)
        }
    }

    /// Flushes and closes the record; later requests are no longer recorded.
    public func close() {
        queue.sync {
            state.recorder?.close()
            state.recorder = nil
        }
    }

    // MARK: Replay

    /// One exchange of a `--record` file, as ``replay(_:)`` needs it.
    public struct RecordedRequest: Sendable {
        /// The request as it came off the wire.
        public var request: WireRequest
        /// The virtual time it entered the world.
        public var arrived: VirtualTime
        /// The connection it came on (0 for none).
        public var connection: Int
        /// For a long poll that ended by its wall-clock bound: the virtual time it ended.
        public var expiredAt: VirtualTime?
        /// For `POST /_pushsim/reset` under `wall`: the anchor the new world got.
        public var resetAnchor: CalendarAnchor?
        /// A request entered at `arrived` on `connection`.
        public init(request: WireRequest, arrived: VirtualTime, connection: Int, expiredAt: VirtualTime? = nil,
                    resetAnchor: CalendarAnchor? = nil) {
            self.request = request; self.arrived = arrived; self.connection = connection
            self.expiredAt = expiredAt; self.resetAnchor = resetAnchor
        }
    }

    /// Replays recorded requests, given in the order they entered the world: runs the world to
    /// each one's arrival, enters it as the served run did (under `manual`, running the world on
    /// the spot; under `wall`, leaving it open while later requests enter), and once all are in,
    /// runs the world until every answer is built. Returns the answers in the same order. For a
    /// bridge built with the recorded seed, anchor and clock policy; the wall clock is not read.
    public func replay(_ requests: [RecordedRequest]) -> [HTTPResponse] {
        queue.sync {
            state.isReplaying = true
            var pendings: [PendingAnswer] = []
            for r in requests {
                if r.arrived > state.world.now { state.runWorld(to: r.arrived) }
                pendings.append(enter(r.request, connection: r.connection, arrived: state.world.now, replayExpiry: r.expiredAt,
                                      replayAnchor: r.resetAnchor))
            }
            var rounds = 0
            while !state.open.isEmpty, state.stuck == nil, rounds < 1_000 {
                let next = state.open.compactMap { $0.virtualDeadline ?? $0.replayExpiry }.min() ?? state.world.now + .seconds(31)
                state.runWorld(to: max(next, state.world.now))
                rounds += 1
            }
            state.endOpenWaits()
            return pendings.map { $0.response ?? ServerAnswer.error(503, "No answer was built in the replay.") }
        }
    }
}
