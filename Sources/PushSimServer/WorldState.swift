import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushSimKernel
import PushSimNetwork
import PushSimScenario
import PushSimDevices

/// Everything the served world is: the ``Simulation`` and the boundary's bookkeeping (clock
/// mapping, the requests waiting for their answers, the record). Confined to ``WorldBridge``'s
/// serial queue: it is not `Sendable`, and only code running on that queue creates, reads or
/// changes it.
///
/// How virtual time moves (see ``ClockPolicy``):
/// - `wall`: the world never runs past *wall time since the world was made + advances*. A
///   request whose answer needs the world to work (a backend calling the hub, a device action)
///   waits, in wall time, until the world has reached the event that answers it; other requests
///   are served meanwhile.
/// - `manual`: a request runs the world on the spot until its answer is back (bounded by the call
///   timeout); waiting, as for a long poll, never moves virtual time.
/// In both, a message between the world and a client outside it takes no virtual time
/// (``PushSimNetwork/World/outsideLatency``): the real network already took real time.
final class WorldState {
    /// The in-world name of every external caller (SDKs, curl): their requests come from it.
    static let callerName = "sdk"
    /// The in-world name the control API uses when it reads the hub through its REST API.
    static let controlName = "pushsim-control"
    /// How long a request may wait in the world for its answer (the in-world call timeout).
    static let callTimeout = VirtualDuration.seconds(30)

    let setup: WorldSetup
    let policy: ClockPolicy
    let retention: ServeRetention
    private(set) var simulation: Simulation
    /// Judges `POST /_pushsim/expect`; observes the world from when it was made.
    private(set) var expectations: LiveExpectations
    let router: Router
    /// Monotonic wall-clock reading (ns) when the world was made.
    private var wallStart: UInt64
    /// The sum of clock advances since the world was made.
    private(set) var advanced = VirtualDuration.zero
    var recorder: RequestRecorder?
    /// `http://host:port` of the server, once it listens (for `GET /_pushsim/info`).
    var baseURL = ""
    /// Where the client key files (service-account JSON, APNs `.p8`) were written, if they were.
    var keyFiles = ClientKeyFiles()
    /// Keys registered through the control API, in order: kept across resets and applied to
    /// every world made (see ``RegisteredKey``).
    private(set) var registeredKeys: [RegisteredKey] = []

    /// Registers `key` in the world now and in every world a reset makes.
    func register(_ key: RegisteredKey) {
        registeredKeys.append(key)
        key.apply(to: simulation)
    }
    /// Requests answered since start (never reset: numbers the record's lines).
    private(set) var answered = 0
    /// Requests entered since start (never reset: numbers the tickets).
    private var entered = 0
    /// Requests entered whose answers are not built yet, in entry order.
    private(set) var open: [PendingAnswer] = []
    /// Answers built and not yet taken by their connection, by ticket.
    private var ready: [Int: PendingAnswer] = [:]
    /// Why the world cannot run any more (an event or time limit hit), once it happened.
    private(set) var stuck: String?
    /// True while a replay runs: the wall clock is not read, and recorded expiries end long polls.
    var isReplaying = false
    /// Faults injected through the control API so far (never reset: names them `f1`, `f2`, …).
    private var faultsInjected = 0
    /// The name of the next fault injected through the control API.
    func nextFaultID() -> String {
        faultsInjected += 1
        return "f\(faultsInjected)"
    }
    /// Whether the world keeps its trace (a replay that makes a teaching page); a served world
    /// does not: nothing it answers reads the trace, and it would grow with every request.
    var keepsTrace = false {
        didSet { simulation.world.isRecordingTrace = keepsTrace }
    }
    /// The requests since the world was made (or reset), for `GET /_pushsim/page`, which replays
    /// them into a world that keeps its trace; at most ``sessionLimit`` (then ``sessionOverflowed``).
    private(set) var session: [WorldBridge.RecordedRequest] = []
    /// Where each open request's entry in ``session`` is, by ticket (to note a long poll's expiry).
    private var sessionIndex: [Int: Int] = [:]
    /// How many requests ``session`` keeps (default 10,000: a test's session); 0 keeps none.
    var sessionLimit = 10_000
    /// Whether the session outgrew ``sessionLimit`` since the world was made.
    private(set) var sessionOverflowed = false
    /// The longest a long poll waits, in wall-clock seconds, whatever it asks (a fuzzer sets it
    /// near zero, so that no input holds it for minutes).
    var longestWait = 300.0
    /// When set, every control-API request must carry `Authorization: Bearer <this>` (401 without).
    var controlToken: String?

    /// The anchor every world gets, when the server was given one (else the wall clock's).
    private var fixedAnchor: CalendarAnchor?

    init(setup: WorldSetup, policy: ClockPolicy, anchor: CalendarAnchor?, retention: ServeRetention = ServeRetention()) {
        self.setup = setup
        self.policy = policy
        self.retention = retention
        let anchor = anchor ?? Self.wallAnchor()
        // Under `manual`, a reset keeps the first world's anchor: the record's header gives the
        // one anchor a replay needs, whenever the resets came.
        self.fixedAnchor = anchor
        simulation = Self.makeSimulation(setup, anchor: anchor, retention: retention)
        expectations = LiveExpectations(observing: simulation, crossUserEnforced: setup.options.backend == .hardened)
        router = Router(hubName: simulation.hub.configuration.hubName, hubHost: simulation.hub.configuration.host)
        wallStart = DispatchTime.now().uptimeNanoseconds
    }

    private static func makeSimulation(_ setup: WorldSetup, anchor: CalendarAnchor, retention: ServeRetention) -> Simulation {
        let simulation = setup.makeSimulation(anchor: anchor)
        simulation.world.outsideLatency = .zero
        // A server runs for days: the default event limit (there to stop a runaway scenario) would
        // stop it after some millions of sends. A limit the setup chose stays.
        if simulation.world.limits.maxEvents == RunLimits().maxEvents { simulation.world.limits.maxEvents = .max }
        simulation.world.journal.retention = Retention(keeping: retention.journalEntries)
        for device in simulation.devices { device.inboxRetention = Retention(keeping: retention.notificationsPerDevice) }
        return simulation
    }

    var world: World { simulation.world }

    /// Keeps a device added after start within the retention limits.
    func adopt(_ device: Device) {
        device.inboxRetention = Retention(keeping: retention.notificationsPerDevice)
    }

    /// A client signs its SAS tokens for the endpoint it was given, this server: the hub accepts
    /// `<baseURL>/<hub>` (and the same with `localhost`) besides its own resource URI.
    func acceptTokensSignedForTheServer() { simulation.acceptClients(at: baseURL) }

    /// Throws the world away and builds it again from the setup. Under `wall` its virtual zero is
    /// the wall clock's second now (or `anchor`, in a replay); under `manual` it keeps the anchor it
    /// had. Requests still waiting are answered first, with what they have.
    func reset(anchor replayAnchor: CalendarAnchor? = nil) {
        for pending in open { finish(pending) }
        open = []
        let anchor = replayAnchor ?? (policy == .manual ? fixedAnchor : nil) ?? Self.wallAnchor()
        simulation = Self.makeSimulation(setup, anchor: anchor, retention: retention)
        simulation.world.isRecordingTrace = keepsTrace
        for key in registeredKeys { key.apply(to: simulation) }
        expectations = LiveExpectations(observing: simulation, crossUserEnforced: setup.options.backend == .hardened)
        session = []
        sessionIndex = [:]
        sessionOverflowed = false
        acceptTokensSignedForTheServer()
        wallStart = DispatchTime.now().uptimeNanoseconds
        advanced = .zero
        stuck = nil
    }

    /// The current Unix second, as the anchor of a new world.
    static func wallAnchor() -> CalendarAnchor {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return CalendarAnchor(unixSecondsAtZero: Int64(ts.tv_sec))
    }

    // MARK: Time

    /// The virtual instant the wall clock says it is: wall time since the world was made + advances.
    private var wallNowVirtual: VirtualTime {
        VirtualTime.zero + VirtualDuration(microseconds: Int64((DispatchTime.now().uptimeNanoseconds &- wallStart) / 1_000)) + advanced
    }

    /// Under `wall`, runs the world up to the instant the wall clock says it is now, so timers due
    /// in the meantime fire in order and waiting requests get their answers; does nothing under
    /// `manual` and in a replay.
    func catchUp() {
        guard policy == .wall, !isReplaying else { return }
        let target = wallNowVirtual
        if target > world.now { runWorld(to: target) }
    }

    /// Moves virtual time forward by `d`, running everything that falls due.
    func advance(by d: VirtualDuration) {
        // Clients outside keep their own clocks: what they stamp is judged `advanced` behind.
        countAsAdvance(d)
        runWorld(to: world.now + d)
    }

    /// Counts `d` of virtual time the world ran on the spot for a request (under `manual`) as an
    /// advance: the clients' clocks are judged that much further behind.
    func countAsAdvance(_ d: VirtualDuration) {
        advanced = advanced + d
        world.outsideClockLag = advanced
    }

    /// Runs the world to `target`, stopping after each event that lets a waiting request be
    /// answered (and at each waiting request's virtual deadline) to answer it right there; stops
    /// early, right after such an event, once `condition` holds.
    func runWorld(to target: VirtualTime, until condition: (() -> Bool)? = nil) {
        while stuck == nil {
            if let condition, condition() { return }
            var stoppedEarly = false
            let stop = open.compactMap(\.virtualDeadline).reduce(target) { min($0, $1) }
            let end: RunEnd
            if open.isEmpty && condition == nil {
                end = world.run(until: stop)
            } else {
                end = world.run(until: stop, stopWhen: { [unowned self] in
                    stoppedEarly = open.contains { canFinish($0) } || condition?() == true
                    return stoppedEarly
                })
            }
            noteEnd(end)
            finishReady()
            if !stoppedEarly && world.now >= target { break }
        }
        if stuck != nil { finishReady() }
    }

    private func noteEnd(_ end: RunEnd) {
        if case .limitReached(let message) = end { stuck = message }
    }

    // MARK: Requests waiting for the world

    /// Enters a request whose handler gave `outcome`: answers it now, or keeps it open until the
    /// world makes its wait hold. Under `manual` (and when replaying a `manual` record) the world
    /// runs on the spot, up to the wait's virtual limit, to make it hold.
    func enter(_ request: WireRequest, connection: Int, route: String, outcome: Outcome, arrived: VirtualTime,
               replayExpiry: VirtualTime? = nil) -> PendingAnswer {
        entered += 1
        let wait: Wait
        switch outcome {
        case .answer(let response):
            wait = Wait(isDone: { true }, finish: { response })
        case .wait(let w):
            wait = w
        }
        let pending = PendingAnswer(ticket: entered, request: request, connection: connection, route: route, arrived: arrived,
                                    wait: wait, wallNow: DispatchTime.now().uptimeNanoseconds)
        pending.replayExpiry = replayExpiry
        if route != "refused" && !Self.isPageRequest(request) { keepInSession(pending) }
        open.append(pending)
        finishReady()
        if pending.response == nil, policy == .manual, let deadline = pending.virtualDeadline {
            runWorld(to: deadline, until: { pending.response != nil })
        }
        return pending
    }

    /// `GET /_pushsim/page` reads the world without changing it, and is not replayed into the page.
    static func isPageRequest(_ request: WireRequest) -> Bool { request.path == "/_pushsim/page" }

    private func keepInSession(_ pending: PendingAnswer) {
        guard !sessionOverflowed else { return }
        guard session.count < sessionLimit else {
            sessionOverflowed = true
            session = []
            sessionIndex = [:]
            return
        }
        sessionIndex[pending.ticket] = session.count
        session.append(WorldBridge.RecordedRequest(request: pending.request, arrived: pending.arrived, connection: pending.connection))
    }

    /// Whether `pending` can be answered now: its wait holds, or a virtual bound has come.
    private func canFinish(_ pending: PendingAnswer) -> Bool {
        if stuck != nil { return true }
        if let deadline = pending.virtualDeadline, world.now >= deadline { return true }
        if let expiry = pending.replayExpiry, world.now >= expiry { return true }
        return pending.wait.isDone()
    }

    /// Answers every open request that can be answered, in entry order.
    private func finishReady() {
        guard open.contains(where: canFinish) else { return }
        var still: [PendingAnswer] = []
        for pending in open {
            if canFinish(pending) {
                if let expiry = pending.replayExpiry, world.now >= expiry, !pending.wait.isDone(), let expire = pending.wait.expire {
                    settle(pending, expire(), expired: true)
                } else {
                    finish(pending)
                }
            } else {
                still.append(pending)
            }
        }
        open = still
    }

    private func finish(_ pending: PendingAnswer) { settle(pending, pending.wait.finish(), expired: false) }

    private func settle(_ pending: PendingAnswer, _ response: HTTPResponse, expired: Bool) {
        pending.response = response
        pending.expired = expired
        if let i = sessionIndex.removeValue(forKey: pending.ticket), expired, i < session.count { session[i].expiredAt = world.now }
        answered += 1
        recorder?.record(seq: answered, entry: pending.ticket, at: world.now, arrived: pending.arrived, connection: pending.connection,
                         route: pending.route, request: pending.request, response: response, expired: expired)
        ready[pending.ticket] = pending
    }

    /// Ends the long polls whose wall-clock bound has passed, with their `expire` answers.
    func expireWaits() {
        guard !isReplaying, open.contains(where: { $0.wallDeadline != nil }) else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        var still: [PendingAnswer] = []
        for pending in open {
            if let deadline = pending.wallDeadline, now >= deadline, let expire = pending.wait.expire {
                settle(pending, expire(), expired: true)
            } else {
                still.append(pending)
            }
        }
        open = still
    }

    /// Answers every request still open with what it has (the end of a replay).
    func endOpenWaits() {
        for pending in open {
            if let expire = pending.wait.expire { settle(pending, expire(), expired: true) } else { finish(pending) }
        }
        open = []
        ready = [:]
    }

    /// The answers built and not yet given out, in entry order (taken: each is given out once).
    func takeReady() -> [PendingAnswer] {
        guard !ready.isEmpty else { return [] }
        defer { ready.removeAll(keepingCapacity: true) }
        return ready.values.sorted { $0.ticket < $1.ticket }
    }

    /// Monotonic nanoseconds at which the requests waiting for their answers should be looked at
    /// again: when the next event falls due by the wall clock (under `wall`), or a long poll's
    /// bound ends; nil when only another request can change anything.
    func nextWake() -> UInt64? {
        var wake = open.compactMap(\.wallDeadline).min()
        if policy == .wall, let next = world.nextEventTime {
            let offset = next.microseconds - advanced.microseconds   // wall microseconds since the world was made
            let at = wallStart &+ UInt64(max(0, offset)) &* 1_000
            wake = min(wake ?? at, at)
        }
        return wake
    }

    // MARK: Calls into the world

    /// Sends `request` into the world from `caller` as the start of a new causal chain, and waits
    /// for its answer: the fake's answer as given, or a JSON error for a transport failure (504
    /// when no answer came in ``callTimeout``, 502 otherwise); `transform` turns a response into
    /// the request's answer (the control API reads the hub this way).
    func call(_ request: HTTPRequest, from caller: String = WorldState.callerName,
              transform: @escaping (HTTPResponse) -> HTTPResponse = { $0 }) -> Outcome {
        if let stuck { return .answer(ServerAnswer.error(503, "The simulated world has stopped: \(stuck). Reset it with POST /_pushsim/reset.")) }
        world.newCorrelation()
        let box = CallResultBox()
        let authority = request.authority
        world.call(request, from: caller, timeout: Self.callTimeout) { box.result = $0 }
        return .wait(Wait(isDone: { box.result != nil }, finish: { [unowned self] in
            switch box.result {
            case .response(let response)?: return transform(response)
            case .failure(let failure)?:
                let status = failure == .timedOut ? 504 : 502
                return ServerAnswer.error(status, "\(authority) did not answer in the simulated world: \(failure.rawValue).")
            case nil:
                return ServerAnswer.error(503, "The simulated world has stopped: \(stuck ?? "no answer came").")
            }
        }, virtualLimit: Self.callTimeout + .seconds(1)))
    }

    /// Virtual now as JSON: the world's clock, its Unix time, and the sum of advances.
    func clockJSON() -> JSONValue {
        let now = world.now
        return .object([
            "virtualTime": .string(now.description),
            "virtualMicroseconds": .number(JSONNumber(now.microseconds)),
            "unixSeconds": .number(JSONNumber(world.anchor.unixSeconds(now))),
            "unixMilliseconds": .number(JSONNumber(world.anchor.unixMilliseconds(now))),
            "iso8601": .string(world.anchor.iso8601(now)),
            "anchorUnixSeconds": .number(JSONNumber(world.anchor.unixSecondsAtZero)),
            "advancedMicroseconds": .number(JSONNumber(advanced.microseconds)),
            "policy": .string(policy.rawValue),
        ])
    }
}

/// Where a call's continuation leaves its result for the wait that reads it.
final class CallResultBox {
    var result: CallResult?
}

/// How much `pushsim serve` keeps of what grows with traffic, so that a server sent to for days
/// holds flat memory (the `--record` file aside, which keeps everything on disk).
public struct ServeRetention: Sendable, Equatable {
    /// Calls kept in the request journal (`GET /_pushsim/journal`), the newest; default 10,000.
    public var journalEntries = 10_000
    /// Notifications kept per device (`GET /_pushsim/devices/{name}/notifications`), the newest;
    /// default 1,000.
    public var notificationsPerDevice = 1_000
    /// The defaults.
    public init() {}
}
