import PushSimKernel
import PushSimNetwork

/// Writes an ``HTTPResponse`` as HTTP/1.1 bytes: status line, the fake's header fields in their
/// order, then the framing the server owns (`Content-Length`, `Connection: close` when closing).
///
/// Framing and hop-by-hop fields a fake set (`Content-Length`, `Transfer-Encoding`, `Connection`,
/// `Keep-Alive`) are replaced, never repeated. CR, LF and NUL in names and values are dropped so
/// that no answer can split into two.
package enum HTTPResponseWriter {
    /// Fields the server writes itself.
    static let ownFields = ["Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive"]

    /// The bytes of `response`. `headOnly` leaves the body out (answers to `HEAD`; the length
    /// still says the body's size).
    public static func bytes(_ response: HTTPResponse, keepAlive: Bool, headOnly: Bool = false) -> [UInt8] {
        // 1xx, 204 and 304 answers carry no body and no length (RFC 9110 §8.6).
        let bodyless = response.status < 200 || response.status == 204 || response.status == 304
        var out: [UInt8] = []
        out.reserveCapacity(256 + (headOnly || bodyless ? 0 : response.body.count))
        out.appendUTF8("HTTP/1.1 ")
        out.appendUTF8(String(response.status))
        out.append(UInt8(ascii: " "))
        out.appendUTF8(reasonPhrase(response.status))
        out.appendUTF8("\r\n")
        for field in response.headers where !ownFields.contains(where: { sameFieldName($0, field.name) }) {
            appendClean(field.name, to: &out)
            out.appendUTF8(": ")
            appendClean(field.value, to: &out)
            out.appendUTF8("\r\n")
        }
        if !bodyless {
            out.appendUTF8("Content-Length: ")
            out.appendUTF8(String(response.body.count))
            out.appendUTF8("\r\n")
        }
        if !keepAlive { out.appendUTF8("Connection: close\r\n") }
        out.appendUTF8("\r\n")
        if !headOnly && !bodyless { out += response.body }
        return out
    }

    /// The interim answer to `Expect: 100-continue`.
    public static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Appends `text` without its CR, LF and NUL bytes, which could end the field early.
    private static func appendClean(_ text: String, to out: inout [UInt8]) {
        if text.containsByte(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
            out += text.utf8.filter { $0 != 0x0D && $0 != 0x0A && $0 != 0 }
        } else {
            out.appendUTF8(text)
        }
    }

    /// The standard reason phrase (RFC 9110 §15), or `Status` for codes without one here.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}

/// JSON answers of the server itself (control API, routing and protocol errors).
public enum ServerAnswer {
    /// `{"error":{"status":…,"message":…}}` with `status`.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object(["error": .object(["status": .number(JSONNumber(Int64(status))), "message": .string(message)])]))
    }

    /// `value` serialized, members in the order built, as `application/json`.
    public static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], text: value.serialized())
    }
}
