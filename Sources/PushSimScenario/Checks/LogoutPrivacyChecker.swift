import PushSimKernel
import PushSimNetwork

/// After a logout completes from the user's point of view, that device shows nothing more sent to
/// that user.
///
/// "Completes from the user's point of view" is the moment the app says the user is logged out
/// (`app.logout`): the app has forgotten the credentials, whether or not its `DELETE` of the
/// registration reached the backend. A message sent to that user after that moment (`app.send`,
/// or an operator send to `username:<user>`) must not appear on the device until someone logs in
/// on it again. A lost `DELETE` that is never retried leaves the registration on the hub, and the
/// phone keeps showing the old user's notifications: the privacy leak this checker exists for.
/// A logout takes time to reach the hub, so the rule allows a grace period: a message counts once
/// the backend has answered the app's unregistration (`app.call-result` of `unregister`), or
/// once ``grace`` has passed since the logout, whichever comes first. Until then a careful app is
/// still getting its `DELETE` through (a lost one times out after 60 s, then it is retried); an
/// alert that APNs or WNS puts on screen in that window cannot be stopped by any app. After it,
/// nothing may be shown: the tutorial's single, never-retried `DELETE` fails here.
///
/// Not counted either: messages sent before the logout (a push already on its way cannot be
/// called back), and messages sent while the device was offline (it could not tell anybody about
/// the logout; the push service keeps such a message and hands it over the moment the phone
/// reconnects, before the app can do anything).
final class LogoutPrivacyChecker: InvariantChecker {
    /// How long after a logout a message may still be shown while the unregistration is unanswered.
    static let grace = VirtualDuration.minutes(10)
    /// Whether a violation fails the run (every device runs the recommended client against the
    /// hardened backend); otherwise violations are reported as a note.
    let enforced: Bool
    private var recipients: [String: String] = [:]           // correlation → recipient (looked up only)
    private var sentAt: [String: VirtualTime] = [:]          // correlation → when the message was sent
    private var loggedOut: [String: (user: String, at: VirtualTime)] = [:]  // device → whom it logged out, when
    private var unregisteredAt: [String: VirtualTime] = [:]  // device → when the backend answered its unregistration
    /// Events observed so far: the order in which offline periods and sends are compared (a send
    /// and a device going offline at the same virtual time count in the order they were recorded).
    private var observed = 0
    private var offlineSince: [String: Int] = [:]            // device → event number it went offline at, while offline
    private var offlinePeriods: [String: [Range<Int>]] = [:] // device → its past offline periods, in event numbers
    private var sentEvent: [String: Int] = [:]               // correlation → event number of its first send
    private var violations: [String] = []

    init(enforced: Bool = true) { self.enforced = enforced }

    let reads: Set<TraceKind> = [.appSend, .operatorSend, .hostOffline, .hostOnline, .appLogout, .appCallResult,
                                 .appLogin, .deviceUninstall, .deviceInstall, .deviceRestore, .notificationShown]

    func observe(_ e: TraceEvent) {
        observed += 1
        switch e.kind {
        case .appSend:
            if let to = e[.to] { note(e.correlation, to.description, e.time) }
        case .operatorSend:
            if let to = e[.tags]?.description, to.hasPrefix("username:"), !to.contains(" ") { note(e.correlation, String(to.dropFirst(9)), e.time) }
        case .hostOffline: if offlineSince[e.host] == nil { offlineSince[e.host] = observed }
        case .hostOnline:
            if let since = offlineSince.removeValue(forKey: e.host) { offlinePeriods[e.host, default: []].append(since..<observed) }
        case .appLogout:
            if let user = e[.user]?.description, !user.isEmpty { loggedOut[e.host] = (user, e.time); unregisteredAt[e.host] = nil }
        case .appCallResult where e[.operation]?.description == "unregister":
            if loggedOut[e.host] != nil, unregisteredAt[e.host] == nil, let result = e[.result]?.description, Int(result) != nil {
                unregisteredAt[e.host] = e.time
            }
        case .appLogin, .deviceUninstall, .deviceInstall, .deviceRestore:
            loggedOut[e.host] = nil
        case .notificationShown:
            guard let out = loggedOut[e.host], let recipient = recipients[e.correlation], recipient == out.user,
                  let sent = sentAt[e.correlation], sent >= out.at, !wasOffline(e.host, atEvent: sentEvent[e.correlation]) else { return }
            let settled = unregisteredAt[e.host].map { sent >= $0 } ?? false
            guard settled || sent >= out.at + Self.grace else { return }   // the logout is still on its way
            violations.append("\(e.time) \(e.host) showed a notification sent to \(recipient) at \(sent), after \(recipient) logged out at \(out.at) [\(e.correlation)]: \(e[.text]?.description ?? "")")
        default: break
        }
    }

    private func note(_ correlation: String, _ recipient: String, _ time: VirtualTime) {
        recipients[correlation] = recipient
        if sentAt[correlation] == nil { sentAt[correlation] = time; sentEvent[correlation] = observed }
    }

    /// Whether `device` was offline when event number `event` was observed. O(its offline periods),
    /// asked only for a notification shown after a logout; no set of offline devices is copied per
    /// send (which cost O(devices offline) per message in a large run).
    private func wasOffline(_ device: String, atEvent event: Int?) -> Bool {
        guard let event else { return false }
        if let since = offlineSince[device], since < event { return true }
        return offlinePeriods[device]?.contains { $0.contains(event) } ?? false
    }

    func result(leftovers: [Leftover]) -> InvariantResult {
        InvariantResult(id: "logout-privacy", name: "nothing shown after logout",
                        statement: "after a user logs out of a device, it shows nothing more sent to that user",
                        enforced: enforced, violations: violations)
    }
}
