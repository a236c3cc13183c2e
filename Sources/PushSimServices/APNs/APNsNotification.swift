import PushSimKernel
import PushSimNetwork

/// A provider request to APNs that passed every header and body check.
public struct APNsNotification: Sendable, Equatable {
    /// Device token as sent, lower-cased hex.
    public var token: String
    /// `apns-topic`: the app's bundle ID plus the push type's suffix, if any.
    public var topic: String
    /// `apns-push-type`; `.alert` when the header is absent.
    public var pushType: APNsPushType
    /// 10, 5 or 1.
    public var priority: Int
    /// The request's `apns-id`, or the one APNs made up.
    public var apnsID: String
    /// `apns-expiration`: Unix seconds; 0 = try once and never store; nil = header absent.
    public var expiration: Int64?
    /// `apns-collapse-id`, at most 64 bytes; nil = header absent.
    public var collapseID: String?
    /// The request body: not empty, at most ``APNsPushType/maxPayloadBytes`` bytes.
    public var payload: [UInt8]
}

/// Checks a `POST /3/device/<token>` request the way APNs does (Citations §1.2–§1.5,
/// sources A-SEND, A-RESP). Authentication is checked separately (``APNsProviderTokens``).
/// Token existence is checked by the service, which knows which tokens it issued.
enum APNsRequestCheck {
    /// The headers APNs reads; any of them twice is `DuplicateHeaders` (A-RESP).
    static let knownHeaders = ["authorization", "apns-id", "apns-push-type", "apns-expiration", "apns-priority",
                               "apns-topic", "apns-collapse-id"]

    /// The index in ``knownHeaders`` of header name `name` (any case), or nil. The name's length
    /// picks the one or two candidates: a request's five or six headers were each compared with
    /// up to seven names, on every notification copy. (A table derived from ``knownHeaders`` at run
    /// time cost 0.3% of a broadcast more; a test holds this switch to the array.)
    static func knownHeaderIndex(_ name: String) -> Int? {
        func candidate(_ i: Int) -> Int? { sameFieldName(knownHeaders[i], name) ? i : nil }
        switch name.utf8.count {
        case 7: return candidate(1)
        case 10: return candidate(5)
        case 13: return candidate(0) ?? candidate(4)
        case 14: return candidate(2)
        case 15: return candidate(3)
        case 16: return candidate(6)
        default: return nil
        }
    }

    /// `backgroundWithoutPriorityIs5`: ``APNsConfiguration/acceptsBackgroundPushWithoutPriority``.
    static func check(_ request: HTTPRequest, apnsID: String, backgroundWithoutPriorityIs5: Bool) -> Result<APNsNotification, APNsRejection> {
        // :method — only POST (A-RESP 405 MethodNotAllowed).
        guard request.method == "POST" else { return .failure(.methodNotAllowed) }
        // :path — /3/device/<token> (A-RESP 404 BadPath, 400 MissingDeviceToken).
        let prefix = "/3/device/"
        guard request.path.hasBytePrefix(prefix) || request.path == "/3/device" else { return .failure(.badPath) }
        // Read in place (through the generic view, a 64-digit token cost some 600 instructions).
        let token = request.path.utf8.withContiguousStorageIfAvailable {
            String(decoding: UnsafeBufferPointer(rebasing: $0[min(prefix.utf8.count, $0.count)...]), as: UTF8.self)
        } ?? String(request.path.utf8.dropFirst(min(prefix.utf8.count, request.path.utf8.count)))!
        guard !token.isEmpty else { return .failure(.missingDeviceToken) }
        // One pass over the headers: each known one at most once, its value kept by index.
        var values = KnownHeaderValues()
        for field in request.headers {
            guard let i = knownHeaderIndex(field.name) else { continue }
            if values[i] != nil { return .failure(.duplicateHeaders) }
            values[i] = field.value
        }
        // Indexes into knownHeaders, so that no name is compared again.
        let (id, pushTypeIndex, expirationIndex, priorityIndex, topicIndex, collapseIndex) = (1, 2, 3, 4, 5, 6)
        func header(_ index: Int) -> String? { values[index] }
        // apns-topic: required with token-based auth (A-SEND; 400 MissingTopic).
        guard let topic = header(topicIndex), !topic.isEmpty else { return .failure(.missingTopic) }
        // apns-push-type: one of the known values (A-SEND; 400 InvalidPushType). Absent: treated as alert.
        var pushType = APNsPushType.alert
        if let raw = header(pushTypeIndex) {
            guard let t = APNsPushType(rawValue: raw) else { return .failure(.invalidPushType) }
            pushType = t
        }
        // The topic suffix must match the push type (§1.3; checked here as BadTopic).
        if let suffix = pushType.topicSuffix, !suffix.isEmpty, !topic.hasByteSuffix(suffix) { return .failure(.badTopic) }
        // apns-priority: 10, 5 or 1, and 10 when absent; a background push must not be 10, so a
        // background push without the header is refused too (A-SEND; see APNsConfiguration.
        // acceptsBackgroundPushWithoutPriority for the sources and the setting).
        var priority = 10
        if let raw = header(priorityIndex) {
            guard let p = Int(raw), [10, 5, 1].contains(p) else { return .failure(.badPriority) }
            priority = p
        } else if pushType == .background && backgroundWithoutPriorityIs5 {
            priority = 5
        }
        if pushType == .background && priority == 10 { return .failure(.badPriority) }
        // apns-id: canonical UUID (A-SEND; 400 BadMessageId).
        if let given = header(id), !isCanonicalUUID(given) { return .failure(.badMessageId) }
        // apns-expiration: Unix seconds (A-SEND; 400 BadExpirationDate).
        var expiration: Int64?
        if let raw = header(expirationIndex) {
            guard let e = Int64(raw), e >= 0 else { return .failure(.badExpirationDate) }
            expiration = e
        }
        // apns-collapse-id: at most 64 bytes (A-SEND; 400 BadCollapseId).
        let collapseID = header(collapseIndex)
        if let c = collapseID, c.utf8.count > 64 { return .failure(.badCollapseId) }
        // Body: not empty (400 PayloadEmpty), within 4096 / 5120 bytes for VoIP (413 PayloadTooLarge) (§1.4, A-GEN).
        guard !request.body.isEmpty else { return .failure(.payloadEmpty) }
        guard request.body.count <= pushType.maxPayloadBytes else { return .failure(.payloadTooLarge) }
        // Token: even-length hex of any length (Apple says not to hard-code 32 bytes; A-DTOK, §1.5).
        guard token.utf8.count % 2 == 0, isHexText(token) else { return .failure(.badDeviceToken) }
        let lowerToken = token.containsByte(where: { $0 &- UInt8(ascii: "A") < 26 }) ? token.asciiLowercased() : token
        return .success(APNsNotification(token: lowerToken, topic: topic, pushType: pushType, priority: priority,
                                         apnsID: header(id)?.asciiLowercased() ?? apnsID, expiration: expiration,
                                         collapseID: collapseID, payload: request.body))
    }
}

/// The values of ``APNsRequestCheck/knownHeaders`` in one request, by index: seven fields
/// rather than an array, so that checking a request allocates nothing for them.
private struct KnownHeaderValues {
    private var v0, v1, v2, v3, v4, v5, v6: String?

    subscript(i: Int) -> String? {
        get {
            switch i {
            case 0: return v0
            case 1: return v1
            case 2: return v2
            case 3: return v3
            case 4: return v4
            case 5: return v5
            default: return v6
            }
        }
        set {
            switch i {
            case 0: v0 = newValue
            case 1: v1 = newValue
            case 2: v2 = newValue
            case 3: v3 = newValue
            case 4: v4 = newValue
            case 5: v5 = newValue
            default: precondition(i == 6, "seven known headers"); v6 = newValue
            }
        }
    }
}

/// Whether every byte of `text` is a hex digit (either case), read in place eight bytes at a time:
/// a device token is checked on every push.
func isHexText(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { ByteWord.allHexDigits(UnsafeRawBufferPointer($0)) }
}

/// 8-4-4-4-12 hex digits, either case.
func isCanonicalUUID(_ s: String) -> Bool {
    let parts = s.split(separator: "-", omittingEmptySubsequences: false)
    return parts.map(\.utf8.count) == [8, 4, 4, 4, 12] && s.allBytes { $0 == UInt8(ascii: "-") || $0.isASCIIHexDigit }
}
