import PushSimKernel
import PushSimNetwork

/// What a PNS answer means for the hub (pns-fidelity.md §6 and §4.9).
enum PNSVerdict: Equatable {
    /// Accepted by the PNS.
    case accepted
    /// The handle is dead: delete the registration. `since` is APNs' 410 timestamp (Unix ms), if any.
    case deadHandle(reason: String, sinceUnixMilliseconds: Int64?)
    /// The hub's credentials were stale: renew them and try once more.
    case renewCredentials(reason: String)
    /// Try again later (throttling, outage, transport failure); `after` from Retry-After, if given.
    case retry(reason: String, after: VirtualDuration?)
    /// The PNS refused this notification for good.
    case refused(reason: String)

    init(_ result: CallResult, platform: RegistrationPlatform) {
        guard let response = result.response else {
            self = .retry(reason: "PNS not reached: \(result.summary)", after: nil)
            return
        }
        let status = response.status
        let json = try? JSONParser.parse(response.body)
        let retryAfter = response.headers["Retry-After"].flatMap { Int64($0) }.map { VirtualDuration.seconds($0) }
        switch platform {
        case .apple:
            let reason = json?["reason"]?.stringValue ?? ""
            switch (status, reason) {
            case (200, _): self = .accepted
            case (410, _): self = .deadHandle(reason: "APNs 410 \(reason)", sinceUnixMilliseconds: json?["timestamp"]?.int64Value)
            case (400, "BadDeviceToken"): self = .deadHandle(reason: "APNs 400 BadDeviceToken", sinceUnixMilliseconds: nil)
            case (403, "ExpiredProviderToken"): self = .renewCredentials(reason: "APNs 403 ExpiredProviderToken")
            case (429, "TooManyRequests"), (500, _), (503, _): self = .retry(reason: "APNs \(status) \(reason)", after: retryAfter)
            default: self = .refused(reason: "APNs \(status) \(reason)")
            }
        case .fcmV1:
            let code = json?["error"]?["details"]?.arrayValue?.compactMap { $0["errorCode"]?.stringValue }.first ?? ""
            let field = json?["error"]?["details"]?.arrayValue?
                .compactMap { $0["fieldViolations"]?.arrayValue?.first?["field"]?.stringValue }.first
            switch status {
            case 200: self = .accepted
            case 404 where code == "UNREGISTERED": self = .deadHandle(reason: "FCM 404 UNREGISTERED", sinceUnixMilliseconds: nil)
            case 400 where field == "message.token": self = .deadHandle(reason: "FCM 400 INVALID_ARGUMENT (token)", sinceUnixMilliseconds: nil)
            case 401: self = .renewCredentials(reason: "FCM 401 UNAUTHENTICATED")
            case 429, 500, 503: self = .retry(reason: "FCM \(status) \(code)", after: retryAfter)
            default: self = .refused(reason: "FCM \(status) \(code)")
            }
        case .windows:
            let detail = response.headers["X-WNS-Error-Description"] ?? ""
            switch status {
            case 200: self = .accepted
            case 404, 410: self = .deadHandle(reason: "WNS \(status) \(detail)", sinceUnixMilliseconds: nil)
            case 401: self = .renewCredentials(reason: "WNS 401")
            case 406, 500, 503: self = .retry(reason: "WNS \(status) \(detail)", after: retryAfter)
            default: self = .refused(reason: "WNS \(status) \(detail)")
            }
        case .gcm, .mpns:
            self = .refused(reason: "retired platform")
        }
    }
}

extension NotificationHub {
    func handlePNSResult(_ result: CallResult, _ n: HubNotification, _ r: StoredRegistration, attempt: Int,
                         renewed: Bool = false, world: World) {
        let verdict = PNSVerdict(result, platform: r.platform)
        switch verdict {
        case .accepted:
            world.record(layer: "hub", host: Self.name, kind: "hub.pns-accepted",
                         ["notification": n.id, "registration": r.id, "message": Self.pnsMessageID(result, r.platform)])
        case .deadHandle(let reason, let since):
            removeDeadRegistration(r, reason: reason, sinceUnixMilliseconds: since, world: world)
            drop(n, r, reason: reason, world: world)
        case .renewCredentials(let reason):
            pnsTokens.forget(r.platform)
            // Renew once per notification, whichever attempt met the stale credentials.
            guard !renewed else { return drop(n, r, reason: "\(reason), again after renewing credentials", world: world) }
            dispatch(n, to: r, attempt: attempt + 1, renewed: true, world: world)
        case .retry(let reason, let after):
            retry(n, r, attempt: attempt, renewed: renewed, reason: reason, after: after, world: world)
        case .refused(let reason):
            drop(n, r, reason: reason, world: world)
        }
    }

    /// Tries again after `after` (Retry-After) or an exponential back-off from 1 s, unless that
    /// would pass the 30-minute hand-off deadline, in which case the notification is dropped.
    func retry(_ n: HubNotification, _ r: StoredRegistration, attempt: Int, renewed: Bool, reason: String,
               after: VirtualDuration?, world: World) {
        let delay = after ?? Self.firstRetryDelay * Int64(1 << min(attempt - 1, 20))
        guard world.now + delay < n.acceptedAt + Self.handOffDeadline else {
            return drop(n, r, reason: "\(reason); not handed to the PNS within 30 minutes", world: world)
        }
        world.record(layer: "hub", host: Self.name, kind: "hub.pns-retry",
                     ["notification": n.id, "registration": r.id, "reason": reason, "in": "\(delay)"])
        let key = "\(n.id)/\(r.id)"
        inFlight[key] = "notification \(n.id) for registration \(r.id) waiting to retry (\(reason))"
        world.schedule(after: delay) { [self] in
            inFlight[key] = nil
            // Retry against the registration as it is now: deleted, expired or moved to another
            // handle meanwhile means this copy of the notification has no target any more.
            guard case .live(let current) = store.lookup(r.id, now: world.now), current.handle == r.handle else {
                return drop(n, r, reason: "\(reason); the registration was deleted, expired or changed handle before the retry", world: world)
            }
            dispatch(n, to: current, attempt: attempt + 1, renewed: renewed, world: world)
        }
    }

    /// PNS feedback: deletes the registration behind a dead handle, unless it has been
    /// re-registered since (a new handle, or, for APNs, an update after the 410 `timestamp`:
    /// §1.8 A-RESP, §4.9 NH-FIX).
    private func removeDeadRegistration(_ r: StoredRegistration, reason: String, sinceUnixMilliseconds: Int64?, world: World) {
        guard case .live(let current) = store.lookup(r.id, now: world.now), current.handle == r.handle else {
            world.record(layer: "hub", host: Self.name, kind: "hub.feedback-ignored",
                         ["registration": r.id, "why": "the registration was already deleted or has a new handle"])
            return
        }
        if let since = sinceUnixMilliseconds, world.anchor.unixMilliseconds(current.updatedAt) > since {
            world.record(layer: "hub", host: Self.name, kind: "hub.feedback-ignored",
                         ["registration": r.id, "why": "re-registered after the PNS timestamp"])
            return
        }
        store.remove(r.id)
        world.record(layer: "hub", host: Self.name, kind: "hub.registration-deleted",
                     ["id": r.id, "why": "PNS feedback: \(reason)", "handle": handleLabel(r.handle), "dead-handle": true])
    }

    /// The PNS's id for an accepted message: APNs' `apns-id`, FCM's message `name`, WNS's `X-WNS-Msg-ID`.
    static func pnsMessageID(_ result: CallResult, _ platform: RegistrationPlatform) -> String {
        guard let r = result.response else { return "" }
        switch platform {
        case .apple: return r.headers["apns-id"] ?? ""
        case .fcmV1: return (try? JSONParser.parse(r.body))?["name"]?.stringValue ?? ""
        default: return r.headers["X-WNS-Msg-ID"] ?? ""
        }
    }

    func drop(_ n: HubNotification, _ r: StoredRegistration, reason: String, world: World) {
        world.record(layer: "hub", host: Self.name, kind: "notification.dropped",
                     ["notification": n.id, "registration": r.id, "reason": reason])
    }
}
