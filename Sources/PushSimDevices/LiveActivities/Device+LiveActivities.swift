import PushSimKernel
import PushSimNetwork

/// Live Activities on an iPhone (Citations §1.14–§1.17): the app starts one in the foreground,
/// observes its push-to-start token and each activity's update token (ActivityKit asks APNs for
/// them, ``LiveActivityTokenRequest``), and the system rotates tokens now and then; the user can
/// turn the app's Live Activities off. State is in ``liveActivities``.
///
/// Live Activities have their own switch in Settings, apart from notification permission
/// (A-LA-AUTH): an app whose notifications are denied still starts and updates them.
extension Device {
    /// Whether this device runs Live Activities: an iPhone on iOS 16.1 or later (written 16).
    public var supportsLiveActivities: Bool { platform == .ios && osVersion >= LiveActivityLimits.firstOS }

    /// The app starts observing `Activity<attributesType>.pushToStartTokenUpdates`: ActivityKit asks
    /// APNs for a push-to-start token (iOS 17.2 and later). Asking again while one is held keeps it.
    public func observePushToStartToken(attributesType: String) {
        guard let why = liveActivityRefusal(action: "observe-push-to-start", pushToStart: true) else {
            if liveActivities.pushToStartTokens.contains(where: { $0.attributesType == attributesType }) { return }
            liveActivities.pushToStartTokens.append(.init(attributesType: attributesType, token: nil, generation: 1))
            return askForPushToStartToken(attributesType: attributesType, generation: 1)
        }
        record(.liveActivityIgnored, [.action: "observe-push-to-start", .why: .string(why)])
    }

    /// The system replaces the push-to-start token of `attributesType` (Apple: tokens may change;
    /// the app sends the new one and the server drops the old, A-LA-PUSH). The old one no longer
    /// starts anything.
    public func rotatePushToStartToken(attributesType: String) {
        guard let index = liveActivities.pushToStartTokens.firstIndex(where: { $0.attributesType == attributesType }) else {
            return record(.liveActivityIgnored, [.action: "rotate-push-to-start", .why: .string("the app observes no push-to-start token for \(attributesType)")])
        }
        liveActivities.pushToStartTokens[index].generation += 1
        liveActivities.pushToStartTokens[index].token = nil
        askForPushToStartToken(attributesType: attributesType, generation: liveActivities.pushToStartTokens[index].generation)
    }

    /// The app starts a Live Activity in the foreground: with `pushType: .token` (no `channel`) it
    /// gets an update token from APNs; with `pushType: .channel(<id>)` (iOS 18) the system first
    /// subscribes the device to that broadcast channel and the activity starts once APNs took the
    /// subscription (ActivityKit refuses the request when it fails). Refused, with the reason,
    /// when the device cannot run Live Activities, the app is not installed, the user turned them
    /// off, or, for a channel, before iOS 18, without a device token, or while a running activity
    /// is already on that channel.
    public func startLiveActivity(attributesType: String, attributes: JSONValue = .object([]), contentState: JSONValue,
                                  staleDate: VirtualTime? = nil, relevanceScore: Double? = nil, channel: String? = nil) {
        let refuse = { (why: String) in self.record(.liveActivityIgnored, [.action: "start-live-activity", .why: .string(why)]) }
        if let why = liveActivityRefusal(action: "start-live-activity", pushToStart: false) { return refuse(why) }
        let timestamp = world.anchor.unixSeconds(world.now)
        guard let channel else {
            return beginLiveActivity(attributesType: attributesType, attributes: attributes, origin: .app, contentState: contentState,
                                     staleDate: staleDate, relevanceScore: relevanceScore, timestamp: timestamp, alert: nil, channel: nil)
        }
        if let why = channelRefusal(channel) { return refuse(why) }
        subscribe(toChannel: channel, refuse: refuse) { [self] in
            beginLiveActivity(attributesType: attributesType, attributes: attributes, origin: .app, contentState: contentState,
                              staleDate: staleDate, relevanceScore: relevanceScore, timestamp: timestamp, alert: nil, channel: channel)
        }
    }

    /// The app ends its newest running Live Activity of `attributesType` (any when nil), with a
    /// final content when given and a dismissal date (nil: the default policy, four hours).
    public func endLiveActivity(attributesType: String? = nil, contentState: JSONValue? = nil, dismissalDate: VirtualTime? = nil) {
        guard let index = liveActivities.activities.lastIndex(where: { (attributesType == nil || $0.attributesType == attributesType)
                                                                        && $0.isRunning(at: world.now) }) else {
            return record(.liveActivityIgnored, [.action: "end-live-activity", .why: "no running Live Activity to end"])
        }
        liveActivities.activities[index].finish(at: world.now, contentState: contentState, dismissalDate: dismissalDate)
        record(.liveActivityEnded, [.activity: .string(liveActivities.activities[index].id), .why: "ended by the app"])
    }

    /// The system replaces the update token of the newest running activity of `attributesType`
    /// (any when nil); the old token no longer reaches it (A-LA-PUSH: "the push token … may change").
    public func rotateLiveActivityToken(attributesType: String? = nil) {
        guard let index = liveActivities.activities.lastIndex(where: { (attributesType == nil || $0.attributesType == attributesType)
                                                                        && $0.updateToken != nil }) else {
            return record(.liveActivityIgnored, [.action: "rotate-live-activity-token", .why: "no Live Activity holds an update token"])
        }
        liveActivities.activities[index].updateToken = nil
        askForUpdateToken(activity: liveActivities.activities[index].id)
    }

    /// The user turns the app's Live Activities off or on in Settings (A-LA-AUTH). Off, ActivityKit
    /// pushes are dropped and the app cannot start one; running ones stay as they are.
    public func setLiveActivitiesEnabled(_ enabled: Bool) {
        liveActivities.enabled = enabled
        record(.deviceNotificationPermission, [.permission: enabled ? "authorized" : "denied", .why: "Live Activities turned \(enabled ? "on" : "off") in Settings"])
    }

    /// Why a Live Activity request is refused now, nil when it may go on.
    func liveActivityRefusal(action: String, pushToStart: Bool) -> String? {
        guard supportsLiveActivities else { return "Live Activities need iOS 16.1 or later on an iPhone" }
        if pushToStart && osVersion < LiveActivityLimits.firstPushToStartOS { return "push-to-start needs iOS 17.2 or later" }
        guard isAppInstalled else { return "the app is not installed" }
        guard liveActivities.enabled else { return "the user turned the app's Live Activities off" }
        return nil
    }

    /// Makes a new activity and records it; one not on a `channel` asks for its update token.
    func beginLiveActivity(attributesType: String, attributes: JSONValue, origin: LiveActivity.Origin, contentState: JSONValue,
                           staleDate: VirtualTime?, relevanceScore: Double?, timestamp: Int64, alert: String?, channel: String?) {
        let number = liveActivities.activities.count + 1
        var stream = world.randomStream("live-activity/\(name)/\(generation)/\(number)")
        let id = stream.uuidString()
        var activity = LiveActivity(id: id, attributesType: attributesType, attributes: attributes, origin: origin, startedAt: world.now,
                                    contentState: contentState, staleDate: staleDate, relevanceScore: relevanceScore, timestamp: timestamp,
                                    channel: channel)
        if let alert { activity.alerts.append(alert) }
        liveActivities.activities.append(activity)
        let why = TraceValue.string("started by the \(origin.rawValue)")
        if let channel {
            record(.liveActivityStarted, [.activity: .string(id), .text: .string(attributesType), .channelID: .string(channel), .why: why])
        } else {
            record(.liveActivityStarted, [.activity: .string(id), .text: .string(attributesType), .why: why])
        }
        if let alert { record(.liveActivityAlert, [.activity: .string(id), .text: .string(alert)]) }
        if channel == nil { askForUpdateToken(activity: id) }
    }

    private func askForPushToStartToken(attributesType: String, generation tokenGeneration: Int) {
        askForLiveActivityToken(.pushToStart, subject: attributesType, generation: tokenGeneration) { [self] token in
            guard let index = liveActivities.pushToStartTokens.firstIndex(where: { $0.attributesType == attributesType }),
                  liveActivities.pushToStartTokens[index].generation == tokenGeneration else { return }
            liveActivities.pushToStartTokens[index].token = token
            record(.liveActivityTokenReceived, [.handle: .string(shortToken(token)), .why: .string("push-to-start token for \(attributesType)")])
        }
    }

    private func askForUpdateToken(activity id: String) {
        guard let index = liveActivities.activities.firstIndex(where: { $0.id == id }) else { return }
        liveActivities.activities[index].tokenGeneration += 1
        let tokenGeneration = liveActivities.activities[index].tokenGeneration
        askForLiveActivityToken(.update, subject: id, generation: tokenGeneration) { [self] token in
            guard let index = liveActivities.activities.firstIndex(where: { $0.id == id }),
                  liveActivities.activities[index].tokenGeneration == tokenGeneration else { return }
            liveActivities.activities[index].updateToken = token
            record(.liveActivityTokenReceived, [.activity: .string(id), .handle: .string(shortToken(token)), .why: "update token"])
        }
    }

    /// Asks APNs over the device channel; `then` runs with the token if the app install that
    /// asked is still there when the answer comes.
    private func askForLiveActivityToken(_ kind: LiveActivityTokenRequest.Kind, subject: String, generation tokenGeneration: Int,
                                         then: @escaping (String) -> Void) {
        let ask = LiveActivityTokenRequest(app: service.appID, install: appInstance, environment: service.scope, kind: kind,
                                           subject: subject, generation: tokenGeneration)
        let request = HTTPRequest(method: "POST", authority: service.deviceHost, path: LiveActivityTokenRequest.path, body: ask.body)
        let appGeneration = generation
        world.call(request, from: name) { [self] result in
            guard appGeneration == generation else { return }
            guard let r = result.response, r.status == 200, let token = (try? JSONParser.parse(r.body))?["token"]?.stringValue else {
                return record(.liveActivityIgnored, [.action: .string("\(kind.rawValue)-token"), .why: .string("APNs gave no token: \(result.summary)")])
            }
            then(token)
        }
    }
}
