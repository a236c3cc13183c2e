import PushSimKernel
import PushSimNetwork

/// ActivityKit pushes reaching an iPhone (Citations §1.14–§1.17, A-LA-PUSH): a `start` to a
/// push-to-start token starts an activity of the token's attributes type (on a broadcast channel
/// when it names one in `input-push-channel`); an `update` or `end` to an activity's update token,
/// or broadcast on its channel (`Device+BroadcastChannels.swift`), changes it. The device answers
/// APNs 200 for every push it can take, used or not, and 410 when the token reaches nothing any
/// more (the activity was dismissed, the token was rotated, the app is gone), which is how APNs
/// learns to answer `ExpiredToken`.
///
/// Dropped, with the reason in `liveactivity.ignored`: a payload without `event`, `timestamp` or
/// (start, update) `content-state`; a start without `attributes-type` and `attributes`, or for
/// another attributes type than its token's; a push whose `timestamp` is older than the activity's
/// newest content (A-LA-PUSH: "the system ignores" it); a push after the activity ended (A-LA-PUSH);
/// a priority-10 update over ``Device/liveActivityPriority10Budget``; anything while the user
/// has turned the app's Live Activities off (A-LA-AUTH). Notification permission plays no part:
/// an update's alert is shown with the Live Activity (§1.14; unconfirmed, §7).
extension Device {
    /// A push to one of the app's Live Activity tokens (`target`, found by the token it names):
    /// 410 when it is an activity already dismissed, else 200 and the push is taken.
    func receiveLiveActivityPush(_ request: HTTPRequest, target: LiveActivityPushTarget, exchange: Exchange) {
        let message = request.headers[DeviceChannel.messageHeader] ?? ""
        if case .activity(let index) = target, liveActivities.activities[index].state(at: world.now) == .dismissed {
            record(.devicePushRefused, [.message: .string(message), .why: "the Live Activity token reaches no activity any more"])
            return world.respond(to: exchange, with: HTTPResponse(status: 410))
        }
        world.respond(to: exchange, with: HTTPResponse(status: 200))
        record(.devicePushReceived, [.service: .string(request.headers[DeviceChannel.serviceHeader] ?? "?"), .message: .string(message)])
        takeLiveActivityPush(request, target: target, message: message)
    }

    /// What ActivityKit does with a push the device took: reads `aps`, then starts or changes an
    /// activity, or drops the push with the reason (`liveactivity.ignored`).
    func takeLiveActivityPush(_ request: HTTPRequest, target: LiveActivityPushTarget, message: String) {
        let ignore = { (why: String) in self.record(.liveActivityIgnored, [.message: .string(message), .why: .string(why)]) }
        guard liveActivities.enabled else { return ignore("the user turned the app's Live Activities off") }
        let push: LiveActivityPush
        switch LiveActivityPush.read(request.body) {
        case .failure(let ignored): return ignore(ignored.reason)
        case .success(let p): push = p
        }
        switch target {
        case .pushToStart(let attributesType): startByPush(push, attributesType: attributesType, ignore: ignore)
        case .activity(let index): changeByPush(push, index: index, priority: request.headers["apns-priority"] ?? "10", ignore: ignore)
        }
    }

    private func startByPush(_ push: LiveActivityPush, attributesType: String, ignore: @escaping (String) -> Void) {
        guard push.event == .start else { return ignore("an \(push.event.rawValue) sent to a push-to-start token starts nothing") }
        guard osVersion >= LiveActivityLimits.firstPushToStartOS else { return ignore("push-to-start needs iOS 17.2 or later") }
        guard push.attributesType == attributesType else {
            return ignore("the token starts \(attributesType), not \(push.attributesType ?? "?")")
        }
        let begin = { [self] (channel: String?) in
            beginLiveActivity(attributesType: attributesType, attributes: push.attributes ?? .object([]), origin: .push,
                              contentState: push.contentState ?? .object([]), staleDate: push.staleDate.map(world.anchor.virtualTime(unixSeconds:)),
                              relevanceScore: push.relevanceScore, timestamp: push.timestamp, alert: push.alert, channel: channel)
        }
        // `input-push-channel`: the new activity listens on a broadcast channel (iOS 18) instead of
        // getting an update token; it starts once the device is subscribed.
        guard let channel = push.inputPushChannel else { return begin(nil) }
        if let why = channelRefusal(channel) { return ignore(why) }
        subscribe(toChannel: channel, refuse: ignore) { begin(channel) }
    }

    private func changeByPush(_ push: LiveActivityPush, index: Int, priority: String, ignore: (String) -> Void) {
        let activity = liveActivities.activities[index]
        guard push.event != .start else {
            return ignore(activity.channel == nil ? "a start sent to an update token starts nothing" : "a start broadcast on a channel starts nothing")
        }
        guard activity.state(at: world.now) != .ended else { return ignore("the Live Activity has ended: pushes after its end are ignored") }
        guard push.timestamp >= activity.timestamp else {
            return ignore("timestamp \(push.timestamp) is older than the Live Activity's newest content (\(activity.timestamp))")
        }
        if priority == "10", let budget = liveActivityPriority10Budget,
           !liveActivities.priority10Updates.admit(at: world.now, under: budget) {
            return ignore("over the priority-10 budget for ActivityKit pushes (\(budget))")
        }
        let id = activity.id
        switch push.event {
        case .end:
            let dismissal = push.dismissalDate.map(world.anchor.virtualTime(unixSeconds:))
            liveActivities.activities[index].finish(at: world.now, contentState: push.contentState, dismissalDate: dismissal)
            liveActivities.activities[index].timestamp = push.timestamp
            record(.liveActivityEnded, [.activity: .string(id), .why: "ended by a push"])
        default:
            liveActivities.activities[index].take(contentState: push.contentState ?? activity.contentState,
                                                  staleDate: push.staleDate.map(world.anchor.virtualTime(unixSeconds:)),
                                                  relevanceScore: push.relevanceScore, timestamp: push.timestamp)
            record(.liveActivityUpdated, [.activity: .string(id), .event: .string(push.event.rawValue)])
        }
        if let alert = push.alert {
            liveActivities.activities[index].alerts.append(alert)
            record(.liveActivityAlert, [.activity: .string(id), .text: .string(alert)])
        }
    }
}
