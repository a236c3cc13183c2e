import PushSimKernel

/// What APNs keeps of a broadcast for a subscribed device it cannot reach, chosen once when the
/// channel is created (`message-storage-policy` in the create request's body; Citations §1.20,
/// A-BCMANAGE, A-BCSEND).
public enum BroadcastMessageStoragePolicy: Int, Sendable, CaseIterable {
    /// `0`, "no message stored": a device that is offline when a broadcast goes out misses it.
    /// Apple asks for `apns-expiration: 0` on such a channel's broadcasts.
    case noMessageStored = 0
    /// `1`, "most recent message stored": APNs keeps the newest broadcast on the channel for an
    /// offline device (an older one is replaced) and delivers it when the device comes back,
    /// unless its `apns-expiration` passed first.
    case mostRecentMessageStored = 1

    /// How scenario files and traces write it: `none`, `most-recent`.
    public var word: String { self == .noMessageStored ? "none" : "most-recent" }
}

/// One broadcast channel of an app in one APNs environment, as the channel management API
/// created it (Citations §1.20, A-BCMANAGE).
public struct BroadcastChannel: Sendable, Equatable {
    /// The channel id APNs made: standard base64 text, returned in `apns-channel-id`.
    public var id: String
    /// The bundle id in the request's path (`/1/apps/<bundle id>/channels`).
    public var app: String
    /// `production` or `sandbox`: channels of one environment are unknown to the other.
    public var environment: String
    /// The storage policy chosen at creation; it never changes.
    public var policy: BroadcastMessageStoragePolicy
    /// When the channel was created (world time).
    public var createdAt: VirtualTime
}

/// The channels APNs holds, per app and environment, and the devices subscribed to each
/// (Citations §1.20, A-BCMANAGE): at most ``limitPerAppAndEnvironment`` channels per app in each
/// environment; a channel lives until deleted, with or without subscribers.
package struct BroadcastChannelRegistry {
    /// "Up to 10,000 channels for your app in the development and production environment,
    /// respectively" (A-BCMANAGE). A create past it is refused with `CannotCreateChannelConfig`.
    package static let limitPerAppAndEnvironment = 10_000

    /// Channels by ``key(environment:app:id:)``.
    private var channels: [String: BroadcastChannel] = [:]
    /// Channel ids per "environment|app", in the order they were created (the list order).
    private var idsByApp: [String: [String]] = [:]
    /// Device tokens subscribed to each channel, by channel key, in the order they subscribed.
    private var subscribers: [String: [String]] = [:]

    package init() {}

    private static func key(environment: String, app: String, id: String) -> String { environment + "|" + app + "|" + id }

    /// How many channels `app` has in `environment`.
    package func count(app: String, environment: String) -> Int { idsByApp[environment + "|" + app]?.count ?? 0 }

    /// Adds `channel`; false (nothing added) when its app is at the limit in its environment.
    package mutating func add(_ channel: BroadcastChannel) -> Bool {
        guard count(app: channel.app, environment: channel.environment) < Self.limitPerAppAndEnvironment else { return false }
        channels[Self.key(environment: channel.environment, app: channel.app, id: channel.id)] = channel
        idsByApp[channel.environment + "|" + channel.app, default: []].append(channel.id)
        return true
    }

    /// The channel `id` of `app` in `environment`, nil when there is none (never made, or deleted).
    package func channel(id: String, app: String, environment: String) -> BroadcastChannel? {
        channels[Self.key(environment: environment, app: app, id: id)]
    }

    /// The ids of `app`'s channels in `environment`, oldest first.
    package func ids(app: String, environment: String) -> [String] { idsByApp[environment + "|" + app] ?? [] }

    /// Removes the channel and its subscriptions; false when there was none.
    package mutating func remove(id: String, app: String, environment: String) -> Bool {
        let key = Self.key(environment: environment, app: app, id: id)
        guard channels.removeValue(forKey: key) != nil else { return false }
        idsByApp[environment + "|" + app]?.removeAll { $0 == id }
        subscribers[key] = nil
        return true
    }

    /// Subscribes `token` to the channel (once); false when there is no such channel.
    package mutating func subscribe(_ token: String, to channel: BroadcastChannel) -> Bool {
        let key = Self.key(environment: channel.environment, app: channel.app, id: channel.id)
        guard channels[key] != nil else { return false }
        if subscribers[key]?.contains(token) != true { subscribers[key, default: []].append(token) }
        return true
    }

    /// Takes `token` off the channel's subscribers.
    package mutating func unsubscribe(_ token: String, from channel: BroadcastChannel) {
        subscribers[Self.key(environment: channel.environment, app: channel.app, id: channel.id)]?.removeAll { $0 == token }
    }

    /// The tokens subscribed to `channel`, in the order they subscribed.
    package func subscribers(of channel: BroadcastChannel) -> [String] {
        subscribers[Self.key(environment: channel.environment, app: channel.app, id: channel.id)] ?? []
    }

    /// Every channel, sorted by environment, app and creation order (for reports and checks).
    package var all: [BroadcastChannel] {
        idsByApp.keys.sorted().flatMap { appKey in
            (idsByApp[appKey] ?? []).compactMap { channels[appKey + "|" + $0] }
        }
    }
}
