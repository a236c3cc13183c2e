import PushSimKernel

/// What FCM keeps for one offline device (Citations §2.5, source F-COLL).
struct FCMOfflineQueue {
    struct Entry {
        var name: String
        var message: FCMMessage
        var token: String
        var app: String
        var expiresAt: VirtualTime
        /// The causal chain of the send, kept so a later delivery is traced as part of it.
        var correlation: String
    }

    /// Non-collapsible messages kept per device before FCM discards them all.
    static let maxNonCollapsible = 100
    /// Collapse keys kept per device at once.
    static let maxCollapseKeys = 4

    /// Who to tell that stored messages were deleted: the app gets `onDeletedMessages()` on its
    /// next connection (F-COLL). Nil when nothing was deleted since the last connection.
    struct DeletedNotice {
        var token: String
        var app: String
        /// The send that overflowed the store.
        var correlation: String
    }

    private(set) var messages: [Entry] = []
    /// Pending `onDeletedMessages()` for this device, if the store overflowed.
    var deletedNotice: DeletedNotice?

    /// Adds `entry`; returns what had to be dropped to make room, with the reason.
    mutating func add(_ entry: Entry) -> [(name: String, reason: String)] {
        var dropped: [(String, String)] = []
        if let key = entry.message.collapseKey {
            if let i = messages.firstIndex(where: { $0.message.collapseKey == key }) {
                dropped.append((messages[i].name, "replaced by a newer message with collapse key \(key)"))
                messages.remove(at: i)
            }
            let keys = messages.compactMap(\.message.collapseKey)
            if keys.count >= Self.maxCollapseKeys, let oldest = messages.firstIndex(where: { $0.message.collapseKey != nil }) {
                dropped.append((messages[oldest].name, "more than \(Self.maxCollapseKeys) collapse keys stored for the device"))
                messages.remove(at: oldest)
            }
        } else if messages.filter({ $0.message.collapseKey == nil }).count >= Self.maxNonCollapsible {
            // Past 100 FCM deletes every stored message, collapsible ones too (§2.5, F-COLL);
            // the app gets onDeletedMessages().
            for m in messages {
                dropped.append((m.name, "more than \(Self.maxNonCollapsible) messages stored for the device: FCM deleted them (onDeletedMessages)"))
            }
            messages.removeAll()
            deletedNotice = DeletedNotice(token: entry.token, app: entry.app, correlation: entry.correlation)
        }
        messages.append(entry)
        return dropped
    }

    /// Everything kept, oldest first, and the pending deletion notice, leaving the queue empty.
    mutating func drain() -> (notice: DeletedNotice?, messages: [Entry]) {
        defer { messages = []; deletedNotice = nil }
        return (deletedNotice, messages)
    }
}
