import PushSimKernel
import PushSimNetwork

/// A send waiting for its time.
struct ScheduledSend {
    var request: SendRequest
    var due: VirtualTime
    var timer: TimerID
}

/// Scheduled sends (Citations §4.6; NH-REST "Send/Cancel Scheduled Notification"; NH-DOTNET
/// `ScheduleNotificationAsync`, `CancelNotificationAsync`):
///
/// | request | success | errors |
/// |---|---|---|
/// | `POST /{hub}/schedulednotifications/` + `ServiceBusNotification-ScheduleTime: yyyy-MM-ddTHH:mm:ss` (UTC) | 201, id in `Location` | 400 missing or malformed time, and every refusal of a send |
/// | `DELETE /{hub}/schedulednotifications/{id}` | 200 (what the SDK expects) | 404 unknown, already sent or already cancelled |
///
/// The send is checked when it is scheduled (format, tags, body), and fanned out at the scheduled
/// instant of the world's calendar (``CalendarAnchor``) to whatever matches then. A time already
/// past fires at once. The scheduled id is also the notification's telemetry id: `Scheduled`, then
/// the usual states, or `Cancelled`. Scheduled sends not yet fired are listed in the leftovers.
extension NotificationHub {
    func schedule(_ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        guard let timeText = request.headers["ServiceBusNotification-ScheduleTime"] else {
            return fail(400, "The ServiceBusNotification-ScheduleTime header is required.", exchange, world)
        }
        guard let seconds = CalendarAnchor.unixSeconds(iso8601: Self.wholeSeconds(timeText)) else {
            return fail(400, "The ServiceBusNotification-ScheduleTime '\(timeText)' is not a UTC time (yyyy-MM-ddTHH:mm:ss).", exchange, world)
        }
        let s: SendRequest
        switch readSend(request) {
        case .failure(let r): return fail(r.status, r.detail, exchange, world, headers: r.headers)
        case .success(let read): s = read
        }
        let id = nextNotificationID(world)
        let due = max(world.now, world.anchor.virtualTime(unixSeconds: seconds))
        let timer = world.schedule(at: due) { [self] in fire(id, world: world) }
        scheduled[id] = ScheduledSend(request: s, due: due, timer: timer)
        records[id] = NotificationRecord(id: id, state: .scheduled, body: String(decoding: s.payload, as: UTF8.self),
                                         tags: s.expression.map { "\($0)" })
        world.record(layer: "hub", host: Self.name, kind: .hubScheduled,
                     [.notification: .string(id), .format: .string(s.format), .tags: .string(s.tagsText), .at: .string(world.anchor.iso8601(due)), .dueIn: "\(due - world.now)"])
        respond(to: exchange, with: HTTPResponse(status: 201, headers: [
            "Location": String.concatenating(hubURL, "/schedulednotifications/", id, "?", Self.echoedAPIVersion(request))]), world)
    }

    func cancelScheduled(_ id: String, _ exchange: Exchange, _ world: World) {
        guard let pending = scheduled.removeValue(forKey: id) else {
            return fail(404, "No scheduled notification \(id) is waiting to be sent.", exchange, world)
        }
        world.cancel(pending.timer)
        records[id]?.state = .cancelled
        records[id]?.endedAt = world.now
        world.record(layer: "hub", host: Self.name, kind: .hubScheduledCancelled, [.notification: .string(id), .wasDue: .string(world.anchor.iso8601(pending.due))])
        respond(to: exchange, with: HTTPResponse(status: 200), world)
    }

    /// Sends a scheduled notification to what matches now.
    private func fire(_ id: String, world: World) {
        guard let pending = scheduled.removeValue(forKey: id) else { return }
        let s = pending.request
        let targets = targets(native: s.platform, expression: s.expression, now: world.now)
        let n = accept(s, id: id, world: world)
        world.record(layer: "hub", host: Self.name, kind: .hubScheduledFired, [.notification: .string(id)])
        world.record(layer: "hub", host: Self.name, kind: .hubSendAccepted,
                     [.notification: .string(id), .format: .string(s.format), .tags: .string(s.tagsText), .targets: .int(targets.count)])
        if let p = s.properties {
            world.record(layer: "hub", host: Self.name, kind: .hubTemplateSend,
                         [.notification: .string(id), .properties: .string(p.pairs.map(\.name).joined(separator: ",")), .templates: .int(targets.count)])
        }
        fanOut(n, targets, world: world)
    }

    /// Scheduled sends not fired yet, by id.
    var scheduledLeftovers: [Leftover] {
        scheduled.keys.sorted().map { Leftover("scheduled notification \($0) not sent yet (due at \(scheduled[$0]!.due))", pendingIDs: [$0]) }
    }
}
