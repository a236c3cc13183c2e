import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushSimKernel
import PushSimNetwork
import PushSimScenario

/// Everything the served world is: the ``Simulation`` and the boundary's bookkeeping (clock
/// mapping, record). Confined to ``WorldBridge``'s serial queue: it is not `Sendable`, and only
/// code running on that queue creates, reads or changes it.
final class WorldState {
    /// The in-world name of every external caller (SDKs, curl): their requests come from it.
    static let callerName = "sdk"
    /// The in-world name the control API uses when it reads the hub through its REST API.
    static let controlName = "pushsim-control"
    /// How long a request may wait in the world for its answer (the in-world call timeout).
    static let callTimeout = VirtualDuration.seconds(30)
    /// The world runs forward in steps this long while it waits for something.
    static let step = VirtualDuration.milliseconds(1)

    let setup: WorldSetup
    let policy: ClockPolicy
    private(set) var simulation: Simulation
    let router: Router
    /// Wall-clock reading (monotonic, ns) when the world was made; `wall` policy only.
    private var wallStart: UInt64
    /// The sum of clock advances since the world was made.
    private(set) var advanced = VirtualDuration.zero
    var recorder: RequestRecorder?
    /// `http://host:port` of the server, once it listens (for `GET /_pushsim/info`).
    var baseURL = ""
    /// Where the FCM service-account file was written, if it was.
    var serviceAccountPath: String?
    /// Requests answered since start (never reset: numbers the record's lines).
    var answered = 0
    /// Why the world cannot run any more (an event or time limit hit), once it happened.
    private(set) var stuck: String?

    /// The anchor every world gets, when the server was given one (else the wall clock's).
    private let fixedAnchor: CalendarAnchor?

    init(setup: WorldSetup, policy: ClockPolicy, anchor: CalendarAnchor?) {
        self.setup = setup
        self.policy = policy
        self.fixedAnchor = anchor
        simulation = setup.makeSimulation(anchor: anchor ?? Self.wallAnchor())
        router = Router(hubName: simulation.hub.configuration.hubName, hubHost: simulation.hub.configuration.host)
        wallStart = DispatchTime.now().uptimeNanoseconds
    }

    var world: World { simulation.world }

    /// A client signs its SAS tokens for the endpoint it was given, this server: the hub accepts
    /// `<baseURL>/<hub>` (and the same with `localhost`) besides its own resource URI.
    func acceptTokensSignedForTheServer() { simulation.acceptClients(at: baseURL) }

    /// Throws the world away and builds it again from the setup, anchored at the wall clock now
    /// (or at the server's fixed anchor).
    func reset() {
        simulation = setup.makeSimulation(anchor: fixedAnchor ?? Self.wallAnchor())
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

    /// Runs the world up to the instant the clock policy says it is now (`wall`), so timers due
    /// in the meantime fire in order before the next request; does nothing under `manual`.
    func catchUp() {
        guard policy == .wall else { return }
        let elapsed = VirtualDuration(microseconds: Int64((DispatchTime.now().uptimeNanoseconds &- wallStart) / 1_000))
        let target = VirtualTime.zero + elapsed + advanced
        if target > world.now { noteEnd(world.run(until: target)) }
    }

    /// Moves virtual time forward by `d`, running everything that falls due.
    func advance(by d: VirtualDuration) {
        advanced = advanced + d
        // Clients outside keep their own clocks: what they stamp is judged `advanced` behind.
        world.outsideClockLag = advanced
        noteEnd(world.run(until: world.now + d))
    }

    /// Runs the world in small steps until `done()` holds, nothing is left to run, `limit` of
    /// virtual time has passed, or a run limit is hit. Returns whether `done()` held.
    @discardableResult
    func drive(until done: () -> Bool, limit: VirtualDuration) -> Bool {
        let deadline = world.now + limit
        while !done() {
            guard stuck == nil, world.now < deadline else { return false }
            let end = world.run(until: world.now + Self.step)
            noteEnd(end)
            if end == .quiescent { return done() }
        }
        return true
    }

    /// Runs the world for `d` of virtual time (what it does after a device action with nothing to wait for).
    func settle(for d: VirtualDuration) { noteEnd(world.run(until: world.now + d)) }

    private func noteEnd(_ end: RunEnd) {
        if case .limitReached(let message) = end { stuck = message }
    }

    // MARK: Calls into the world

    /// Sends `request` into the world from `caller` as the start of a new causal chain, runs the
    /// world until its answer is back, and returns that answer, or a JSON error for a transport
    /// failure (504 when no answer came in ``callTimeout``, 502 otherwise).
    func call(_ request: HTTPRequest, from caller: String = WorldState.callerName) -> HTTPResponse {
        if let stuck { return ServerAnswer.error(503, "The simulated world has stopped: \(stuck). Reset it with POST /_pushsim/reset.") }
        world.newCorrelation()
        var result: CallResult?
        world.call(request, from: caller, timeout: Self.callTimeout) { [unowned world] in
            result = $0
            world.requestStop()   // the answer is back: run nothing more for this request
        }
        noteEnd(world.run(until: world.now + Self.callTimeout + .seconds(1)))
        switch result {
        case .response(let response)?: return response
        case .failure(let failure)?:
            let status = failure == .timedOut ? 504 : 502
            return ServerAnswer.error(status, "\(request.authority) did not answer in the simulated world: \(failure.rawValue).")
        case nil:
            return ServerAnswer.error(503, "The simulated world has stopped: \(stuck ?? "no answer came").")
        }
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
