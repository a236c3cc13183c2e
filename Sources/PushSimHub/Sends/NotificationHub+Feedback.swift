import PushSimKernel
import PushSimNetwork

extension NotificationHub {
    func handlePNSResult(_ result: CallResult, _ n: HubNotification, _ t: SendTarget, attempt: Int,
                         renewed: Bool = false, world: World) {
        let verdict = PNSVerdict(result, platform: t.platform)
        switch verdict {
        case .accepted:
            world.record(layer: "hub", host: Self.name, kind: .hubPNSAccepted,
                         [.notification: .string(n.id), .registration: .string(t.label), .message: .string(Self.pnsMessageID(result, t.platform))])
            finishCopy(n, t, .success, reason: "", world: world)
        case .deadHandle(let reason, let since, let outcome):
            handleDeadTarget(t, n, reason: reason, sinceUnixMilliseconds: since, outcome: outcome, world: world)
            drop(n, t, reason: reason, outcome: outcome, world: world)
        case .renewCredentials(let reason):
            if let adapter = t.platform.traits.adapter { pnsTokens.forget(adapter) }
            // Renew once per notification, whichever attempt met the stale credentials.
            guard !renewed else {
                return drop(n, t, reason: "\(reason), again after renewing credentials", outcome: .invalidCredentials, world: world)
            }
            resend(n, to: t, attempt: attempt + 1, renewed: true, world: world)
        case .retry(let reason, let after, let outcome):
            retry(n, t, attempt: attempt, renewed: renewed, reason: reason, outcome: outcome, after: after, world: world)
        case .refused(let reason, let outcome):
            drop(n, t, reason: reason, outcome: outcome, world: world)
        }
    }

    /// Tries again after `after` (Retry-After) or an exponential back-off from 1 s, unless that
    /// would pass the 30-minute hand-off deadline, in which case the notification is dropped
    /// (`Throttled` when the PNS was throttling, else `Dropped`) and its telemetry says `Abandoned`.
    /// A test send does not retry: the copy ends with `outcome` at once.
    func retry(_ n: HubNotification, _ t: SendTarget, attempt: Int, renewed: Bool, reason: String, outcome: PNSOutcome,
               after: VirtualDuration?, world: World) {
        if n.isTest { return drop(n, t, reason: "\(reason); a test send makes one attempt", outcome: outcome, world: world) }
        let delay = after ?? Self.firstRetryDelay * Int64(1 << min(attempt - 1, 20))
        guard world.now + delay < n.acceptedAt + Self.handOffDeadline else {
            records[slot: n.recordSlot].abandoned = true
            return drop(n, t, reason: "\(reason); not handed to the PNS within 30 minutes",
                        outcome: outcome == .throttled ? .throttled : .dropped, world: world)
        }
        world.record(layer: "hub", host: Self.name, kind: .hubPNSRetry,
                     [.notification: .string(n.id), .registration: .string(t.label), .reason: .string(reason), .dueIn: "\(delay)"])
        let key = "\(n.id)/\(t.label)"
        retriesWaiting[key] = Leftover("notification \(n.id) for registration \(t.label) waiting to retry (\(reason))", pendingIDs: [n.id])
        world.schedule(after: delay) { [self] in
            retriesWaiting[key] = nil
            // Retry against the target as it is now: deleted, expired or moved to another
            // handle meanwhile means this copy of the notification has no target any more.
            guard let current = currentTarget(t, now: world.now) else {
                return drop(n, t, reason: "\(reason); the registration was deleted, expired or changed handle before the retry",
                            outcome: .dropped, world: world)
            }
            resend(n, to: current, attempt: attempt + 1, renewed: renewed, world: world)
        }
    }

    /// PNS feedback: writes a feedback record, then deletes the registration behind a dead handle
    /// (NH-FIX), or marks an installation's channel expired (`pushChannelExpired`, NH-DOTNET
    /// `Installation.cs`; the installation and its tags stay, are skipped by sends, and come back
    /// when the channel is rewritten), unless it has been re-registered since: a new handle, or,
    /// for APNs, an update after the 410 `timestamp` (§1.8 A-RESP, §4.9 NH-FIX).
    func handleDeadTarget(_ t: SendTarget, _ n: HubNotification, reason: String, sinceUnixMilliseconds: Int64?,
                          outcome: PNSOutcome, world: World) {
        feedbackRecords.append(PNSFeedback(feedbackTime: world.anchor.iso8601(world.now), notificationSystemError: outcome.rawValue,
                                           platform: t.platform.sendFormat, pnsHandle: t.handle, registrationID: t.registrationID,
                                           installationID: t.installationID, notificationID: n.id))
        func newer(_ updatedAt: VirtualTime) -> Bool {
            guard let since = sinceUnixMilliseconds else { return false }
            return world.anchor.unixMilliseconds(updatedAt) > since
        }
        switch t.owner {
        case .direct:
            world.record(layer: "hub", host: Self.name, kind: .hubFeedbackIgnored,
                         [.registration: .string(t.label), .why: "a direct send has no registration to delete"])
        case .registration(let id):
            guard case .live(let current) = store.lookup(id, now: world.now), current.handle == t.handle else {
                return world.record(layer: "hub", host: Self.name, kind: .hubFeedbackIgnored,
                                    [.registration: .string(id), .why: "the registration was already deleted or has a new handle"])
            }
            if newer(current.updatedAt) {
                return world.record(layer: "hub", host: Self.name, kind: .hubFeedbackIgnored,
                                    [.registration: .string(id), .why: "re-registered after the PNS timestamp"])
            }
            if !plantedBugKeepsDeadHandles { store.remove(id) }
            world.record(layer: "hub", host: Self.name, kind: .hubRegistrationDeleted,
                         [.id: .string(id), .why: "PNS feedback: \(reason)", .handle: .string(handleLabel(t.handle)), .deadHandle: true])
        case .installation(let id):
            guard var current = installations.lookup(id, now: world.now), current.pushChannel == t.handle, !current.pushChannelExpired else {
                return world.record(layer: "hub", host: Self.name, kind: .hubFeedbackIgnored,
                                    [.registration: .string(t.label), .why: "the installation was deleted, has a new channel or is already marked"])
            }
            if newer(current.updatedAt) {
                return world.record(layer: "hub", host: Self.name, kind: .hubFeedbackIgnored,
                                    [.registration: .string(t.label), .why: "re-registered after the PNS timestamp"])
            }
            current.pushChannelExpired = true
            installations.upsert(current)
            world.record(layer: "hub", host: Self.name, kind: .hubInstallationChannelExpired,
                         [.id: .string(id), .why: "PNS feedback: \(reason)", .handle: .string(handleLabel(t.handle)), .deadHandle: true])
        }
    }

    /// The PNS's id for an accepted message, read by the platform's adapter: APNs' `apns-id`,
    /// FCM's message `name`, WNS's `X-WNS-Msg-ID`.
    static func pnsMessageID(_ result: CallResult, _ platform: RegistrationPlatform) -> String {
        guard let r = result.response, let adapter = platform.traits.adapter else { return "" }   // retired: never accepted
        return adapter.messageID(r)
    }

    func drop(_ n: HubNotification, _ t: SendTarget, reason: String, outcome: PNSOutcome, world: World) {
        world.record(layer: "hub", host: Self.name, kind: .notificationDropped,
                     [.notification: .string(n.id), .registration: .string(t.label), .reason: .string(reason)])
        finishCopy(n, t, outcome, reason: reason, world: world)
    }
}
