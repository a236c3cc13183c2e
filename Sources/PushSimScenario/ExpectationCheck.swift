import PushSimKernel
import PushSimDevices

/// The verdict on one expectation, with what was seen when it failed.
public struct ExpectationResult: Sendable, Equatable {
    public var expectation: Expectation
    public var passed: Bool
    /// What the run actually showed, in words (empty when passed).
    public var seen: String
}

/// Checks expectations against what the devices recorded.
enum ExpectationCheck {
    static func evaluate(_ e: Expectation, in simulation: Simulation) -> ExpectationResult {
        let by = e.by ?? VirtualTime(microseconds: .max)
        func result(_ passed: Bool, _ seen: @autoclosure () -> String) -> ExpectationResult {
            ExpectationResult(expectation: e, passed: passed, seen: passed ? "" : seen())
        }
        switch e.kind {
        case .shows(let name, let text):
            let shown = simulation.device(name)?.inbox.filter { $0.time <= by } ?? []
            return result(shown.contains { $0.text == text }, describe(shown, name))
        case .showsNothing(let name):
            let shown = simulation.device(name)?.inbox.filter { $0.time <= by } ?? []
            return result(shown.isEmpty, describe(shown, name))
        case .showsCount(let name, let count):
            let shown = simulation.device(name)?.inbox.filter { $0.time <= by } ?? []
            return result(shown.count == count, describe(shown, name))
        case .status(let name, let op, let code):
            let calls = simulation.device(name)?.calls.filter { $0.operation == op && $0.completedAt <= by } ?? []
            let seen = calls.isEmpty ? "\(name) made no \(op.rawValue) call" + (e.by == nil ? "" : " by \(by)")
                : "\(op.rawValue) answers: " + calls.map { "\($0.status.map(String.init) ?? $0.failure ?? "?") at \($0.completedAt)" }.joined(separator: ", ")
            return result(calls.contains { $0.status == code }, seen)
        }
    }

    private static func describe(_ shown: [ShownNotification], _ device: String) -> String {
        if shown.isEmpty { return "\(device) showed nothing" }
        return "\(device) showed " + shown.map { "\(jsonString($0.text)) at \($0.time)" }.joined(separator: ", ")
    }
}
