import PushSimKernel
import PushSimNetwork

/// The verdict of one invariant over a whole run.
public struct InvariantResult: Sendable, Equatable {
    /// Short id used in scenario files (`expect invariant cross-user-delivery broken`).
    public var id: String
    /// Its name in reports (`no cross-user delivery`).
    public var name: String
    /// What the invariant says, in words.
    public var statement: String
    /// True when a violation fails the run; false when violations are only reported (e.g. the
    /// tutorial flavours, whose defects break the invariant on purpose).
    public var enforced: Bool
    /// One line per violation; empty when the invariant held.
    public var violations: [String]

    /// Whether no violation was seen.
    public var holds: Bool { violations.isEmpty }
}

/// An invariant checker: it observes trace events as they are recorded, from outside (design
/// rule 11), and gives a verdict at the end. Services never call checkers.
protocol InvariantChecker: AnyObject {
    /// The kinds of event the checker reads: while a run's trace is not kept, events nobody reads
    /// are not built. It must name every kind its ``observe(_:)`` acts on (a kind left out is
    /// never seen then), and ignore the others, which it may still be given.
    var reads: Set<TraceKind> { get }
    func observe(_ event: TraceEvent)
    /// The verdict once the run is over; `leftovers` is what the run left unfinished.
    func result(leftovers: [Leftover]) -> InvariantResult
}

/// The run's invariant checkers, fresh, in the order reports list them (cross-user delivery,
/// dead handles, accounting, logout privacy): the one list a scenario run, a hand-built
/// simulation's check and the tests draw from. `crossUserEnforced` and `logoutPrivacyEnforced`
/// false report those invariants' violations as notes (the tutorial's defects break them on purpose).
enum InvariantCheckers {
    static func make(crossUserEnforced: Bool, logoutPrivacyEnforced: Bool) -> [InvariantChecker] {
        [CrossUserDeliveryChecker(enforced: crossUserEnforced), DeadHandleChecker(), AccountingChecker(),
         LogoutPrivacyChecker(enforced: logoutPrivacyEnforced)]
    }
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

/// Nothing is sent to a handle after the hub learned it is dead, unless it was registered again
/// (Citations §6: a provider stops using a handle the PNS reported).
///
/// It watches the hub's PNS feedback (`hub.registration-deleted` and
/// `hub.installation-channel-expired` with `dead-handle`), re-registrations
/// (`hub.registration-upserted`, `hub.installation-upserted`, `hub.installation-patched`) and
/// requests to a PNS (`hub.pns-request`), comparing handle labels.
final class DeadHandleChecker: InvariantChecker {
    private var dead: [String: String] = [:]   // handle label → when it was reported dead (looked up only)
    private var violations: [String] = []

    let reads: Set<TraceKind> = [.hubRegistrationDeleted, .hubInstallationChannelExpired, .hubRegistrationUpserted,
                                 .hubInstallationUpserted, .hubInstallationPatched, .hubPNSRequest]

    func observe(_ e: TraceEvent) {
        guard e.layer == "hub", let handle = e[.handle]?.description else { return }
        switch e.kind {
        case .hubRegistrationDeleted where e[.deadHandle] == .bool(true),
             .hubInstallationChannelExpired where e[.deadHandle] == .bool(true):
            dead[handle] = e.time.description
        case .hubRegistrationUpserted, .hubInstallationUpserted, .hubInstallationPatched: dead[handle] = nil
        case .hubPNSRequest:
            if let since = dead[handle] {
                violations.append("\(e.time) the hub sent \(e[.notification]?.description ?? "?") to \(handle), reported dead at \(since) [\(e.correlation)]")
            }
        default: break
        }
    }

    func result(leftovers: [Leftover]) -> InvariantResult {
        InvariantResult(id: "dead-handles", name: "no sends to dead handles",
                        statement: "nothing is sent to a handle after the hub learned it is dead, unless it was registered again",
                        enforced: true, violations: violations)
    }
}

/// Every notification is accounted for: each copy the hub hands to a PNS, and each message a PNS
/// accepts, ends delivered to a device, dropped with a reason, or still pending (listed in the
/// run's leftovers). Anything else was lost silently.
///
/// It follows copies by `notification/registration` from `hub.pns-request` to `hub.pns-accepted`
/// or a hub `notification.dropped`, and messages by the PNS's id from `hub.pns-accepted` to the
/// device (`device.push-received`, `device.push-refused`) or a service's `notification.dropped`.
final class AccountingChecker: InvariantChecker {
    /// A copy or message not yet ended: what its violation would name, kept as fields and written
    /// out only if it is reported (most never are; formatting each one cost ~2% of a large run).
    private struct Open {
        var notification: String
        var detail: String   // the registration (a copy) or the message id (a message)
        var since: VirtualTime
        var correlation: String
    }
    /// A copy of a notification for one registration (hashed as its two parts: no key text is
    /// built per copy). Violations list copies in the order of `<notification>/<registration>`.
    private struct CopyKey: Hashable, Comparable {
        var notification: String
        var registration: String
        var text: String { notification + "/" + registration }
        static func < (a: CopyKey, b: CopyKey) -> Bool { a.text < b.text }
    }
    private var copies: [CopyKey: Open] = [:]    // the copy (looked up; reported sorted)
    private var messages: [String: Open] = [:]   // PNS message id → the message
    /// Messages that already ended: on a slow hub–PNS link the device can have a push before the
    /// hub hears the PNS's 200 (membership tests only, never iterated).
    private var ended: Set<String> = []
    private var violations: [String] = []

    let reads: Set<TraceKind> = [.hubPNSRequest, .hubPNSAccepted, .notificationDropped, .devicePushReceived, .devicePushRefused]

    func observe(_ e: TraceEvent) {
        func f(_ k: TraceFieldName) -> String { e[k]?.description ?? "" }
        // The kind before the layer: kinds compare by a precomputed hash, layers as strings.
        switch e.kind {
        case .hubPNSRequest where e.layer == "hub":
            let notification = f(.notification), registration = f(.registration)
            let key = CopyKey(notification: notification, registration: registration)
            if copies[key] == nil { copies[key] = Open(notification: notification, detail: registration, since: e.time, correlation: e.correlation) }
        case .hubPNSAccepted where e.layer == "hub":
            let notification = f(.notification)
            copies[CopyKey(notification: notification, registration: f(.registration))] = nil
            let id = f(.message)
            if !id.isEmpty && !ended.contains(id) {
                messages[id] = Open(notification: notification, detail: id, since: e.time, correlation: e.correlation)
            }
        case .notificationDropped where e.layer == "hub":
            copies[CopyKey(notification: f(.notification), registration: f(.registration))] = nil
        case .notificationDropped:
            // A push service's drop, read under the field that service records its ids in.
            if let service = PushServiceDescriptor.named(e.layer) { end(f(service.messageIDField)) }
        case .devicePushReceived where e.layer == "device", .devicePushRefused where e.layer == "device": end(f(.message))
        default: break
        }
    }

    private func end(_ id: String) {
        messages[id] = nil
        ended.insert(id)
    }

    func result(leftovers: [Leftover]) -> InvariantResult {
        let report = LeftoverReport(leftovers)
        for (_, copy) in copies.sorted(by: { $0.key < $1.key }) where !report.mentions(copy.notification) {
            violations.append("the hub's copy \(copy.notification) for registration \(copy.detail) (since \(copy.since), \(copy.correlation)) "
                              + "neither reached its PNS nor was dropped, and is not reported pending")
        }
        for (id, message) in messages.sorted(by: { $0.key < $1.key }) where !report.mentions(id) {
            violations.append("message \(id) of \(message.notification) (accepted \(message.since), \(message.correlation)) "
                              + "was neither delivered nor dropped, and is not reported pending")
        }
        return InvariantResult(id: "accounting", name: "every notification accounted for",
                               statement: "each notification ends delivered, dropped with a reason, or reported pending",
                               enforced: true, violations: violations)
    }
}

/// What the run left pending, asked whether it holds an id (a hub notification id or a PNS
/// message id): the ids each host's ``Leftover``s name, in a set (membership only, never
/// iterated), so a run that ends with 10,000 messages pending asks in O(1) each, and nothing
/// depends on how a leftover's line is worded.
struct LeftoverReport {
    private let pending: Set<String>

    init(_ leftovers: [Leftover]) {
        pending = Set(leftovers.flatMap(\.pendingIDs))
    }

    /// Whether some leftover holds `id`.
    func mentions(_ id: String) -> Bool { pending.contains(id) }
}
