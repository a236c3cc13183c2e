import PushSimKernel
import PushSimNetwork

/// ActivityKit pushes reaching an iPhone (Citations §1.14–§1.17, A-LA-PUSH): a `start` to a
/// push-to-start token starts an activity of the token's attributes type; an `update` or `end` to
/// an activity's update token changes it. The device answers APNs 200 for every push it can take,
/// used or not, and 410 when the token reaches nothing any more (the activity was dismissed, the
/// token was rotated, the app is gone), which is how APNs learns to answer `ExpiredToken`.
///
/// Dropped, with the reason in `liveactivity.ignored`: a payload without `event`, `timestamp` or
/// (start, update) `content-state`; a start without `attributes-type` and `attributes`, or for
/// another attributes type than its token's; a push whose `timestamp` is older than the activity's
/// newest content (A-LA-PUSH: "the system ignores" it); a push after the activity ended (A-LA-PUSH);
/// a priority-10 update over ``Device/liveActivityPriority10Budget``; anything while the user
/// has turned the app's Live Activities off (A-LA-AUTH). Notification permission plays no part:
/// an update's alert is shown with the Live Activity (§1.14; unconfirmed, §7).
extension Device {
    func receiveLiveActivityPush(_ request: HTTPRequest, exchange: Exchange) {
        let token = request.headers[DeviceChannel.handleHeader] ?? ""
        let message = request.headers[DeviceChannel.messageHeader] ?? ""
        let startsType = isAppInstalled ? liveActivities.attributesType(startedBy: token) : nil
        let index = isAppInstalled ? liveActivities.activityIndex(updatedBy: token) : nil
        let reachable = startsType != nil || index.map { liveActivities.activities[$0].state(at: world.now) != .dismissed } == true
        guard reachable else {
            record(.devicePushRefused, [.message: .string(message),
                                        .why: .string(isAppInstalled ? "the Live Activity token reaches no activity any more" : "app not installed")])
            return world.respond(to: exchange, with: HTTPResponse(status: 410))
        }
        world.respond(to: exchange, with: HTTPResponse(status: 200))
        record(.devicePushReceived, [.service: .string(request.headers[DeviceChannel.serviceHeader] ?? "?"), .message: .string(message)])
        func ignore(_ why: String) { record(.liveActivityIgnored, [.message: .string(message), .why: .string(why)]) }
        guard liveActivities.enabled else { return ignore("the user turned the app's Live Activities off") }
        let push: LiveActivityPush
        switch LiveActivityPush.read(request.body) {
        case .failure(let ignored): return ignore(ignored.reason)
        case .success(let p): push = p
        }
        if let startsType { return startByPush(push, attributesType: startsType, ignore: ignore) }
        guard let index else { return }
        changeByPush(push, index: index, priority: request.headers["apns-priority"] ?? "10", ignore: ignore)
    }

    private func startByPush(_ push: LiveActivityPush, attributesType: String, ignore: (String) -> Void) {
        guard push.event == .start else { return ignore("an \(push.event.rawValue) sent to a push-to-start token starts nothing") }
        guard osVersion >= LiveActivityLimits.firstPushToStartOS else { return ignore("push-to-start needs iOS 17.2 or later") }
        guard push.attributesType == attributesType else {
            return ignore("the token starts \(attributesType), not \(push.attributesType ?? "?")")
        }
        // With `input-push-channel` the new activity would listen on a broadcast channel instead of
        // getting an update token: that is where channels (APNs/Broadcast) plug in.
        beginLiveActivity(attributesType: attributesType, attributes: push.attributes ?? .object([]), origin: .push,
                          contentState: push.contentState ?? .object([]), staleDate: push.staleDate.map(world.anchor.virtualTime(unixSeconds:)),
                          relevanceScore: push.relevanceScore, timestamp: push.timestamp, alert: push.alert,
                          wantsToken: push.inputPushChannel == nil)
    }

    private func changeByPush(_ push: LiveActivityPush, index: Int, priority: String, ignore: (String) -> Void) {
        let activity = liveActivities.activities[index]
        guard push.event != .start else { return ignore("a start sent to an update token starts nothing") }
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
