import PushSimKernel
import PushSimNetwork

/// A notification to send, as the SDK's `Notification` subclasses carry it: the
/// `ServiceBusNotification-Format`, the body, its content type and platform headers (NH-DOTNET
/// `AppleNotification`, `FcmV1Notification`, `WindowsNotification`, `TemplateNotification`).
public struct NotificationPayload: Sendable {
    /// The `ServiceBusNotification-Format` value: `apple`, `fcmv1`, `windows`, `browser` or `template`.
    public var format: String
    /// The native body, or a template send's property bag as JSON.
    public var body: String
    /// The request's `Content-Type`.
    public var contentType: String
    /// Further request headers, passed on to the hub as given.
    public var headers: [(String, String)]

    /// APNs JSON; `headers` such as `apns-priority`, `apns-push-type` are forwarded to APNs.
    public static func apple(_ json: String, headers: [(String, String)] = []) -> NotificationPayload {
        NotificationPayload(format: "apple", body: json, contentType: "application/json;charset=utf-8", headers: headers)
    }

    /// `{"message":{…}}` without a token (the hub fills it in).
    public static func fcmV1(_ json: String) -> NotificationPayload {
        NotificationPayload(format: "fcmv1", body: json, contentType: "application/json;charset=utf-8", headers: [])
    }

    /// A browser notification: the body the page's service worker reads (JSON here, as the
    /// .NET SDK's `BrowserNotification` sends it, NH-DOTNET), which the hub encrypts for each
    /// subscription; `headers` such as `TTL`, `Urgency`, `Topic` are passed on (NH-BROWSER).
    public static func browser(_ json: String, headers: [(String, String)] = []) -> NotificationPayload {
        NotificationPayload(format: "browser", body: json, contentType: "application/json;charset=utf-8", headers: headers)
    }

    /// A Windows notification with the caller's WNS `headers`, typed as the SDK's
    /// `WindowsNotification(payLoad, wnsHeaders)` types it before sending (NH-DOTNET
    /// `OnValidateAndPopulateHeaders`): when the caller's `X-WNS-Type` is `wns/raw` (name and
    /// value in any case, the SDK's headers being `OrdinalIgnoreCase`), the body is sent as it is,
    /// any bytes, with `Content-Type: application/octet-stream` and `X-WNS-Type: wns/raw`
    /// (`Equals(Raw, StringComparison.OrdinalIgnoreCase)`, read as `ordinalUpper(_:)` does).
    /// Otherwise the body must be toast, tile, badge or raw XML and `X-WNS-Type` is taken from
    /// its root element (see ``wnsType(of:)``), replacing any other type the caller gave, as the
    /// SDK's `AddOrUpdateHeader` does; nil for other bodies (the SDK throws `ArgumentException`).
    /// A type the caller gave keeps its place among `headers` (the later of two wins, as in a
    /// dictionary); a type taken from the root goes first.
    public static func windows(_ body: String, headers: [(String, String)] = []) -> NotificationPayload? {
        var headers = headers
        var given: Int?
        var k = 0
        while k < headers.count {
            guard sameFieldName(headers[k].0, "X-WNS-Type") else { k += 1; continue }
            if let first = given { headers[first].1 = headers[k].1; headers.remove(at: k) } else { given = k; k += 1 }
        }
        if let given, ordinalUpper(headers[given].1) == "WNS/RAW" {
            headers[given].1 = "wns/raw"
            return NotificationPayload(format: "windows", body: body, contentType: "application/octet-stream", headers: headers)
        }
        guard let type = wnsType(of: body) else { return nil }
        if let given { headers[given].1 = type } else { headers.insert(("X-WNS-Type", type), at: 0) }
        return NotificationPayload(format: "windows", body: body, contentType: "application/xml", headers: headers)
    }

    /// The `X-WNS-Type` the SDK's `WindowsNotification` gives an XML payload, or nil where it
    /// throws `ArgumentException` (NH-DOTNET `RegistrationSDKHelper.DetectWindowsTemplateRegistationType`):
    /// the payload must be well-formed XML, and its root element's name one of the names of
    /// the SDK's `WindowsTemplateBodyType` (`Toast`, `Tile`, `Badge`, `Raw`) as .NET's
    /// `Enum.TryParse(name, ignoreCase: true)` reads it. That comparison is ordinal and ignores
    /// case by each character's invariant upper case, so `<Toast>` and `<TILE>` pass too, and
    /// so do the two non-ASCII letters whose upper case is an ASCII one: dotless `ı` (`<tıle>`)
    /// and long `ſ` (`<toaſt>`). A `raw` root gets `wns/raw` with the XML content type, as in
    /// the SDK.
    ///
    /// Not imitated: the SDK also re-serializes the document and puts
    /// `<?xml version="1.0" encoding="utf-16"?>` before it when it has no declaration
    /// (`AddDeclarationToXml`); PushSim sends the payload as given.
    public static func wnsType(of xml: String) -> String? {
        guard let root = (try? XMLDocumentParser.parse(xml))?.root.name else { return nil }
        switch ordinalUpper(root) {
        case "TOAST": return "wns/toast"
        case "TILE": return "wns/tile"
        case "BADGE": return "wns/badge"
        case "RAW": return "wns/raw"
        default: return nil
        }
    }

    /// `text` upper-cased as .NET's ordinal comparisons that ignore case read it: each
    /// character by its invariant upper case, so of the non-ASCII letters only dotless `ı` and
    /// long `ſ` become ASCII ones (`I`, `S`); the Kelvin sign and `İ` stay as they are.
    static func ordinalUpper(_ text: String) -> String {
        var upper = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z": upper.unicodeScalars.append(Unicode.Scalar(scalar.value - 0x20)!)
            case "\u{0131}": upper += "I"
            case "\u{017F}": upper += "S"
            default: upper.unicodeScalars.append(scalar)
            }
        }
        return upper
    }

    /// A native payload for a format with no typed payload above (a push service the SDK does not
    /// model), sent as given: the REST API's native send takes any format the hub knows (NH-REST).
    public static func native(format: String, body: String, contentType: String = "application/json;charset=utf-8",
                              headers: [(String, String)] = []) -> NotificationPayload {
        NotificationPayload(format: format, body: body, contentType: contentType, headers: headers)
    }

    /// The property bag of a template send, as a flat JSON object (`ServiceBusNotification-Format: template`; NH-REST).
    public static func template(_ properties: [(String, String)]) -> NotificationPayload {
        let body = JSONValue.object(properties.map { ($0.0, .string($0.1)) }).serialized()
        return NotificationPayload(format: "template", body: body, contentType: "application/json;charset=utf-8", headers: [])
    }

    /// The request's headers as the SDK sends them: the format, the content type's media type
    /// alone (the SDK drops its parameters, NH-DOTNET `SendNotificationImplAsync`), then `headers`.
    var requestHeaders: [(String, String)] { [("ServiceBusNotification-Format", format), ("Content-Type", mediaType)] + headers }

    /// `contentType` up to its first `;` (`ParseContentType`).
    var mediaType: String { String(contentType.utf8.prefix { $0 != UInt8(ascii: ";") })! }
}

/// A scheduled send as the SDK returns it (`ScheduledNotification`): its id and time.
public struct ScheduledNotification: Sendable, Equatable {
    /// The id from the answer's `Location`; cancels the send.
    public var scheduledNotificationID: String
    /// `yyyy-MM-ddTHH:mm:ss` (UTC), as sent in `ServiceBusNotification-ScheduleTime`.
    public var scheduledTime: String
    /// The tag expression sent; nil: everyone.
    public var tags: String?
}

/// Template, direct, batch and scheduled sends (NH-DOTNET `SendTemplateNotificationAsync`,
/// `SendDirectNotificationAsync`, `ScheduleNotificationAsync`, `CancelNotificationAsync`).
extension NotificationHubClient {
    /// Any notification to a tag expression (nil: everyone).
    public func sendNotification(_ payload: NotificationPayload, tagExpression: String?,
                                 _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        if let parameter = blankPayloadParameter(payload) { return refuse(parameter, completion) }
        var headers = payload.requestHeaders
        if let tagExpression, !isBlank(tagExpression) { headers.append(("ServiceBusNotification-Tags", tagExpression)) }
        send("POST", "messages/", headers: headers, body: Array(payload.body.utf8), expect: Self.sendSuccess) { [self] result in
            completion(result.flatMap { outcome(of: $0) })
        }
    }

    /// A template send: the hub fills each matching template with `properties` (NH-TPL).
    public func sendTemplateNotification(properties: [(String, String)], tagExpression: String?,
                                         _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        sendNotification(.template(properties), tagExpression: tagExpression, completion)
    }

    /// `POST /messages/?direct` to one PNS handle; no registration needed. As in the SDK, an empty
    /// handle throws, while one of white space only passes that check and is then left out with
    /// `?direct`, so the send goes to everyone (NH-DOTNET `SendDirectNotificationAsync`,
    /// `SendNotificationImplAsync`).
    public func sendDirectNotification(_ payload: NotificationPayload, deviceHandle: String,
                                       _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        if let parameter = blankPayloadParameter(payload) { return refuse(parameter, completion) }
        guard !deviceHandle.isEmpty else { return refuse("deviceHandle", completion) }
        guard !isBlank(deviceHandle) else { return sendNotification(payload, tagExpression: nil, completion) }
        send("POST", "messages/", query: [("direct", "")], headers: payload.requestHeaders + [("ServiceBusNotification-DeviceHandle", deviceHandle)],
             body: Array(payload.body.utf8), expect: Self.sendSuccess) { [self] result in completion(result.flatMap { outcome(of: $0) }) }
    }

    /// `POST /messages/?direct` to one browser's subscription: its endpoint as the device handle
    /// and its keys in the `P256DH` and `Auth` headers (NH-BROWSER "Send direct notifications").
    public func sendDirectNotification(_ payload: NotificationPayload, subscription: BrowserPushChannel,
                                       _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        var keyed = payload
        keyed.headers += [("P256DH", subscription.p256dh), ("Auth", subscription.auth)]
        sendDirectNotification(keyed, deviceHandle: subscription.endpoint, completion)
    }

    /// `POST /messages/$batch?direct` to up to 1000 handles, as the SDK's multipart body.
    public func sendDirectNotification(_ payload: NotificationPayload, deviceHandles: [String],
                                       _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        if let parameter = blankPayloadParameter(payload) { return refuse(parameter, completion) }
        guard !deviceHandles.isEmpty else { return refuse("deviceHandles", completion) }
        let body = MultipartBody(parts: [
            // `new StringContent(body, encoding, mediaType)`: the media type and the charset.
            .init(headers: [.init("Content-Type", payload.mediaType + "; charset=utf-8"), .init("Content-Disposition", "inline; name=notification")],
                  body: Array(payload.body.utf8)),
            .init(headers: [.init("Content-Type", "application/json; charset=utf-8"), .init("Content-Disposition", "inline; name=devices")],
                  body: JSONValue.array(deviceHandles.map { .string($0) }).serializedBytes()),
        ])
        let headers = payload.requestHeaders.filter { $0.0 != "Content-Type" } + [("Content-Type", body.contentType)]
        send("POST", "messages/$batch", query: [("direct", "")], headers: headers, body: body.bytes, expect: 201) { [self] result in
            completion(result.flatMap { outcome(of: $0) })
        }
    }

    /// `POST /schedulednotifications/` to be sent at `time` (virtual time, written as UTC
    /// `yyyy-MM-ddTHH:mm:ss` through the world's calendar anchor).
    public func scheduleNotification(_ payload: NotificationPayload, at time: VirtualTime, tagExpression: String?,
                                     _ completion: @escaping (Result<ScheduledNotification, HubError>) -> Void) {
        if let parameter = blankPayloadParameter(payload) { return refuse(parameter, completion) }
        let when = String(world.anchor.iso8601(time).dropLast())   // the SDK's "s" format has no Z
        var headers = payload.requestHeaders + [("ServiceBusNotification-ScheduleTime", when)]
        if let tagExpression, !isBlank(tagExpression) { headers.append(("ServiceBusNotification-Tags", tagExpression)) }
        send("POST", "schedulednotifications/", headers: headers, body: Array(payload.body.utf8), expect: [200, 201]) { result in
            completion(result.flatMap { r in
                guard let id = Self.lastSegment(r.headers["Location"]) else {
                    return .failure(HubError(kind: .messaging, status: r.status, detail: "no scheduled notification id in the answer"))
                }
                return .success(ScheduledNotification(scheduledNotificationID: id, scheduledTime: when, tags: tagExpression))
            })
        }
    }

    /// `DELETE /schedulednotifications/<id>`; 200 expected.
    public func cancelNotification(_ scheduledNotificationID: String, _ completion: @escaping (Result<Void, HubError>) -> Void) {
        send("DELETE", "schedulednotifications/\(scheduledNotificationID)", expect: 200) { completion($0.map { _ in () }) }
    }
}
