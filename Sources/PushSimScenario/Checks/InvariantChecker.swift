import PushSimKernel
import PushSimNetwork

/// The verdict of one invariant over a whole run.
public struct InvariantResult: Sendable, Equatable {
    /// Short id used in scenario files (`expect invariant cross-user-delivery broken`).
    public var id: String
    /// Its name in reports (`no cross-user delivery`).
    public var name: String
    /// What the invariant says, in words.
    public var statement: String
    /// True when a violation fails the run; false when violations are only reported (e.g. the
    /// tutorial flavours, whose defects break the invariant on purpose).
    public var enforced: Bool
    /// One line per violation; empty when the invariant held.
    public var violations: [String]

    /// Whether no violation was seen.
    public var holds: Bool { violations.isEmpty }
}

/// An invariant checker: it observes trace events as they are recorded, from outside (design
/// rule 11), and gives a verdict at the end. Services never call checkers.
protocol InvariantChecker: AnyObject {
    /// The kinds of event the checker reads: while a run's trace is not kept, events nobody reads
    /// are not built. It must name every kind its ``observe(_:)`` acts on (a kind left out is
    /// never seen then), and ignore the others, which it may still be given.
    var reads: Set<TraceKind> { get }
    func observe(_ event: TraceEvent)
    /// The verdict once the run is over; `leftovers` is what the run left unfinished.
    func result(leftovers: [Leftover]) -> InvariantResult
}

/// The run's invariant checkers, fresh, in the order reports list them (cross-user delivery,
/// dead handles, accounting, logout privacy): the one list a scenario run, a hand-built
/// simulation's check and the tests draw from. `crossUserEnforced` and `logoutPrivacyEnforced`
/// false report those invariants' violations as notes (the tutorial's defects break them on purpose).
enum InvariantCheckers {
    static func make(crossUserEnforced: Bool, logoutPrivacyEnforced: Bool) -> [InvariantChecker] {
        [CrossUserDeliveryChecker(enforced: crossUserEnforced), DeadHandleChecker(), AccountingChecker(),
         LogoutPrivacyChecker(enforced: logoutPrivacyEnforced)]
    }
}
