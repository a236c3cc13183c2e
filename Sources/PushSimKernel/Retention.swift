/// How much of a growing record to keep: the newest ``limit`` items at least, the oldest dropped
/// in batches. For worlds that run for days (`pushsim serve`), where a request journal or a
/// phone's notification list would otherwise grow with every request.
///
/// Dropping waits until the record holds an eighth more than the limit, then cuts it back to the
/// limit at once: the record never holds more than 9/8 of the limit (plus one), and dropping
/// costs O(1) per item added on average (one shift of the array per `limit / 8` items).
public struct Retention: Sendable, Equatable {
    /// The number of newest items always kept (at least 0).
    public var limit: Int

    /// Keeps at least the newest `limit` items (a negative limit counts as 0).
    public init(keeping limit: Int) { self.limit = max(0, limit) }

    /// Drops the oldest items of `items` when it has grown an eighth past ``limit`` (`now`: as
    /// soon as it is past the limit at all). Returns how many were dropped.
    @discardableResult
    public func trim<Item>(_ items: inout [Item], now: Bool = false) -> Int {
        let threshold = now ? limit : limit + limit / 8 + 1
        guard items.count > threshold else { return 0 }
        let excess = items.count - limit
        items.removeFirst(excess)
        return excess
    }
}
