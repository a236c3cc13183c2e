import PushSimKernel
import PushSimNetwork

/// How one copy of a notification ended, named as the hub's telemetry counts it.
///
/// Citations §4.9 and §7 mark the per-platform count names as **unconfirmed**. PushSim takes
/// them from the hub's Azure Monitor metrics, which count the same outcomes per platform
/// (`outgoing.apns.success`, `outgoing.apns.badchannel`, `outgoing.apns.expiredchannel`,
/// `outgoing.wns.throttled`, `outgoing.wns.dropped`, `outgoing.apns.invalidcredentials`,
/// `outgoing.allpns.invalidpayload`, `outgoing.allpns.pnserror`; NH-FIX and the Azure Monitor
/// "supported metrics for Microsoft.NotificationHubs/namespaces/notificationHubs" page).
public enum PNSOutcome: String, Sendable, CaseIterable {
    /// The PNS accepted the notification.
    case success = "Success"
    /// The handle is gone: APNs 410, FCM 404 UNREGISTERED, WNS 410.
    case expiredChannel = "ExpiredChannel"
    /// The handle is not valid: APNs 400 BadDeviceToken, FCM 400 on `message.token`, WNS 404.
    case badChannel = "BadChannel"
    /// Throttled by the PNS until the 30-minute hand-off deadline passed (or, in a test send, once).
    case throttled = "Throttled"
    /// Not handed to the PNS within 30 minutes for another reason, or its target went away.
    case dropped = "Dropped"
    /// The hub's PNS credentials are missing, wrong or refused.
    case invalidCredentials = "InvalidCredentials"
    /// The PNS refused the payload (400, 413), or a template rendered into something unusable.
    case invalidPayload = "InvalidPayload"
    /// Any other refusal by the PNS.
    case pnsError = "PnsError"
    /// A test send met an outage (no retries there).
    case pnsUnreachable = "PnsUnreachable"
}

/// The hub's record of one notification: its state and per-platform outcome counts, for
/// `GET /{hub}/messages/{id}` (Citations §4.7, §4.9; NH-REST, NH-SDKDOC).
///
/// States: `Scheduled` (waiting for its time) → `Enqueued` (accepted) → `Processing` (copies handed
/// out) → `Completed` when every copy ended, or
/// `Abandoned` when at least one copy was dropped because it could not be handed to its PNS
/// within 30 minutes (NH-FIX). `NoTargetFound` when nothing matched; `Cancelled` for a cancelled
/// scheduled send. The hub starts the fan-out in the same event that accepts the send (as before
/// telemetry existed, so traces keep their order), so `Enqueued` is never seen from outside: a
/// read right after the 201 already says `Processing` (or `Completed`, `NoTargetFound`).
struct NotificationRecord {
    var id: String
    var state: NotificationOutcome.State
    var enqueuedAt: VirtualTime?
    var startedAt: VirtualTime?
    var endedAt: VirtualTime?
    var body: String
    var tags: String?
    /// Copies handed out and not ended yet.
    var pending = 0
    var abandoned = false
    /// How many copies for one platform ended with one outcome.
    struct OutcomeCount {
        var platform: RegistrationPlatform
        var outcome: PNSOutcome
        var count: Int
    }
    /// (platform, outcome) → count, in the order first seen; reported in a fixed order.
    var counts: [OutcomeCount] = []
    var platforms: [RegistrationPlatform] = []
    /// Test sends: each copy's result, and who waits for them.
    var results: [(ordinal: Int, result: RegistrationResult)] = []
    var onFinished: ((NotificationRecord) -> Void)?

    /// Ends one copy; true when it was the last. A test send also keeps the copy's result.
    mutating func endCopy(_ t: SendTarget, _ outcome: PNSOutcome, reason: String, now: VirtualTime) -> Bool {
        precondition(pending > 0, "copy of \(id) for \(t.label) ended twice")
        pending -= 1
        count(t.platform, outcome)
        if onFinished != nil {
            let text = outcome == .success ? "The Notification was successfully sent to the Push Notification System"
                                           : "\(outcome.rawValue): \(reason)"
            results.append((t.ordinal, RegistrationResult(applicationPlatform: t.platform.sendFormat, pnsHandle: t.handle,
                                                          registrationID: t.label, outcome: text)))
        }
        guard pending == 0 else { return false }
        state = abandoned ? .abandoned : .completed
        endedAt = now
        return true
    }

    mutating func count(_ platform: RegistrationPlatform, _ outcome: PNSOutcome) {
        if let k = counts.firstIndex(where: { $0.platform == platform && $0.outcome == outcome }) {
            counts[k].count += 1
        } else {
            counts.append(OutcomeCount(platform: platform, outcome: outcome, count: 1))
        }
    }

    /// Counts in platform order, then outcome order.
    var sortedCounts: [OutcomeCount] {
        counts.sorted { a, b in
            let (pa, pb) = (RegistrationPlatform.allCases.firstIndex(of: a.platform)!, RegistrationPlatform.allCases.firstIndex(of: b.platform)!)
            if pa != pb { return pa < pb }
            return PNSOutcome.allCases.firstIndex(of: a.outcome)! < PNSOutcome.allCases.firstIndex(of: b.outcome)!
        }
    }

    /// `apple Success 2, apple ExpiredChannel 1` (for traces).
    var countsSummary: String {
        sortedCounts.map { "\($0.platform.sendFormat) \($0.outcome.rawValue) \($0.count)" }.joined(separator: ", ")
    }

    /// The NotificationDetails XML the SDK's `GetNotificationOutcomeDetailsAsync` reads with a
    /// DataContractSerializer (NH-DOTNET `NotificationDetails.cs`: elements in DataMember order;
    /// counts as `<…OutcomeCounts><Outcome><Name>…</Name><Count>…</Count></Outcome></…>`, from
    /// `NotificationOutcomeCollection.cs`). `ApnsOutcomeCounts` and `WnsOutcomeCounts` are the SDK's
    /// names; the FCM v1 element is written `FcmV1OutcomeCounts` (**unconfirmed**: the SDK version
    /// read only knows `FcmOutcomeCounts`, and ignores unknown elements). Times are UTC.
    func detailsXML(location: String, anchor: CalendarAnchor) -> String {
        func text(_ name: String, _ value: String) -> XMLNode { .element(XMLElement(name: name, children: [.text(value)])) }
        var children: [XMLNode] = [text("NotificationId", id), text("Location", location), text("State", state.rawValue)]
        if let t = enqueuedAt { children.append(text("EnqueueTime", anchor.iso8601(t))) }
        if let t = startedAt { children.append(text("StartTime", anchor.iso8601(t))) }
        if let t = endedAt { children.append(text("EndTime", anchor.iso8601(t))) }
        children.append(text("NotificationBody", body))
        if let tags { children.append(text("Tags", tags)) }
        if !platforms.isEmpty {
            let ordered = RegistrationPlatform.allCases.filter(platforms.contains)
            children.append(text("TargetPlatforms", ordered.map(\.sendFormat).joined(separator: ",")))
        }
        for platform in RegistrationPlatform.allCases {
            let rows = sortedCounts.filter { $0.platform == platform }
            guard !rows.isEmpty else { continue }
            children.append(.element(XMLElement(name: Self.countsElement(platform), children: rows.map { row in
                .element(XMLElement(name: "Outcome", children: [text("Name", row.outcome.rawValue), text("Count", String(row.count))]))
            })))
        }
        let root = XMLElement(name: "NotificationDetails", attributes: [("xmlns", AtomRegistration.sbNamespace), ("xmlns:i", AtomRegistration.xsiNamespace)],
                              children: children)
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>" + root.serialized()
    }

    static func countsElement(_ p: RegistrationPlatform) -> String { p.outcomeCountsElement }
}
