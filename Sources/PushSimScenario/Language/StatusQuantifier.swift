/// Which answers a status expectation asks about when the device or the operator made the call
/// several times by the deadline (`expect bob-iphone register status every 200`). Calls are taken
/// in the order they were made (the time each was sent; answers to calls sent at the same instant
/// in the order they arrived). A call lost or timed out has no status, which no pattern matches.
public enum StatusQuantifier: String, Equatable, Sendable, CaseIterable {
    /// No word after `status`: some answer matches (a 410, then a 200 on a retry, holds for 410).
    case any
    /// `first`: the answer to the first call made matches.
    case first
    /// `last`: the answer to the last call made matches.
    case last
    /// `every`: at least one call was made, and every answer matches.
    case every
    /// `never`: no answer matches; true when no call was made.
    case never

    /// The words a scenario writes after `status` (every case but ``any``, which is written as nothing).
    static let words = allCases.filter { $0 != .any }.map(\.rawValue)

    /// Whether the statuses of the answers, in the order the calls were made (nil: no answer),
    /// satisfy this quantifier for `pattern`.
    public func holds(_ pattern: StatusPattern, answers: [Int?]) -> Bool {
        switch self {
        case .any: return answers.contains { pattern.matches($0) }
        case .first: return answers.first.map { pattern.matches($0) } ?? false
        case .last: return answers.last.map { pattern.matches($0) } ?? false
        case .every: return !answers.isEmpty && answers.allSatisfy { pattern.matches($0) }
        case .never: return !answers.contains { pattern.matches($0) }
        }
    }
}
