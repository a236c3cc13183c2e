import PushSimKernel

/// One way a run failed, as exploration sees it: which check, and its first complaint.
public struct ExploreFailure: Sendable, Equatable, CustomStringConvertible {
    /// `cross-user-delivery`, `dead-handles`, `accounting`, `logout-privacy` (the invariants),
    /// `convergence` (an `expect user <name> shows … on every device` expectation), `expectation` (any other), or
    /// `limit` (the run hit an event or time limit).
    public var check: String
    /// The first violation, or the failed expectation and what was seen.
    public var detail: String

    public var description: String { "\(check): \(detail)" }
}

/// The verdict of one scenario run for exploration.
public struct ExploreVerdict: Sendable, Equatable {
    /// Every failing check, in a fixed order (invariants first, then expectations, then limits).
    public var failures: [ExploreFailure]
    /// The tutorial defects marked in the trace (`defect=e`, …), sorted (``ScenarioReport/defects``).
    public var defects: [String]
    /// Events the run processed.
    public var events: Int

    /// Whether no check failed.
    public var passed: Bool { failures.isEmpty }
    /// Whether `check` is among the failures.
    public func fails(_ check: String) -> Bool { failures.contains { $0.check == check } }

    /// Judges a finished run: every invariant counts, enforced or not (exploration is looking
    /// for exactly the breakages the tutorial flavour only notes), and so does every failed
    /// expectation and a limit reached.
    public init(_ report: ScenarioReport) {
        var failures: [ExploreFailure] = []
        for invariant in report.invariants where !invariant.holds {
            failures.append(ExploreFailure(check: invariant.id, detail: invariant.violations[0]))
        }
        for result in report.results where !result.passed {
            let check = result.expectation.source.hasPrefix("expect user ") ? "convergence" : "expectation"
            failures.append(ExploreFailure(check: check, detail: "\(result.expectation.source): \(result.seen)"))
        }
        if case .limitReached(let message) = report.end { failures.append(ExploreFailure(check: "limit", detail: message)) }
        self.failures = failures
        self.defects = report.defects
        self.events = report.events
    }
}
