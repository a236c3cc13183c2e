import PushSimKernel

/// What an iPhone holds of one app's Live Activities: the activities (running, ended and
/// dismissed, in the order they started) and the app's push-to-start tokens. Forgotten with the
/// app (an uninstall, a new install), as ActivityKit's state lives with the app.
public struct LiveActivityBoard: Sendable, Equatable {
    /// The app's push-to-start token for one attributes type, and how many it has had.
    public struct PushToStartToken: Sendable, Equatable {
        /// The `ActivityAttributes` type it starts.
        public var attributesType: String
        /// The token, nil while APNs has not answered yet.
        public var token: String?
        /// How many tokens were asked for this type (rotations count), from 1.
        public var generation: Int
    }

    /// Every Live Activity the app had, in the order they started.
    public internal(set) var activities: [LiveActivity] = []
    /// The push-to-start tokens the app observes, in the order it asked for them.
    public internal(set) var pushToStartTokens: [PushToStartToken] = []
    /// Whether the user allows the app's Live Activities (Settings; `ActivityAuthorizationInfo.
    /// areActivitiesEnabled`, A-LA-AUTH). Kept apart from notification permission.
    public internal(set) var enabled = true
    /// Priority-10 updates taken, for ``Device/liveActivityPriority10Budget``.
    var priority10Updates = SlidingWindowCounter()

    /// Nothing yet.
    public init() {}

    /// The newest activity of `attributesType` (any type when nil), ended ones included.
    public func newest(_ attributesType: String? = nil) -> LiveActivity? {
        activities.last { attributesType == nil || $0.attributesType == attributesType }
    }

    /// The newest activity on broadcast channel `channel` (APNs' channel id), ended ones included.
    public func newest(onChannel channel: String) -> LiveActivity? {
        activities.last { $0.channel == channel }
    }

    /// The push-to-start token for `attributesType`, nil when none arrived.
    public func pushToStartToken(for attributesType: String) -> String? {
        pushToStartTokens.first { $0.attributesType == attributesType }?.token
    }

    /// The attributes type `token` starts, nil when it is no current push-to-start token.
    func attributesType(startedBy token: String) -> String? {
        pushToStartTokens.first { $0.token == token }?.attributesType
    }

    /// What a push to `token` reaches: the attributes type it starts, or the activity whose
    /// current update token it is; nil when it is neither (a rotated token, another app's).
    func target(of token: String) -> LiveActivityPushTarget? {
        if let type = pushToStartTokens.first(where: { $0.token == token })?.attributesType { return .pushToStart(attributesType: type) }
        return activities.firstIndex { $0.updateToken == token }.map(LiveActivityPushTarget.activity)
    }

    /// The index of the activity a broadcast on `channel` updates at `now`: the newest one on the
    /// channel still on the Lock Screen; nil when there is none (the device then leaves the channel).
    func activityIndex(onChannel channel: String, at now: VirtualTime) -> Int? {
        activities.lastIndex { $0.channel == channel && $0.state(at: now) != .dismissed }
    }
}
