import PushSimKernel
import PushSimNetwork

/// `X-WNS-Type` values and their rules (Citations §3.3, §3.6, §3.7; sources W-HDR, W-OVR, W-TOAST).
public enum WNSNotificationType: String, Sendable, CaseIterable {
    case toast = "wns/toast"
    case tile = "wns/tile"
    case badge = "wns/badge"
    case raw = "wns/raw"

    /// The `Content-Type` WNS requires: `text/xml`, or `application/octet-stream` for raw.
    public var contentType: String { self == .raw ? "application/octet-stream" : "text/xml" }

    /// The XML root element the payload must have (nil for raw).
    public var rootElement: String? {
        switch self {
        case .toast: return "toast"
        case .tile: return "tile"
        case .badge: return "badge"
        case .raw: return nil
        }
    }

    /// Whether WNS keeps the notification for an offline device by default: toasts never (the
    /// sources disagree: ``WNSService/offlineToasts``); tile and badge the last one; raw only with
    /// `X-WNS-Cache-Policy: cache` (W-OVR, W-HDR).
    public func isCached(policy: String?) -> Bool {
        switch self {
        case .toast: return false
        case .tile, .badge: return policy != "no-cache"
        case .raw: return policy == "cache"
        }
    }
}

/// A WNS error answer: status plus `X-WNS-Error-Description` (W-HDR), and any headers the
/// condition adds (406 throttling: `X-WNS-CONTINUE-AFTER`, W-TRBL).
public struct WNSRejection: Error, Equatable, Sendable {
    /// HTTP status of the answer.
    public var status: Int
    /// Sent as `X-WNS-Error-Description`.
    public var description: String
    /// Extra response headers, written after the standard ones.
    public var headers: HTTPHeaders
    /// `headers`: extra response headers as (name, value) pairs, in order; default none.
    public init(_ status: Int, _ description: String, headers: [(String, String)] = []) {
        self.status = status
        self.description = description
        self.headers = HTTPHeaders(headers)
    }

    /// The answer WNS sends: no body, `X-WNS-Error-Description`, `X-WNS-Msg-ID` and `X-WNS-Debug-Trace`
    /// (W-HDR), then ``headers``.
    public func response(messageID: String) -> HTTPResponse {
        var all: HTTPHeaders = ["X-WNS-Error-Description": description, "X-WNS-Msg-ID": messageID, "X-WNS-Debug-Trace": "PUSHSIM"]
        for field in headers { all.add(field.name, field.value) }
        return HTTPResponse(status: status, headers: all)
    }
}

/// Checks a notification request the way WNS does; returns the type and payload or the error.
enum WNSRequestCheck {
    /// Largest payload: 5000 bytes (W-HDR, 413).
    static let maxPayloadBytes = 5_000

    static func check(_ request: HTTPRequest, memo: inout PayloadCheckMemo) -> Result<WNSNotificationType, WNSRejection> {
        guard request.method == "POST" else { return .failure(WNSRejection(405, "Only POST is supported")) }
        guard let rawType = request.headers["X-WNS-Type"] else {
            return .failure(WNSRejection(400, "The X-WNS-Type header is missing"))
        }
        guard let type = WNSNotificationType(rawValue: rawType) else {
            return .failure(WNSRejection(400, "The X-WNS-Type header value '\(rawType)' is not valid"))
        }
        guard let contentType = request.headers["Content-Type"], mediaType(of: contentType, is: type.contentType) else {
            return .failure(WNSRejection(400, "Content-Type must be \(type.contentType) for \(type.rawValue)"))
        }
        // X-WNS-Tag: at most 16 alphanumeric characters (W-HDR).
        if let tag = request.headers["X-WNS-Tag"] {
            if tag.count > 16 { return .failure(WNSRejection(400, "X-WNS-Tag is longer than 16 characters")) }
            if tag.isEmpty || !tag.unicodeScalars.allSatisfy(isASCIIAlphanumeric) {
                return .failure(WNSRejection(400, "X-WNS-Tag must be alphanumeric"))
            }
        }
        // X-WNS-TTL: whole seconds (W-HDR).
        if let ttl = request.headers["X-WNS-TTL"], WNSRequestCheck.ttlSeconds(ttl) == nil {
            return .failure(WNSRejection(400, "X-WNS-TTL must be a whole number of seconds"))
        }
        if request.headers["X-WNS-SuppressPopup"] != nil {
            return .failure(WNSRejection(400, "X-WNS-SuppressPopup is only valid on Windows Phone channels"))
        }
        guard request.body.count <= maxPayloadBytes else {
            return .failure(WNSRejection(413, "The notification payload exceeds the 5000 byte limit"))
        }
        if let root = type.rootElement, !memo.isKnownGood(request.body, as: root) {
            // The payload must be well-formed XML with the right root (W-TOAST).
            guard let doc = try? XMLDocumentParser.parse(request.body) else {
                return .failure(WNSRejection(400, "The notification payload is not well-formed XML"))
            }
            guard doc.root.name == root else {
                return .failure(WNSRejection(400, "The payload root element must be <\(root)> for \(type.rawValue)"))
            }
            memo.remember(request.body, as: root)
        }
        return .success(type)
    }
}

extension WNSRequestCheck {
    /// `X-WNS-TTL` as seconds: ASCII digits only, no sign (W-HDR: "integer seconds"); nil otherwise.
    static func ttlSeconds(_ raw: String) -> Int64? {
        guard !raw.isEmpty, raw.allBytes({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(raw)
    }
}

func isASCIIAlphanumeric(_ c: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
}

/// The media type of a `Content-Type` value: the part before any `;`, without surrounding spaces.
func mediaType(_ contentType: String) -> String {
    let bytes = contentType.utf8
    let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
    let part = bytes[..<end].drop(while: { $0 == UInt8(ascii: " ") })
    let trimmed = part.reversed().drop(while: { $0 == UInt8(ascii: " ") }).count
    return String(decoding: part.prefix(trimmed), as: UTF8.self)
}

/// Whether the media type of `contentType` is `expected`, ignoring ASCII case: ``mediaType(_:)``
/// compared without building it, for the common case of a value with no parameters or spaces
/// (every WNS notification is checked so).
func mediaType(of contentType: String, is expected: String) -> Bool {
    if contentType.utf8.count == expected.utf8.count { return sameFieldName(contentType, expected) }
    return sameFieldName(mediaType(contentType), expected)
}
