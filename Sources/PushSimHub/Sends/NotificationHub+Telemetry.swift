import PushSimKernel
import PushSimNetwork

/// Per-message telemetry and PNS feedback (Citations §4.7, §4.9; NH-REST):
///
/// | request | success | errors |
/// |---|---|---|
/// | `GET /{hub}/messages/{id}?api-version=2016-07` | 200 `NotificationDetails` XML | 404 unknown id |
/// | `GET /{hub}/feedbackcontainer` | 200, the container URL as text | – |
/// | `GET /{hub}/feedback` (PushSim's stand-in for the blob container) | 200 `PnsFeedbacks` XML | – |
///
/// The details are XML because the SDK reads them with a DataContractSerializer (NH-DOTNET
/// `NotificationHubClient.GetNotificationOutcomeDetailsAsync`). Every tier's features are on:
/// PushSim does not model the Standard-only 403.
extension NotificationHub {
    /// Starts the copies of a send: `Processing` (with its start time) or `NoTargetFound`.
    func beginCopies(_ n: HubNotification, _ targets: SendTargets, world: World) {
        var r = records[slot: n.recordSlot]
        r.pending = targets.count
        for p in targets.platforms where !r.platforms.contains(p) { r.platforms.append(p) }
        if targets.isEmpty {
            r.state = .noTargetFound
            r.endedAt = world.now
        } else {
            r.state = .processing
            r.startedAt = world.now
        }
        records[slot: n.recordSlot] = r
        if targets.isEmpty { finished(r, world: world) }
    }

    /// Ends one copy with `outcome`; when it was the last, the notification is `Completed`, or
    /// `Abandoned` if a copy missed the 30-minute deadline.
    func finishCopy(_ n: HubNotification, _ t: SendTarget, _ outcome: PNSOutcome, reason: String, world: World) {
        // Mutated in place, by slot: no hashing and no copy of the record per copy.
        if records[slot: n.recordSlot].endCopy(t, outcome, reason: reason, now: world.now) {
            finished(records[slot: n.recordSlot], world: world)
        }
    }

    private func finished(_ r: NotificationRecord, world: World) {
        world.record(layer: "hub", host: Self.name, kind: .hubNotificationOutcome,
                     [.notification: .string(r.id), .state: .string(r.state.rawValue), .counts: .string(r.countsSummary)])
        if let done = r.onFinished {
            records[r.id]?.onFinished = nil
            done(r)
        }
    }

    func notificationDetails(_ id: String, _ exchange: Exchange, _ world: World) {
        guard let r = records[id] else { return fail(404, "The notification with id \(id) was not found.", exchange, world) }
        respond(to: exchange, with: HTTPResponse(status: 200, headers: ["Content-Type": "application/xml; charset=utf-8"],
                                                 text: r.detailsXML(location: "\(hubURL)/messages/\(id)", anchor: world.anchor)), world)
    }

    /// The feedback "container": a URL of `GET /{hub}/feedback` (see ``PNSFeedback``).
    func feedbackContainer(_ exchange: Exchange, _ world: World) {
        respond(to: exchange, with: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"],
                                                 text: "\(hubURL)/feedback?api-version=\(Self.apiVersion)"), world)
    }

    func feedbackDocument(_ exchange: Exchange, _ world: World) {
        respond(to: exchange, with: HTTPResponse(status: 200, headers: ["Content-Type": "application/xml; charset=utf-8"],
                                                 text: PNSFeedback.document(feedbackRecords)), world)
    }

    /// The PNS feedback records so far, oldest first.
    public var pnsFeedback: [PNSFeedback] { feedbackRecords }

    /// The telemetry state of a notification, or nil for an unknown id.
    public func notificationState(_ id: String) -> NotificationOutcome.State? { records[id]?.state }

    /// The id of the `n`th notification the hub took (from 1, in the order it took them: direct,
    /// test and scheduled sends count too), or nil.
    public func notificationID(number n: Int) -> String? { records.id(number: n) }
}
