import PushSimKernel

/// One cause of failure that exploration found: the check that failed and the shape of the
/// scenario shrunk for it (``ExploreShape``), with every seed that fails that way.
public struct ExploreCause: Sendable {
    /// The violated check: an invariant's id, `convergence`, `expectation`, `limit` or `generator`.
    public var check: String
    /// The shape of ``shrunk``'s scenario; nil when failures were not shrunk (grouped by
    /// ``signature`` alone).
    public var shape: ExploreShape?
    /// The seed shrunk for the cause (the lowest seed that joined no earlier cause).
    public var representative: Explorer.Outcome
    /// The representative cut down to what its failure needs; nil when not shrunk.
    public var shrunk: Explorer.Shrunk?
    /// Every seed of the cause, ascending.
    public var seeds: [UInt64]
    /// Seeds that joined by a run of their own statements in the cause's shape (the rest were shrunk).
    public var joined: Int

    /// What tells the cause apart: the check and the shape's lines, or, unshrunk, the check and the
    /// tutorial defects the representative's trace marks.
    public var signature: String {
        if let shape { return ([check] + shape.lines).joined(separator: "\n") }
        return Self.unshrunkSignature(representative.verdict)
    }

    /// How the cause is headed: its check, and unshrunk, the defects marked.
    public var label: String { shape == nil ? Self.unshrunkSignature(representative.verdict) : check }

    /// A short stable name for the cause, the same in every process and shard: 8 hex digits of
    /// FNV-1a over ``signature``.
    public var id: String {
        var h = fnv1a64(signature.utf8)   // then mixed (MurmurHash3's finalizer): nearby signatures, distant ids
        h ^= h >> 33; h &*= 0xff51_afd7_ed55_8ccd; h ^= h >> 33
        let hex = String(h >> 32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// The signature of a failure that is not shrunk: its first check and the defects marked.
    static func unshrunkSignature(_ verdict: ExploreVerdict) -> String {
        (verdict.failures.first?.check ?? "") + (verdict.defects.isEmpty ? "" : " · defects " + verdict.defects.joined(separator: ","))
    }
}

/// Groups failing seeds by cause, shrinking one seed per cause rather than every seed.
///
/// Seeds are taken in ascending order. A seed first tries to *join* each cause found so far that
/// failed the same check (in the order they were found): its own scenario cut to the statements
/// that have the cause's shape, names mapped onto its own devices and users (``ExploreShape``,
/// at most ``joinTries`` ways, each one run), must still fail that check. A seed that joins no cause is
/// shrunk (``Explorer/shrink(_:check:defect:requiring:maxRuns:)``); when its shrunk scenario has the
/// shape of a cause already found for the same check it joins that cause, otherwise it founds a
/// new one. A join is a few runs; a shrink is hundreds.
///
/// The grouping is a function of the failing seeds alone: the same for any `batch` (how many
/// seeds are shrunk at once, ahead of knowing whether they will be needed) and any `map` (which
/// may run its items on several threads; the seeds of a batch are then taken in order again).
/// Without shrinking, seeds are grouped by their check and the tutorial defects their traces mark.
public enum ExploreGrouping {
    /// The work one item of a ``Map`` does.
    public enum Step: Sendable {
        /// A seed shrunk.
        case shrunk(Explorer.Shrunk?)
        /// The cause a seed joined (an index into the causes found so far), and the runs it took.
        case joined(Int?, runs: Int)
    }

    /// Runs `body` on each seed and returns the results in the order of `seeds` (sequentially, or
    /// on several threads: each item is independent).
    public typealias Map = (_ seeds: [UInt64], _ body: @escaping @Sendable (UInt64) -> Step) -> [Step]

    /// Ways of cutting a seed to a cause's shape that are tried (one run each).
    public static let joinTries = 4

    /// What grouping did besides the causes.
    public struct Work: Sendable, Equatable {
        /// Seeds shrunk: those that founded a cause or were found to have a known cause's shape,
        /// and those shrunk ahead in a batch that then joined a cause (``unneeded``).
        public var shrunk = 0
        /// Seeds shrunk ahead in a batch that joined a cause all the same.
        public var unneeded = 0
        /// Seeds that joined a cause by a run of their own statements in its shape (``unneeded`` of
        /// them had been shrunk ahead).
        public var joined = 0
        /// Candidate runs the shrinking took.
        public var shrinkRuns = 0
        /// Runs that tried a seed against a cause's shape.
        public var joinRuns = 0
    }

    /// The causes of `failing` (each outcome must have failed), largest first, ties by their
    /// lowest seed.
    public static func causes(of failing: [Explorer.Outcome], shrink: Bool = true, batch: Int = 1,
                              map: Map = { seeds, body in seeds.map(body) }) -> (causes: [ExploreCause], work: Work) {
        var pending = failing.filter { !$0.verdict.passed }.sorted { $0.seed < $1.seed }
        var causes: [ExploreCause] = []
        var work = Work()
        guard shrink else {
            var index: [String: Int] = [:]   // signature → cause (looked up only)
            for outcome in pending {
                let signature = ExploreCause.unshrunkSignature(outcome.verdict)
                if let c = index[signature] { causes[c].seeds.append(outcome.seed); continue }
                index[signature] = causes.count
                causes.append(ExploreCause(check: outcome.verdict.failures[0].check, shape: nil, representative: outcome, shrunk: nil,
                                           seeds: [outcome.seed], joined: 0))
            }
            return (sorted(causes), work)
        }
        var byOutcome: [UInt64: Explorer.Outcome] = [:]   // seed → outcome (looked up only)
        var shapes: [UInt64: ExploreShape] = [:]          // seed → the shape of its unshrunk scenario (looked up only)
        for outcome in pending { byOutcome[outcome.seed] = outcome; shapes[outcome.seed] = ExploreShape(outcome.scenario) }
        var tested: [UInt64: Int] = [:]   // seed → how many of the first causes it has been tried against
        let lookup = byOutcome, shapeOf = shapes
        while !pending.isEmpty {
            let ahead = Array(pending.prefix(max(1, batch)))
            pending.removeFirst(ahead.count)
            let shrunk = map(ahead.map(\.seed)) { seed in
                let outcome = lookup[seed]!
                return .shrunk(Explorer.shrink(outcome, check: outcome.verdict.failures[0].check))
            }
            for (outcome, step) in zip(ahead, shrunk) {
                guard case .shrunk(let s) = step, let s else { continue }   // a failing outcome always shrinks
                work.shrunk += 1
                work.shrinkRuns += s.runs
                let (found, runs) = join(outcome, shapeOf[outcome.seed]!, causes, from: tested[outcome.seed] ?? 0)
                work.joinRuns += runs
                if let found { causes[found].seeds.append(outcome.seed); causes[found].joined += 1; work.joined += 1; work.unneeded += 1; continue }
                let check = outcome.verdict.failures[0].check
                let shape = ExploreShape(s.scenario)
                if let same = causes.firstIndex(where: { $0.check == check && $0.shape == shape }) {
                    causes[same].seeds.append(outcome.seed)
                } else {
                    causes.append(ExploreCause(check: check, shape: shape, representative: outcome, shrunk: s, seeds: [outcome.seed], joined: 0))
                }
            }
            guard !pending.isEmpty else { break }
            let known = causes, testedSoFar = tested
            let tries = map(pending.map(\.seed)) { seed in
                let (found, runs) = join(lookup[seed]!, shapeOf[seed]!, known, from: testedSoFar[seed] ?? 0)
                return .joined(found, runs: runs)
            }
            var left: [Explorer.Outcome] = []
            for (outcome, step) in zip(pending, tries) {
                guard case .joined(let found, let runs) = step else { continue }
                work.joinRuns += runs
                if let found { causes[found].seeds.append(outcome.seed); causes[found].joined += 1; work.joined += 1 } else {
                    tested[outcome.seed] = known.count
                    left.append(outcome)
                }
            }
            pending = left
        }
        return (sorted(causes), work)
    }

    /// The first of `causes[from...]` that `outcome` joins (``ExploreGrouping``), and the runs tried.
    static func join(_ outcome: Explorer.Outcome, _ own: ExploreShape, _ causes: [ExploreCause], from: Int) -> (Int?, runs: Int) {
        guard let check = outcome.verdict.failures.first?.check, from < causes.count else { return (nil, 0) }
        var runs = 0
        let premise = ExploreWorkload.convergencePremise(of: outcome.scenario)
        for c in from..<causes.count where causes[c].check == check {
            guard let shape = causes[c].shape else { continue }
            var tried = 0
            for text in shape.embeddings(in: own, limit: joinTries * 4) where tried < joinTries && premise(text) {
                tried += 1
                runs += 1
                if Explorer.verdict(of: text, path: "explore-\(outcome.seed).scenario", planted: outcome.planted)?.fails(check) == true {
                    return (c, runs)
                }
            }
        }
        return (nil, runs)
    }

    /// Largest cause first; ties by lowest seed. Seeds ascending.
    static func sorted(_ causes: [ExploreCause]) -> [ExploreCause] {
        causes.map { c in var c = c; c.seeds.sort(); return c }
            .sorted { ($0.seeds.count, $1.seeds[0]) > ($1.seeds.count, $0.seeds[0]) }
    }
}
