/// Cuts a failing scenario down to the statements the failure needs.
///
/// Delta debugging (Zeller's ddmin) over the file's removable units: try removing chunks of
/// units, halving the chunk size when nothing can go, then single units until none can be
/// removed, then single statements. A unit is one statement, or a group of statements that only make sense together
/// (``Unit/group(_:)``: a device's declaration with its steps of the healed phase; a convergence
/// expectation with the sends it waits for), which go or stay as one. Fixed statements (the
/// `scenario` and `seed` lines, and any the caller marks) always stay. A candidate that no longer
/// parses (say, a step whose device declaration was removed) simply does not count as failing.
/// The predicate must be deterministic, which every PushSim run is: same text, same seed, same run.
public struct ScenarioShrinker {
    /// How a statement is removed.
    public enum Unit: Hashable, Sendable {
        /// Never removed.
        case fixed
        /// Removed on its own.
        case alone
        /// Removed together with every other statement of the same group.
        case group(String)
    }

    /// Most candidate runs before giving up with what has been reached (each is one run).
    public var maxRuns: Int
    /// Candidate runs made by the last `shrink(_:unitOf:keepsFailing:)`.
    public private(set) var runs = 0

    /// A shrinker allowed `maxRuns` candidate runs (default 5,000).
    public init(maxRuns: Int = 5_000) { self.maxRuns = maxRuns }

    /// The smallest text found for which `keepsFailing` still holds; `text` itself must hold.
    /// Comments and blank lines are dropped; `units[i]` says how the i-th statement is removed
    /// (by default each on its own; `scenario` and `seed` lines are always fixed).
    public mutating func shrink(_ text: String, units given: [Unit]? = nil, keepsFailing: (String) -> Bool) -> String {
        runs = 0
        let lines = Self.statements(text)
        // Each removable unit is a list of line indexes; fixed lines belong to none.
        var unitIndex: [Unit: Int] = [:]   // group → its position in `units` (looked up only)
        var units: [[Int]] = []
        for (i, line) in lines.enumerated() {
            let unit: Unit = line.hasPrefix("scenario ") || line.hasPrefix("seed ") ? .fixed : (given.map { i < $0.count ? $0[i] : .alone } ?? .alone)
            switch unit {
            case .fixed: continue
            case .alone: units.append([i])
            case .group:
                if let k = unitIndex[unit] { units[k].append(i) } else { unitIndex[unit] = units.count; units.append([i]) }
            }
        }
        func render(_ removed: Set<Int>) -> String {
            lines.indices.filter { !removed.contains($0) }.map { lines[$0] }.joined(separator: "\n") + "\n"
        }
        func test(_ kept: [[Int]]) -> Bool {
            guard runs < maxRuns else { return false }
            runs += 1
            let keptLines = Set(kept.joined())
            let removed = Set(units.joined()).subtracting(keptLines)
            return keepsFailing(render(removed))
        }
        var items = units
        var chunks = 2
        while items.count >= 2 {
            let size = (items.count + chunks - 1) / chunks
            var reduced = false
            for start in stride(from: 0, to: items.count, by: size) {
                var candidate = items
                candidate.removeSubrange(start..<min(items.count, start + size))
                if test(candidate) {
                    items = candidate
                    chunks = max(chunks - 1, 2)
                    reduced = true
                    break
                }
            }
            if !reduced {
                if chunks >= items.count { break }
                chunks = min(items.count, chunks * 2)
            }
        }
        // One unit at a time until nothing more can go; then one statement at a time, groups
        // broken up (a statement of a group that is no longer needed as a whole may still be).
        for split in [false, true] {
            if split { items = items.joined().map { [$0] } }
            var removedOne = true
            while removedOne {
                removedOne = false
                for i in items.indices.reversed() {
                    var candidate = items
                    candidate.remove(at: i)
                    if test(candidate) { items = candidate; removedOne = true }
                }
            }
        }
        return render(Set(units.joined()).subtracting(Set(items.joined())))
    }

    /// The statements of `text`: its non-blank lines that are not comments, in order.
    public static func statements(_ text: String) -> [String] {
        text.split(separator: "\n").filter { let t = $0.trimmingPrefixSpaces; return !t.isEmpty && !t.hasPrefix("#") }.map(String.init)
    }

    /// Statements in `text`: non-blank lines that are not comments.
    public static func statementCount(_ text: String) -> Int { statements(text).count }
}

extension StringProtocol {
    var trimmingPrefixSpaces: SubSequence { drop(while: { $0 == " " || $0 == "\t" }) }
}
