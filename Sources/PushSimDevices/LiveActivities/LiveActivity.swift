import PushSimKernel
import PushSimNetwork

/// One Live Activity on a simulated iPhone: what it shows and where it is in its life.
///
/// State follows ActivityKit (A-LA-STATE, A-LA-DISPLAY, A-LA-DISMISS): it is active until its
/// `stale-date` passes (then stale until newer content comes), until it is ended (by the app, an
/// `end` push, or the system after ``LiveActivityLimits/longestActive``), and an ended activity is
/// dismissed at its dismissal date, or ``LiveActivityLimits/longestShownAfterEnd`` after it ended,
/// whichever comes first. Every state is read from the virtual time it is asked at; nothing is
/// scheduled.
public struct LiveActivity: Sendable, Equatable {
    /// How it was started.
    public enum Origin: String, Sendable {
        /// By the app in the foreground (`Activity.request`).
        case app
        /// By an ActivityKit push with `event: start` to a push-to-start token.
        case push
    }

    /// Its id (`Activity.id`): a UUID drawn from the seeded stream `live-activity/<device>/<n>`.
    public let id: String
    /// The name of its `ActivityAttributes` type, e.g. `MatchAttributes`.
    public let attributesType: String
    /// Its static attributes as given at start (a JSON object).
    public let attributes: JSONValue
    /// How it was started.
    public let origin: Origin
    /// When it started.
    public let startedAt: VirtualTime
    /// Its content (`content-state`): the last one accepted.
    public internal(set) var contentState: JSONValue
    /// When its content is out of date (`stale-date`), nil for never.
    public internal(set) var staleDate: VirtualTime?
    /// Its `relevance-score`, nil when never given.
    public internal(set) var relevanceScore: Double?
    /// The `timestamp` of the newest content, Unix seconds: older pushes are ignored.
    public internal(set) var timestamp: Int64
    /// When it was ended by the app or a push, nil while it runs (the eight-hour end is computed).
    public internal(set) var endedAt: VirtualTime?
    /// The dismissal date asked for at its end (`dismissal-date`), nil for the default policy.
    public internal(set) var dismissalDate: VirtualTime?
    /// The APNs broadcast channel it listens on (`pushType: .channel(<id>)`, or a push-to-start's
    /// `input-push-channel`; iOS 18), nil for one updated through its own token.
    public let channel: String?
    /// Its update token (`Activity.pushToken`), nil until APNs issued one, and for one on a channel.
    public internal(set) var updateToken: String?
    /// How many update tokens it has had (rotations count), from 0.
    public internal(set) var tokenGeneration = 0
    /// The alerts its updates carried (`aps.alert`: "title: body", or the one given), in order.
    public internal(set) var alerts: [String] = []
    /// How many updates it took (start not counted).
    public internal(set) var updates = 0

    init(id: String, attributesType: String, attributes: JSONValue, origin: Origin, startedAt: VirtualTime,
         contentState: JSONValue, staleDate: VirtualTime?, relevanceScore: Double?, timestamp: Int64, channel: String?) {
        self.id = id
        self.channel = channel
        self.attributesType = attributesType
        self.attributes = attributes
        self.origin = origin
        self.startedAt = startedAt
        self.contentState = contentState
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
        self.timestamp = timestamp
    }

    /// When it ends, or ended: its end, or the system's after eight hours, whichever is first.
    public var endsAt: VirtualTime {
        let limit = startedAt + LiveActivityLimits.longestActive
        return endedAt.map { min($0, limit) } ?? limit
    }

    /// When it leaves the Lock Screen: the dismissal date (never before its end), else four hours
    /// after its end, whichever is first.
    public var dismissedAt: VirtualTime {
        let end = endsAt
        let latest = end + LiveActivityLimits.longestShownAfterEnd
        guard let asked = dismissalDate else { return latest }
        return min(max(asked, end), latest)
    }

    /// Whether it takes updates at `now`: active or stale.
    public func isRunning(at now: VirtualTime) -> Bool {
        let state = state(at: now)
        return state == .active || state == .stale
    }

    /// Its state at `now`.
    public func state(at now: VirtualTime) -> LiveActivityState {
        if now >= dismissedAt { return .dismissed }
        if now >= endsAt { return .ended }
        if let staleDate, now >= staleDate { return .stale }
        return .active
    }
}

extension LiveActivity {
    /// Ends it at `time` with a final content when given and a dismissal date (nil: the default policy).
    mutating func finish(at time: VirtualTime, contentState: JSONValue?, dismissalDate: VirtualTime?) {
        endedAt = time
        if let contentState { self.contentState = contentState }
        self.dismissalDate = dismissalDate
    }

    /// Takes an update's content: new content, stale date (none when the update gives none, as
    /// `ActivityContent(state:staleDate:)` has none), relevance score when given, and timestamp.
    mutating func take(contentState: JSONValue, staleDate: VirtualTime?, relevanceScore: Double?, timestamp: Int64) {
        self.contentState = contentState
        self.staleDate = staleDate
        if let relevanceScore { self.relevanceScore = relevanceScore }
        self.timestamp = timestamp
        updates += 1
    }
}
