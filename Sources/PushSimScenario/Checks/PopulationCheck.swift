import PushSimKernel
import PushSimDevices

/// Checks an expectation over a population (`expect every device in fans shows "Goal!"`,
/// `expect 5000 of fans show "Goal!"`, `expect none of fans shows nothing`).
///
/// The check runs once, after the run (never per event): one look-up per member and one pass over
/// what that member showed, so O(members + notifications shown) in all. A failure says how many
/// members matched and names at most ``namedAtMost`` of the members that made it fail, in member
/// order: those that did not match when too few did, those that did when too many did.
enum PopulationCheck {
    /// How many offending members a failure names; the rest are counted.
    static let namedAtMost = 5

    /// The outcome of one population expectation.
    struct Verdict: Equatable {
        var passed: Bool
        /// Members that satisfied the predicate.
        var matched: Int
        var total: Int
        /// Whether the offenders named are members that matched (too many did) or that did not.
        var offendersMatched: Bool
        /// The first offenders, in member order, with what each showed (for counts).
        var offenders: [String]
        /// How many offenders there are in all.
        var offenderCount: Int

        /// `10 of 30 devices in fans showed "Goal"; not fans-2, fans-3, … (20 in all)`
        func describe(population: String, predicate: MemberPredicate) -> String {
            var s = "\(matched) of \(total) device\(total == 1 ? "" : "s") in \(population) \(PopulationCheck.describe(predicate))"
            guard !offenders.isEmpty else { return s }
            s += offendersMatched ? "; among them " : "; not "
            s += offenders.joined(separator: ", ")
            if offenderCount > offenders.count { s += ", … (\(offenderCount) in all)" }
            return s
        }
    }

    /// Evaluates `predicate` on each member (only what was shown by `by` counts) and `quantifier`
    /// on how many satisfied it.
    static func evaluate(members: [String], quantifier: PopulationQuantifier, predicate: MemberPredicate,
                         by: VirtualTime, in simulation: Simulation) -> Verdict {
        var matches = [Bool]()
        matches.reserveCapacity(members.count)
        var shownCounts = [Int]()
        shownCounts.reserveCapacity(members.count)
        for member in members {
            let (matched, shown) = check(predicate, on: simulation.device(member), by: by)
            matches.append(matched)
            shownCounts.append(shown)
        }
        let matched = matches.lazy.filter { $0 }.count
        let passed = quantifier.holds(count: matched, of: members.count)
        // Too many matched: name those that did; too few: those that did not.
        let tooMany: Bool
        switch quantifier {
        case .none, .atMost: tooMany = true
        case .every, .atLeast: tooMany = false
        case .exactly(let n): tooMany = matched > n
        }
        var offenders: [String] = []
        var offenderCount = 0
        if !passed {
            for (i, member) in members.enumerated() where matches[i] == tooMany {
                offenderCount += 1
                guard offenders.count < namedAtMost else { continue }
                switch predicate {
                case .shows: offenders.append(member)
                case .showsNothing, .showsCount: offenders.append("\(member) (\(shownCounts[i]) shown)")
                }
            }
        }
        return Verdict(passed: passed, matched: matched, total: members.count, offendersMatched: tooMany,
                       offenders: offenders, offenderCount: offenderCount)
    }

    /// Whether one device satisfies the predicate, and how many notifications it showed by `by`.
    /// A member missing from the world (it cannot be, the parser declares every member) matches nothing.
    private static func check(_ predicate: MemberPredicate, on device: Device?, by: VirtualTime) -> (Bool, Int) {
        guard let device else { return (false, 0) }
        var shown = 0
        var sawText = false
        for n in device.inbox where n.time <= by {
            shown += 1
            if case .shows(let text) = predicate, n.text == text { sawText = true }
        }
        switch predicate {
        case .shows: return (sawText, shown)
        case .showsNothing: return (shown == 0, shown)
        case .showsCount(let count): return (shown == count, shown)
        }
    }

    /// `showed "Goal"`, `showed nothing`, `showed 2 notifications`
    static func describe(_ predicate: MemberPredicate) -> String {
        switch predicate {
        case .shows(let text): return "showed \(jsonString(text))"
        case .showsNothing: return "showed nothing"
        case .showsCount(let n): return "showed \(n) notification\(n == 1 ? "" : "s")"
        }
    }
}
