import PushSimKernel
import PushSimNetwork

/// Judges expectations on a world that keeps running (`pushsim serve`'s `POST /_pushsim/expect`),
/// with the same evaluator and the same invariant checkers a scenario run uses: it observes the
/// world's trace from the moment it is attached, as a run's checkers do, so an expectation asked
/// at any time gets the verdict and the explanation a scenario would print.
///
/// What it keeps grows with what the checkers and the run memory keep (logins, badges set,
/// background wakes, deliveries still being accounted for), not with every request.
public final class LiveExpectations {
    private let checkers: [InvariantChecker]
    private let memory = RunMemory()

    /// Attaches to `simulation`'s trace. `crossUserEnforced`: a notification shown to another
    /// user breaks the run (the hardened backend's standard), as ``ScenarioRunner`` decides it.
    public init(observing simulation: Simulation, crossUserEnforced: Bool) {
        checkers = InvariantCheckers.make(crossUserEnforced: crossUserEnforced, logoutPrivacyEnforced: false)
        let reads = checkers.reduce(into: RunMemory.reads) { $0.formUnion($1.reads) }
        simulation.world.observeTrace(reading: TraceInterest(reads)) { [checkers, memory] event in
            for c in checkers { c.observe(event) }
            memory.observe(event)
        }
    }

    /// Every invariant's verdict on what the world did so far, with `leftovers` its unfinished work.
    public func invariants(leftovers: [Leftover]) -> [InvariantResult] { checkers.map { $0.result(leftovers: leftovers) } }

    /// The verdict on `expectation` now: what has happened up to the world's now (or its `by`)
    /// counts, and invariants are judged on what the world has left unfinished so far.
    public func evaluate(_ expectation: Expectation, in simulation: Simulation) -> ExpectationResult {
        var invariants: [InvariantResult] = []
        if case .invariant = expectation.kind {
            invariants = self.invariants(leftovers: simulation.world.leftovers())
        }
        return ExpectationCheck.evaluate(expectation, in: simulation, memory: memory, invariants: invariants)
    }
}
