import PushSimKernel
import PushSimNetwork

/// What the fake APNs holds for broadcast channels: the channels and their subscribers, and the
/// broadcasts kept for subscribed devices that could not be reached (Citations §1.20).
struct BroadcastState {
    /// The channels of every app and environment, and who is subscribed.
    var registry = BroadcastChannelRegistry()
    /// Broadcasts kept for unreachable devices on "most recent message stored" channels, by
    /// "device|environment|app|channel": one per device per channel, the newest replacing the older.
    var stored: [String: StoredBroadcast] = [:]

    /// One broadcast kept for one device.
    struct StoredBroadcast {
        var channel: BroadcastChannel
        var token: String
        var device: String
        /// The request id of the broadcast (`apns-request-id`), which traces name it by.
        var messageID: String
        var priority: Int
        var payload: [UInt8]
        /// The causal chain of the broadcast, so the later delivery is traced as part of it.
        var correlation: String
        var expiresAt: VirtualTime
    }

    static func key(device: String, channel: BroadcastChannel) -> String {
        device + "|" + channel.environment + "|" + channel.app + "|" + channel.id
    }

    /// Drops what was kept for `channel` (it was deleted).
    mutating func dropStored(channel: BroadcastChannel, world: World) {
        for key in stored.keys.sorted() {
            guard let s = stored[key], s.channel == channel else { continue }
            stored[key] = nil
            world.record(layer: "apns", host: APNsService.name, kind: .notificationDropped,
                         [.apnsID: .string(s.messageID), .channelID: .string(channel.id), .reason: "the channel was deleted"])
        }
    }

    /// Takes out what was kept for `device`, in key order.
    mutating func takeStored(device: String) -> [StoredBroadcast] {
        let prefix = device + "|"
        let keys = stored.keys.filter { $0.hasBytePrefix(prefix) }.sorted()
        return keys.compactMap { stored.removeValue(forKey: $0) }
    }
}
