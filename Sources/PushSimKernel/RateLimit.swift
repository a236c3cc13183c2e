/// At most `limit` events in any stretch of virtual time `window` long, e.g. `RateLimit(3, per: .hours(1))`.
///
/// Used where a real system limits a rate without publishing how it counts: APNs' per-token
/// `TooManyRequests` (A-RESP, A-FORUM-806522) and iOS's budget for background pushes (A-BG,
/// PINPOINT "2–3 per hour"). PushSim counts with a sliding window, the simplest reading.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    /// Events allowed per window; at least 1.
    public var limit: Int
    /// The length of the sliding window; positive.
    public var window: VirtualDuration

    /// At most `limit` events per `window`. Traps unless `limit` is at least 1 and `window` is positive.
    public init(_ limit: Int, per window: VirtualDuration) {
        precondition(limit >= 1, "a rate limit must allow at least one event, got \(limit)")
        precondition(window > .zero, "a rate limit needs a positive window, got \(window)")
        self.limit = limit
        self.window = window
    }

    /// `3 per 1h`.
    public var description: String { "\(limit) per \(window)" }
}

/// The times of the events admitted under a ``RateLimit`` (a sliding window). Never holds more
/// than `limit` times: older ones are forgotten as they leave the window.
public struct SlidingWindowCounter: Sendable, Equatable {
    private var times: [VirtualTime] = []

    /// A counter that has admitted nothing yet.
    public init() {}

    /// Admits one event at `now` and returns true if fewer than `limit.limit` were admitted in
    /// `(now - window, now]`; otherwise returns false and counts nothing.
    public mutating func admit(at now: VirtualTime, under limit: RateLimit) -> Bool {
        times.removeAll { now - $0 >= limit.window }
        guard times.count < limit.limit else { return false }
        times.append(now)
        return true
    }

    /// Events admitted in the window ending at `now`.
    public func count(at now: VirtualTime, window: VirtualDuration) -> Int {
        times.filter { now - $0 < window }.count
    }
}
