import PushSimKernel
import PushSimNetwork
import PushSimServices

/// Every notification is accounted for: each copy the hub hands to a PNS, and each message a PNS
/// accepts, ends delivered to a device, dropped with a reason, or still pending (listed in the
/// run's leftovers). Anything else was lost silently.
///
/// It follows copies by `notification/registration` from `hub.pns-request` to `hub.pns-accepted`
/// or a hub `notification.dropped`, and messages by the PNS's id from `hub.pns-accepted` to the
/// device (`device.push-received`, `device.push-refused`) or a service's `notification.dropped`;
/// a message to a browser ends when the Web Push service hands it over (`webpush.delivered`) or
/// its `TTL` or a newer message of its `Topic` ends it (`webpush.expired`, `webpush.replaced`).
///
/// An FCM topic or condition send is one message with many copies, all under one name: FCM's
/// `fcm.fan-out` says how many it hands out, and the message is open until that many copies
/// have ended (each reached a device, was refused by one, or was dropped), or are still pending
/// in FCM's leftovers. A fan-out to N devices is N deliveries to account for.
final class AccountingChecker: InvariantChecker {
    /// A copy or message not yet ended: what its violation would name, kept as fields and written
    /// out only if it is reported (most never are; formatting each one cost ~2% of a large run).
    private struct Open {
        var notification: String
        var detail: String   // the registration (a copy) or the message id (a message)
        var since: VirtualTime
        var correlation: String
        /// Copies still to end: 1 for a message to one device, N for FCM's fan-out to N.
        var remaining = 1
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
    /// Messages that ended before the hub heard the PNS accept them: on a slow hub–PNS link the
    /// device can have a push before the hub hears the PNS's 200 (membership tests only, never
    /// iterated). Kept only while the hub has a copy in flight, forgotten when the accept comes
    /// or once none can come any more (``endedKeptFor``): a message sent straight to a PNS (by an
    /// SDK through `pushsim serve`) never gets one, and a server sent to for days must not keep
    /// every id it delivered.
    private var ended: Set<String> = []
    /// The ids in ``ended`` with when each ended, oldest first, from ``endedHead`` on.
    private var endedOrder: [(time: VirtualTime, id: String)] = []
    private var endedHead = 0
    /// How long an ended message waits for the hub's accept: twice the hub's call timeout to its
    /// PNS (30 s, ``World/call(_:from:timeout:then:)``'s default). The PNS delivered while the
    /// hub's call was open, so the hub hears the 200, or gives the call up, within 30 s of that.
    static let endedKeptFor = VirtualDuration.seconds(60)
    /// How many ended ids are remembered now (for the test that holds memory flat).
    var endedCount: Int { ended.count }
    private var violations: [String] = []

    let reads: Set<TraceKind> = [.hubPNSRequest, .hubPNSAccepted, .notificationDropped, .devicePushReceived, .devicePushRefused, .fcmFanOut,
                                 .webPushDelivered, .webPushExpired, .webPushReplaced]

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
            if !id.isEmpty && ended.remove(id) == nil {
                messages[id] = Open(notification: notification, detail: id, since: e.time, correlation: e.correlation)
            }
        case .fcmFanOut where e.layer == FCMService.name:
            let id = f(FCMService.descriptor.messageIDField), copies = Int(f(.copies)) ?? 0
            if copies > 0 {
                messages[id] = Open(notification: "FCM's \(f(.target)) send", detail: id, since: e.time, correlation: e.correlation, remaining: copies)
            }
        case .notificationDropped where e.layer == "hub":
            copies[CopyKey(notification: f(.notification), registration: f(.registration))] = nil
        case .notificationDropped:
            // A push service's drop, read under the field that service records its ids in.
            let service = e.layer == PushServiceDescriptor.webPush.name ? .webPush : PushServiceDescriptor.named(e.layer)
            if let service { end(f(service.messageIDField), at: e.time) }
        case .webPushDelivered where e.layer == PushServiceDescriptor.webPush.name,
             .webPushExpired where e.layer == PushServiceDescriptor.webPush.name,
             .webPushReplaced where e.layer == PushServiceDescriptor.webPush.name:
            // A Web Push message the hub sent to a browser: handed to it, or ended by its TTL or a newer one.
            end(f(.webPushMessageID), at: e.time)
        case .devicePushReceived where e.layer == "device", .devicePushRefused where e.layer == "device": end(f(.message), at: e.time)
        default: break
        }
    }

    private func end(_ id: String, at time: VirtualTime) {
        if let open = messages[id] {                             // accepted first: nothing to wait for
            if open.remaining > 1 { messages[id]?.remaining -= 1 } else { messages[id] = nil }
            return
        }
        // An accept can come later only for a copy whose PNS call is still open: with none open
        // (an SDK's send straight to a PNS through `pushsim serve`), there is nothing to wait for.
        guard !copies.isEmpty else { return }
        forgetEnded(endedBefore: time)
        if ended.insert(id).inserted { endedOrder.append((time, id)) }
    }

    /// Forgets the ids that ended more than ``endedKeptFor`` before `now` (an accept for them can
    /// no longer come).
    private func forgetEnded(endedBefore now: VirtualTime) {
        while endedHead < endedOrder.count, endedOrder[endedHead].time + Self.endedKeptFor < now {
            ended.remove(endedOrder[endedHead].id)
            endedHead += 1
        }
        if endedHead >= 4_096, endedHead * 2 >= endedOrder.count {
            endedOrder.removeFirst(endedHead)
            endedHead = 0
        }
    }

    func result(leftovers: [Leftover]) -> InvariantResult {
        let report = LeftoverReport(leftovers)
        for (_, copy) in copies.sorted(by: { $0.key < $1.key }) where !report.mentions(copy.notification) {
            violations.append("the hub's copy \(copy.notification) for registration \(copy.detail) (since \(copy.since), \(copy.correlation)) "
                              + "neither reached its PNS nor was dropped, and is not reported pending")
        }
        for (id, message) in messages.sorted(by: { $0.key < $1.key }) where !report.mentions(id) {
            let copies = message.remaining > 1 ? " (\(message.remaining) of its copies)" : ""
            violations.append("message \(id) of \(message.notification)\(copies) (accepted \(message.since), \(message.correlation)) "
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
