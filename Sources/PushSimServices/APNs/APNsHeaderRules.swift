import PushSimKernel

/// The rules a send (`POST /3/device/…`, ``APNsRequestCheck``) and a broadcast
/// (`POST /4/broadcasts/apps/…`, `BroadcastRequest`) share (Citations §1.2, §1.4, §1.20; A-SEND,
/// A-BCSEND): the `apns-priority` and `apns-expiration` headers and the payload's size.
enum APNsHeaderRules {
    /// `apns-priority`: 10, 5 or 1 (400 `BadPriority` otherwise); nil when the header is absent.
    static func priority(_ raw: String?) throws(APNsRejection) -> Int? {
        guard let raw else { return nil }
        guard let p = Int(raw), p == 10 || p == 5 || p == 1 else { throw .badPriority }
        return p
    }

    /// `apns-expiration`: Unix seconds, 0 meaning "try once, never store" (400
    /// `BadExpirationDate` otherwise); nil when the header is absent.
    static func expiration(_ raw: String?) throws(APNsRejection) -> Int64? {
        guard let raw else { return nil }
        guard let e = Int64(raw), e >= 0 else { throw .badExpirationDate }
        return e
    }

    /// The payload: not empty (400 `PayloadEmpty`) and at most `limit` bytes (413 `PayloadTooLarge`).
    static func checkPayload(_ body: [UInt8], limit: Int) throws(APNsRejection) {
        guard !body.isEmpty else { throw .payloadEmpty }
        guard body.count <= limit else { throw .payloadTooLarge }
    }
}
