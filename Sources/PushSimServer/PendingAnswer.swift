import PushSimKernel
import PushSimNetwork

/// What a request handler gives back: its answer now, or a wait for the world to produce it.
enum Outcome {
    /// The answer, ready.
    case answer(HTTPResponse)
    /// The answer comes when the world has done something (a call answered, a device's work
    /// finished, a notification shown, virtual time reached).
    case wait(Wait)
}

/// A condition on the world and the answer to build once it holds.
///
/// `isDone` is asked after every event the world runs while the wait is open, and after every
/// stretch the world runs, so the answer is built at the very event that made it true: the same
/// event in a replay as in the served run, whatever the wall clock did in between.
struct Wait {
    /// Whether the answer can be built now.
    var isDone: () -> Bool
    /// Builds the answer (called once, right after `isDone` first holds).
    var finish: () -> HTTPResponse
    /// For a wait bounded by the wall clock (a long poll): seconds of wall time after which
    /// `expire` builds the answer instead, whether or not `isDone` holds. Nil: bounded by the
    /// world itself (a call's timeout, a virtual instant).
    var wallSeconds: Double? = nil
    /// The answer when `wallSeconds` ran out first.
    var expire: (() -> HTTPResponse)? = nil
    /// Under `--clock manual` (and in a replay), how far the world may run ahead on its own to
    /// make `isDone` hold: a call's timeout, a settle's length. Nil: it never runs the world (a
    /// long poll waits for other requests to do that).
    var virtualLimit: VirtualDuration? = nil
}

/// A request entered into the world whose answer is not built yet (see ``Wait``), with what the
/// record needs when it is: the request, where it came from and when it arrived.
final class PendingAnswer {
    /// Numbers the requests in the order they entered the world (from 1, never reset).
    let ticket: Int
    let request: WireRequest
    let connection: Int
    /// The route the request took: `control`, a world host's name, or `none`.
    let route: String
    /// Virtual time when it entered the world.
    let arrived: VirtualTime
    let wait: Wait
    /// Monotonic wall-clock nanoseconds after which the wait expires (from ``Wait/wallSeconds``).
    let wallDeadline: UInt64?
    /// Under `manual` and in a replay: the virtual instant by which the world runs to make it hold.
    let virtualDeadline: VirtualTime?
    /// In a replay: the virtual instant at which the recorded run gave up waiting (a long poll
    /// that ended by its wall-clock bound); the replay ends the wait there.
    var replayExpiry: VirtualTime?
    /// The answer, once built.
    var response: HTTPResponse?
    /// Whether the answer came from ``Wait/expire`` (the wall-clock bound), not ``Wait/isDone``.
    var expired = false

    init(ticket: Int, request: WireRequest, connection: Int, route: String, arrived: VirtualTime, wait: Wait,
         wallNow: UInt64) {
        self.ticket = ticket
        self.request = request
        self.connection = connection
        self.route = route
        self.arrived = arrived
        self.wait = wait
        wallDeadline = wait.wallSeconds.map { wallNow &+ UInt64(max(0, $0) * 1_000_000_000) }
        virtualDeadline = wait.virtualLimit.map { arrived + $0 }
    }
}
