import PushSimKernel
import PushSimDevices
import PushSimNetwork

/// The verdict on one expectation, with what was seen when it failed.
public struct ExpectationResult: Sendable, Equatable {
    /// The expectation judged.
    public var expectation: Expectation
    /// Whether it held.
    public var passed: Bool
    /// What the run actually showed, in words (empty when passed).
    public var seen: String
}

/// Checks expectations against what the devices recorded.
enum ExpectationCheck {
    /// `probed`: for hub state with `by <time>`, the count a probe read at that time.
    /// `memory`: what the run remembered of the trace (logins, badges, wakes).
    static func evaluate(_ e: Expectation, in simulation: Simulation, memory: RunMemory, invariants: [InvariantResult],
                         probed: Int? = nil, liveActivity: LiveActivitySnapshot? = nil) -> ExpectationResult {
        let by = e.by ?? VirtualTime(microseconds: .max)
        func result(_ passed: Bool, _ seen: @autoclosure () -> String) -> ExpectationResult {
            ExpectationResult(expectation: e, passed: passed, seen: passed ? "" : seen())
        }
        switch e.kind {
        case .liveActivity(let name, let type, let check):
            let seen = liveActivity ?? LiveActivitySnapshot(device: simulation.device(name), attributesType: type, now: simulation.world.now)
            let (held, words) = Self.liveActivity(check, seen: seen, device: name, attributesType: type)
            return result(held, words)
        case .shows(let name, let text):
            let shown = simulation.shown(on: name).filter { $0.time <= by } ?? []
            return result(shown.contains { $0.text == text }, describe(shown, name))
        case .showsNothing(let name):
            let shown = simulation.shown(on: name).filter { $0.time <= by } ?? []
            return result(shown.isEmpty, describe(shown, name))
        case .showsCount(let name, let count):
            let shown = simulation.shown(on: name).filter { $0.time <= by } ?? []
            return result(shown.count == count, describe(shown, name))
        case .suppressed(let name, let text):
            let kept = simulation.device(name)?.suppressed.filter { $0.time <= by } ?? []
            return result(kept.contains { $0.text == text }, describeSuppressed(kept, name))
        case .suppressedCount(let name, let count):
            let kept = simulation.device(name)?.suppressed.filter { $0.time <= by } ?? []
            return result(kept.count == count, describeSuppressed(kept, name))
        case .neverShows(let name, let text):
            let shown = simulation.shown(on: name).filter { $0.time <= by } ?? []
            return result(!shown.contains { $0.text == text }, describe(shown, name))
        case .showsInOrder(let name, let texts):
            let shown = simulation.shown(on: name).filter { $0.time <= by } ?? []
            var rest = shown.map(\.text)[...]
            let inOrder = texts.allSatisfy { text in
                guard let i = rest.firstIndex(of: text) else { return false }
                rest = rest[(i + 1)...]
                return true
            }
            return result(inOrder, describe(shown, name))
        case .badge(let name, let value):
            let showing: AppBadge?, seen: String
            switch memory.badge(on: name, by: by) {
            case .show(let badge)?: (showing, seen) = (badge, "\(name)'s badge was \(badge)")
            case .clear?: (showing, seen) = (nil, "\(name)'s badge was cleared (none)")
            case nil: (showing, seen) = (nil, "\(name)'s badge was never set")
            }
            return result(showing == value, seen)
        case .woke(let name, let count):
            let n = memory.wakeCount(on: name, by: by)
            return result(n == count, "background pushes woke \(name) \(n) time\(n == 1 ? "" : "s")")
        case .hubRegistrations(let tag, let count):
            let n = probed ?? simulation.hub.liveRegistrations(tag: tag, now: simulation.world.now)
            let when = e.by.map { "at \($0)" } ?? "at the end"
            return result(n == count, "the hub had \(n) live registration(s)\(tag.map { " for \"\($0)\"" } ?? "") \(when)")
        case .hubInstallations(let tag, let count):
            let n = probed ?? simulation.hub.liveInstallations(tag: tag, now: simulation.world.now)
            let when = e.by.map { "at \($0)" } ?? "at the end"
            return result(n == count, "the hub had \(n) live installation(s)\(tag.map { " for \"\($0)\"" } ?? "") \(when)")
        case .topicSubscribers(let topic, let count):
            let n = probed ?? simulation.fcm.subscriberCount(of: topic, project: simulation.identity.fcmProjectID)
            let when = e.by.map { "at \($0)" } ?? "at the end"
            return result(n == count, "FCM's topic \(jsonString(topic)) had \(n) subscriber(s) \(when)")
        case .broadcastChannels(let count):
            let n = probed ?? simulation.broadcastChannelCount
            let when = e.by.map { "at \($0)" } ?? "at the end"
            return result(n == count, "APNs had \(n) broadcast channel(s) for the app \(when)")
        case .activityShows(let name, let channel, let state):
            let id = simulation.operatorConsole.broadcastChannelIDs[channel]
            guard let device = simulation.device(name), let id, let activity = device.liveActivities.newest(onChannel: id) else {
                return result(false, id == nil ? "channel \(jsonString(channel)) was never created" : "\(name) has no Live Activity on channel \(jsonString(channel))")
            }
            let shown = activity.contentState.serialized()
            return result(shown == state, "\(name)'s activity on \(jsonString(channel)) shows \(shown) after \(activity.updates) update(s),"
                          + " \(activity.state(at: simulation.world.now).rawValue)")
        case .listedRegistrations(let count):
            let seen = simulation.operatorConsole.timedListings.filter { $0.answeredAt <= by }.map(\.count)
            let when = e.by.map { " by \($0)" } ?? ""
            return result(seen.contains(count), seen.isEmpty ? "no registration listing answered\(when)"
                          : "listings answered\(when) with \(seen.map(String.init).joined(separator: ", ")) registration(s)")
        case .received(let host, let count, let conditions):
            // A path condition names the endpoint itself: every request to the host counts then.
            let counts = conditions.contains { if case .path = $0 { return true } else { return false } }
                ? { _ in true } : Self.receivedCounter(for: host, in: simulation)
            let sent = simulation.world.journal.requests(to: host).filter { counts($0.request) && $0.sentAt <= by }
            let matching = sent.filter { entry in conditions.allSatisfy { $0.holds(request: entry.request, result: entry.result) } }
            return result(count.holds(matching.count), "\(host) received \(matching.count) such request(s)" + Self.answers(sent)
                          + Self.headersSeen(conditions, in: sent))
        case .notificationState(let reference, let state):
            let id: String?
            switch reference {
            case .id(let given): id = given
            case .number(let n): id = simulation.hub.notificationID(number: n)
            }
            let seen = id.flatMap { simulation.hub.notificationState($0)?.rawValue }
            let named = id.map { reference == .id($0) ? $0 : "\(reference) (\($0))" } ?? "\(reference)"
            return result(seen == state, seen.map { "\(named) is \($0)" } ?? "the hub has no \(named)")
        case .testSendResults(let count):
            let seen = simulation.operatorConsole.timedTestSendResults.filter { $0.answeredAt <= by }.map(\.count)
            let when = e.by.map { " by \($0)" } ?? ""
            return result(seen.contains(count), seen.isEmpty ? "no test send answered\(when)"
                          : "test sends answered\(when) with \(seen.map(String.init).joined(separator: ", ")) result(s)")
        case .invariant(let id, let holds):
            guard let inv = invariants.first(where: { $0.id == id }) else { return result(false, "no invariant \(id) was checked") }
            return result(inv.holds == holds, inv.holds ? "the invariant held" : "broken: \(inv.violations.first ?? "")")
        case .userShowsOnEveryDevice(let user, let text, let once):
            let devices = simulation.devices.filter { memory.user(on: $0.name, at: by) == user }   // in declaration order
            // A device whose user's settings kept the text off screen got it all the same: it
            // counts as though shown (a denied device is not expected to show; A-AUTH, AN-PERM).
            let counts = devices.map { d in
                (d, d.inbox.filter { $0.time <= by && $0.text == text }.count, d.suppressed.filter { $0.time <= by && $0.text == text }.count)
            }
            let passed = counts.allSatisfy { once ? $0.1 + $0.2 == 1 : $0.1 + $0.2 >= 1 }
            return result(passed, devices.isEmpty ? "nobody was logged in as \(user)"
                          : counts.map { "\($0.0.name) showed it \($0.1) time\($0.1 == 1 ? "" : "s")" + ($0.2 == 0 ? "" : " and suppressed it \($0.2)") }
                            .joined(separator: ", "))
        case .population(let name, let members, let quantifier, let predicate):
            let verdict = PopulationCheck.evaluate(members: members, quantifier: quantifier, predicate: predicate, by: by, in: simulation)
            return result(verdict.passed, verdict.describe(population: name, predicate: predicate))
        case .status(let name, let op, let code, let quantifier):
            let calls = simulation.calls(of: name).filter { $0.operation == op && $0.completedAt <= by }
            let seen = calls.isEmpty ? "\(name) made no \(op.rawValue) call" + (e.by == nil ? "" : " by \(by)")
                : "\(op.rawValue) answers: " + calls.map { "\($0.status.map(String.init) ?? $0.failure ?? "?") at \($0.completedAt)" }.joined(separator: ", ")
            // Calls are kept in the order answered; a quantifier reads them in the order made
            // (ties keep the order answered: the offset breaks them, so the sort is stable).
            let made = calls.enumerated().sorted { ($0.element.sentAt, $0.offset) < ($1.element.sentAt, $1.offset) }.map(\.element.status)
            return result(quantifier.holds(code, answers: made), seen)
        }
    }

    /// For a push service only its provider API counts (what a sender pushed), not the device
    /// channel or token endpoints, unless a `path` condition names one: the fake says which
    /// (``FakePushService/isProviderSend(_:)``).
    static func receivedCounter(for host: String, in simulation: Simulation) -> (HTTPRequest) -> Bool {
        guard let service = PushServiceDescriptor.named(host), let fake = simulation.fake(playing: service) else {
            return { _ in true }   // the hub, a backend: everything
        }
        return type(of: fake).isProviderSend
    }

    /// `; answers: 200 ×3, 410 Unregistered ×1` for a failure message (empty for no requests):
    /// each distinct status (with APNs' `reason` or FCM's `error.status`), in order of first sight.
    static func answers(_ entries: [RequestJournal.Entry]) -> String {
        var order: [String] = [], counts: [String: Int] = [:]
        for entry in entries {
            var label = entry.result?.summary ?? "no answer"
            if let reason = ExchangeCondition.reasons(in: entry.result?.response?.body ?? []).first { label += " " + reason }
            if counts[label] == nil { order.append(label) }
            counts[label, default: 0] += 1
        }
        guard !order.isEmpty else { return "" }
        return "; answers: " + order.map { "\($0) ×\(counts[$0]!)" }.joined(separator: ", ")
    }

    /// For each header a condition names: the values the requests (or their answers) carried,
    /// `; answer header "apns-id": none` or `; request header "apns-priority": "5" ×2, "10" ×1`, so
    /// that a failed header expectation shows what was there instead (empty without header conditions).
    static func headersSeen(_ conditions: [ExchangeCondition], in entries: [RequestJournal.Entry]) -> String {
        var out = ""
        for case .header(let side, let name, _) in conditions {
            var order: [String] = [], counts: [String: Int] = [:]
            for entry in entries {
                let headers = side == .request ? entry.request.headers : entry.result?.response?.headers
                let value = headers?[name].map(jsonString) ?? "absent"
                if counts[value] == nil { order.append(value) }
                counts[value, default: 0] += 1
            }
            let seen = order.isEmpty ? "no requests" : order.prefix(5).map { "\($0) ×\(counts[$0]!)" }.joined(separator: ", ")
                + (order.count > 5 ? ", … (\(order.count) values)" : "")
            out += "; \(side.rawValue) header \(jsonString(name)): \(seen)"
        }
        return out
    }

    private static func describeSuppressed(_ kept: [SuppressedNotification], _ device: String) -> String {
        if kept.isEmpty { return "\(device) suppressed nothing" }
        return "\(device) suppressed " + kept.map { "\($0.text.map(jsonString) ?? "a notification without text") at \($0.time) (\($0.reason))" }
            .joined(separator: ", ")
    }

    private static func describe(_ shown: [ShownNotification], _ device: String) -> String {
        if shown.isEmpty { return "\(device) showed nothing" }
        return "\(device) showed " + shown.map { "\(jsonString($0.text)) at \($0.time)" }.joined(separator: ", ")
    }
}
