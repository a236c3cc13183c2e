import PushSimKernel

/// The verdict of one invariant over a whole run.
public struct InvariantResult: Sendable, Equatable {
    /// Short id used in scenario files (`expect invariant cross-user-delivery broken`).
    public var id: String
    public var name: String
    /// What the invariant says, in words.
    public var statement: String
    /// True when a violation fails the run; false when violations are only reported (e.g. the
    /// tutorial flavours, whose defects break the invariant on purpose).
    public var enforced: Bool
    /// One line per violation; empty when the invariant held.
    public var violations: [String]

    public var holds: Bool { violations.isEmpty }
}

/// An invariant checker: it observes trace events as they are recorded, from outside (house
/// style rule 11), and gives a verdict at the end. Services never call checkers.
protocol InvariantChecker: AnyObject {
    func observe(_ event: TraceEvent)
    func result() -> InvariantResult
}

/// No device shows a notification sent to another user.
///
/// It follows each send's recipient by correlation id (`app.send` … `to=`) and who is logged in
/// on each device (`app.login` / `app.logout` / `device.uninstall`), and reports every
/// `notification.shown` whose device belongs to someone else.
final class CrossUserDeliveryChecker: InvariantChecker {
    let enforced: Bool
    private var recipients: [String: String] = [:]   // correlation → recipient (looked up only)
    private var users: [String: String] = [:]        // device → logged-in user (looked up only)
    private var violations: [String] = []

    init(enforced: Bool) { self.enforced = enforced }

    func observe(_ e: TraceEvent) {
        switch e.kind {
        case "app.send": if let to = e["to"] { recipients[e.correlation] = to.description }
        case "app.login": if let user = e["user"] { users[e.host] = user.description }
        case "app.logout", "device.uninstall": users[e.host] = nil
        case "notification.shown":
            guard let recipient = recipients[e.correlation], let user = users[e.host], user != recipient else { return }
            violations.append("\(e.time) \(e.host) (user \(user)) showed a notification sent to \(recipient) [\(e.correlation)]: \(e["text"]?.description ?? "")")
        default: break
        }
    }

    func result() -> InvariantResult {
        InvariantResult(id: "cross-user-delivery", name: "no cross-user delivery",
                        statement: "a device only shows notifications sent to the user logged in on it",
                        enforced: enforced, violations: violations)
    }
}

/// Nothing is sent to a handle after the hub learned it is dead, unless it was registered again
/// (what-users-expect.md; pns-fidelity.md §6: a provider stops using a handle the PNS reported).
///
/// It watches the hub's PNS feedback deletions (`hub.registration-deleted` with `dead-handle`),
/// re-registrations (`hub.registration-upserted`) and requests to a PNS (`hub.pns-request`),
/// comparing handle labels.
final class DeadHandleChecker: InvariantChecker {
    private var dead: [String: String] = [:]   // handle label → when it was reported dead (looked up only)
    private var violations: [String] = []

    func observe(_ e: TraceEvent) {
        guard e.layer == "hub", let handle = e["handle"]?.description else { return }
        switch e.kind {
        case "hub.registration-deleted" where e["dead-handle"] == .bool(true): dead[handle] = e.time.description
        case "hub.registration-upserted": dead[handle] = nil
        case "hub.pns-request":
            if let since = dead[handle] {
                violations.append("\(e.time) the hub sent \(e["notification"]?.description ?? "?") to \(handle), reported dead at \(since) [\(e.correlation)]")
            }
        default: break
        }
    }

    func result() -> InvariantResult {
        InvariantResult(id: "dead-handles", name: "no sends to dead handles",
                        statement: "nothing is sent to a handle after the hub learned it is dead, unless it was registered again",
                        enforced: true, violations: violations)
    }
}
