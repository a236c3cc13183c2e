import PushSimNetwork

/// An FCM HTTP v1 error answer in Google's RPC error shape (pns-fidelity.md §2.3, sources F-ERR, F-ERRDOC):
/// `{"error":{"code":404,"message":"…","status":"NOT_FOUND","details":[{"@type":"…FcmError","errorCode":"UNREGISTERED"}]}}`.
public struct FCMError: Error, Equatable, Sendable {
    public var httpStatus: Int
    /// Google RPC status, e.g. `NOT_FOUND`.
    public var status: String
    public var message: String
    /// The FcmError `errorCode`, e.g. `UNREGISTERED`; nil for errors without an FcmError detail
    /// (such as a bad OAuth token).
    public var errorCode: String?
    /// For INVALID_ARGUMENT: the offending field, reported as a `google.rpc.BadRequest` field violation.
    public var field: String?
    /// Seconds to wait, sent as `Retry-After` (429 and 503).
    public var retryAfter: Int?

    public init(_ httpStatus: Int, _ status: String, _ message: String, errorCode: String?, field: String? = nil, retryAfter: Int? = nil) {
        self.httpStatus = httpStatus
        self.status = status
        self.message = message
        self.errorCode = errorCode
        self.field = field
        self.retryAfter = retryAfter
    }

    public static func invalidArgument(_ message: String, field: String? = nil) -> FCMError {
        FCMError(400, "INVALID_ARGUMENT", message, errorCode: "INVALID_ARGUMENT", field: field)
    }
    public static let unregistered = FCMError(404, "NOT_FOUND", "Requested entity was not found.", errorCode: "UNREGISTERED")
    public static let senderIDMismatch = FCMError(403, "PERMISSION_DENIED", "SenderId mismatch", errorCode: "SENDER_ID_MISMATCH")
    public static let missingCredentials = FCMError(401, "UNAUTHENTICATED",
        "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        errorCode: nil)
    public static let invalidCredentials = FCMError(401, "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        errorCode: nil)
    public static func permissionDenied(project: String) -> FCMError {
        FCMError(403, "PERMISSION_DENIED", "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(project)' (or it may not exist).", errorCode: nil)
    }
    public static let quotaExceeded = quotaExceeded(retryAfter: 60)
    public static let unavailable = unavailable(retryAfter: 30)
    /// 429 `RESOURCE_EXHAUSTED` / `QUOTA_EXCEEDED` with `Retry-After: <seconds>` (F-ERR, F-QUOTA).
    public static func quotaExceeded(retryAfter seconds: Int) -> FCMError {
        FCMError(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Send requests'.", errorCode: "QUOTA_EXCEEDED", retryAfter: seconds)
    }
    /// 503 `UNAVAILABLE` with `Retry-After: <seconds>` (F-ERR).
    public static func unavailable(retryAfter seconds: Int) -> FCMError {
        FCMError(503, "UNAVAILABLE", "The service is currently unavailable.", errorCode: "UNAVAILABLE", retryAfter: seconds)
    }
    public static let internalError = FCMError(500, "INTERNAL", "Internal error encountered.", errorCode: "INTERNAL")

    public var response: HTTPResponse {
        var details: [JSONValue] = []
        if let errorCode {
            details.append(.object([("@type", .string("type.googleapis.com/google.firebase.fcm.v1.FcmError")),
                                    ("errorCode", .string(errorCode))]))
        }
        if let field {
            details.append(.object([("@type", .string("type.googleapis.com/google.rpc.BadRequest")),
                                    ("fieldViolations", .array([.object([("field", .string(field)), ("description", .string(message))])]))]))
        }
        var error: [(String, JSONValue)] = [("code", .number(JSONNumber(Int64(httpStatus)))), ("message", .string(message)),
                                            ("status", .string(status))]
        if !details.isEmpty { error.append(("details", .array(details))) }
        var headers: HTTPHeaders = ["content-type": "application/json; charset=UTF-8"]
        if let retryAfter { headers.add("retry-after", String(retryAfter)) }
        return HTTPResponse(status: httpStatus, headers: headers, text: JSONValue.object([("error", .object(error))]).serialized())
    }
}
