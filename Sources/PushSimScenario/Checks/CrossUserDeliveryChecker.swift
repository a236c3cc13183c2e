import PushSimKernel
import PushSimNetwork

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

    let reads: Set<TraceKind> = [.appSend, .appLogin, .appLogout, .deviceUninstall, .notificationShown]

    func observe(_ e: TraceEvent) {
        switch e.kind {
        case .appSend: if let to = e[.to] { recipients[e.correlation] = to.description }
        case .appLogin: if let user = e[.user] { users[e.host] = user.description }
        case .appLogout, .deviceUninstall: users[e.host] = nil
        case .notificationShown:
            guard let recipient = recipients[e.correlation], let user = users[e.host], user != recipient else { return }
            violations.append("\(e.time) \(e.host) (user \(user)) showed a notification sent to \(recipient) [\(e.correlation)]: \(e[.text]?.description ?? "")")
        default: break
        }
    }

    func result(leftovers: [Leftover]) -> InvariantResult {
        InvariantResult(id: "cross-user-delivery", name: "no cross-user delivery",
                        statement: "a device only shows notifications sent to the user logged in on it",
                        enforced: enforced, violations: violations)
    }
}
