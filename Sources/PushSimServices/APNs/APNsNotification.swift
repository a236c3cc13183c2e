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
    /// `backgroundWithoutPriorityIs5`: ``APNsConfiguration/acceptsBackgroundPushWithoutPriority``.
    static func check(_ request: HTTPRequest, apnsID: String, backgroundWithoutPriorityIs5: Bool) -> Result<APNsNotification, APNsRejection> {
        // :method — only POST (A-RESP 405 MethodNotAllowed).
        guard request.method == "POST" else { return .failure(.methodNotAllowed) }
        // :path — /3/device/<token> (A-RESP 404 BadPath, 400 MissingDeviceToken).
        let prefix = "/3/device/"
        guard request.path.hasBytePrefix(prefix) || request.path == "/3/device" else { return .failure(.badPath) }
        let token = request.path.utf8Suffix(from: prefix.utf8.count)
        guard !token.isEmpty else { return .failure(.missingDeviceToken) }
        guard let headers = APNsHeadersFastPath.read(request.headers) else { return .failure(.duplicateHeaders) }
        // apns-topic: required with token-based auth (A-SEND; 400 MissingTopic).
        guard let topic = headers.topic, !topic.isEmpty else { return .failure(.missingTopic) }
        // apns-push-type: one of the known values (A-SEND; 400 InvalidPushType). Absent: treated as alert.
        var pushType = APNsPushType.alert
        if let raw = headers.pushType {
            guard let t = APNsPushType(rawValue: raw) else { return .failure(.invalidPushType) }
            pushType = t
        }
        // The topic suffix must match the push type (§1.3; checked here as BadTopic).
        if let suffix = pushType.topicSuffix, !suffix.isEmpty, !topic.hasByteSuffix(suffix) { return .failure(.badTopic) }
        // apns-priority: 10, 5 or 1, and 10 when absent; a background push must not be 10, so a
        // background push without the header is refused too (A-SEND; see APNsConfiguration.
        // acceptsBackgroundPushWithoutPriority for the sources and the setting).
        var priority = 10
        do throws(APNsRejection) {
            if let p = try APNsHeaderRules.priority(headers.priority) {
                priority = p
            } else if pushType == .background && backgroundWithoutPriorityIs5 {
                priority = 5
            }
        } catch { return .failure(error) }
        if pushType == .background && priority == 10 { return .failure(.badPriority) }
        // apns-id: canonical UUID (A-SEND; 400 BadMessageId).
        if let given = headers.apnsID, !isCanonicalUUID(given) { return .failure(.badMessageId) }
        // apns-expiration: Unix seconds (A-SEND; 400 BadExpirationDate).
        let expiration: Int64?
        do throws(APNsRejection) { expiration = try APNsHeaderRules.expiration(headers.expiration) } catch { return .failure(error) }
        // apns-collapse-id: at most 64 bytes (A-SEND; 400 BadCollapseId).
        let collapseID = headers.collapseID
        if let c = collapseID, c.utf8.count > 64 { return .failure(.badCollapseId) }
        // Body: not empty (400 PayloadEmpty), within 4096 / 5120 bytes for VoIP (413 PayloadTooLarge) (§1.4, A-GEN).
        do throws(APNsRejection) { try APNsHeaderRules.checkPayload(request.body, limit: pushType.maxPayloadBytes) } catch { return .failure(error) }
        // Token: even-length hex of any length (Apple says not to hard-code 32 bytes; A-DTOK, §1.5).
        guard token.utf8.count % 2 == 0, token.isAllHexDigits else { return .failure(.badDeviceToken) }
        let lowerToken = token.containsASCIIUppercase ? token.asciiLowercased() : token
        return .success(APNsNotification(token: lowerToken, topic: topic, pushType: pushType, priority: priority,
                                         apnsID: headers.apnsID?.asciiLowercased() ?? apnsID, expiration: expiration,
                                         collapseID: collapseID, payload: request.body))
    }
}

/// 8-4-4-4-12 hex digits, either case.
func isCanonicalUUID(_ s: String) -> Bool {
    let parts = s.split(separator: "-", omittingEmptySubsequences: false)
    return parts.map(\.utf8.count) == [8, 4, 4, 4, 12] && s.allBytes { $0 == UInt8(ascii: "-") || $0.isASCIIHexDigit }
}
