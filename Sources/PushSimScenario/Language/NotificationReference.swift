/// How an expectation names one of the hub's notifications.
public enum NotificationReference: Sendable, Equatable, CustomStringConvertible {
    /// Its number among the sends the hub took, from 1, in order (direct, test and scheduled sends count too).
    case number(Int)
    /// The id the hub gave it (`NH-…`, the `Location` of its send).
    case id(String)

    /// `notification 2`, `"NH-…"`.
    public var description: String {
        switch self {
        case .number(let n): return "notification \(n)"
        case .id(let id): return id
        }
    }
}
