import PushSimNetwork

/// An FCM HTTP v1 error answer in Google's RPC error shape (Citations §2.3, sources F-ERR, F-ERRDOC):
/// `{"error":{"code":404,"message":"…","status":"NOT_FOUND","details":[{"@type":"…FcmError","errorCode":"UNREGISTERED"}]}}`.
public struct FCMError: Error, Equatable, Sendable {
    /// HTTP status of the answer, also sent as `error.code`.
    public var httpStatus: Int
    /// Google RPC status, e.g. `NOT_FOUND`.
    public var status: String
    /// Human-readable `error.message`, worded as FCM words it.
    public var message: String
    /// The FcmError `errorCode`, e.g. `UNREGISTERED`; nil for errors without an FcmError detail
    /// (such as a bad OAuth token).
    public var errorCode: String?
    /// For INVALID_ARGUMENT: the offending field, reported as a `google.rpc.BadRequest` field violation.
    public var field: String?
    /// For INVALID_ARGUMENT from parsing the JSON body: the `google.rpc.BadRequest` field violations,
    /// one per problem (e.g. one per unknown field name). When not empty they replace the single
    /// violation ``field`` would make.
    public var fieldViolations: [FieldViolation] = []
    /// Seconds to wait, sent as `Retry-After` (429 and 503).
    public var retryAfter: Int?
    /// The `reason` of a `google.rpc.ErrorInfo` detail, which Google's front end adds to some
    /// authentication failures (`ACCESS_TOKEN_EXPIRED`); nil for none.
    public var errorInfoReason: String?

    /// `errorCode` nil: no FcmError detail; `field` nil: no field violation; `retryAfter` nil: no `Retry-After`.
    public init(_ httpStatus: Int, _ status: String, _ message: String, errorCode: String?, field: String? = nil, retryAfter: Int? = nil) {
        self.httpStatus = httpStatus
        self.status = status
        self.message = message
        self.errorCode = errorCode
        self.field = field
        self.retryAfter = retryAfter
    }

    /// 400 `INVALID_ARGUMENT` with FcmError `INVALID_ARGUMENT`; `field` is the offending field's path,
    /// e.g. `message.token` (F-ERR).
    public static func invalidArgument(_ message: String, field: String? = nil) -> FCMError {
        FCMError(400, "INVALID_ARGUMENT", message, errorCode: "INVALID_ARGUMENT", field: field)
    }

    /// One entry of a `google.rpc.BadRequest` detail: the path of the field's parent (nil at the
    /// top of the request, where Google leaves `field` out) and what was wrong.
    public struct FieldViolation: Equatable, Sendable {
        /// Path of the field's parent, e.g. `message.android`; nil at the top of the request.
        public var field: String?
        /// What was wrong; for a JSON parsing error, also a line of the error's ``FCMError/message``.
        public var description: String
        /// `field` nil: the violation is at the top of the request.
        public init(field: String?, description: String) {
            self.field = field
            self.description = description
        }
    }

    /// 400 `INVALID_ARGUMENT` for a body that does not parse into the v1 `SendMessageRequest`
    /// (unknown field names, a list where one value belongs): the lines joined by newlines as the
    /// message, one field violation per line, and no FcmError detail: the answer comes from the
    /// JSON-to-protobuf step in front of FCM (see `FCMMessageSchema` for the sources).
    public static func invalidJSONPayload(_ violations: [FieldViolation]) -> FCMError {
        var e = FCMError(400, "INVALID_ARGUMENT", violations.map(\.description).joined(separator: "\n"), errorCode: nil)
        e.fieldViolations = violations
        return e
    }
    /// 400 `INVALID_ARGUMENT` for a `message.condition` that does not parse (`FCMCondition`):
    /// "Request contains an invalid argument.", a field violation on `message.condition` saying
    /// "Invalid condition expression provided.", and FcmError `INVALID_ARGUMENT`, as the live
    /// service answered an issue's condition (FCM-COND).
    public static let invalidCondition: FCMError = {
        var e = FCMError(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", errorCode: "INVALID_ARGUMENT")
        e.fieldViolations = [FieldViolation(field: "message.condition", description: "Invalid condition expression provided.")]
        return e
    }()
    /// 400 `INVALID_ARGUMENT` for a `message.topic` that is not a topic name (`FCMTopicName`; the
    /// `/topics/` prefix included, which the v1 API does not take, FA-NODE-203). Shaped as
    /// ``invalidCondition``; the description's wording is PushSim's (Citations §7).
    public static let invalidTopic: FCMError = {
        var e = FCMError(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", errorCode: "INVALID_ARGUMENT")
        e.fieldViolations = [FieldViolation(field: "message.topic", description: "Invalid topic name provided.")]
        return e
    }()
    /// 404 `NOT_FOUND` / `UNREGISTERED`: the token was never issued (but looks like one), its app is gone,
    /// or it expired after ``FCMService/tokenInactivityLimit`` (F-ERR, §2.6 F-TOK).
    public static let unregistered = FCMError(404, "NOT_FOUND", "Requested entity was not found.", errorCode: "UNREGISTERED")
    /// 403 `PERMISSION_DENIED` / `SENDER_ID_MISMATCH`: the token was registered with another project's
    /// sender id (F-ERR).
    public static let senderIDMismatch = FCMError(403, "PERMISSION_DENIED", "SenderId mismatch", errorCode: "SENDER_ID_MISMATCH")
    /// 401 `UNAUTHENTICATED`, no FcmError detail: no bearer token in `authorization` (F-ERRDOC;
    /// the message as the live service words it, FA-DOTNET-503).
    public static let missingCredentials = FCMError(401, "UNAUTHENTICATED",
        "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. "
            + signInHelp, errorCode: nil)
    /// 401 `UNAUTHENTICATED`, no FcmError detail: an access token the service never issued (F-ERRDOC).
    public static let invalidCredentials = FCMError(401, "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. "
            + signInHelp, errorCode: nil)
    /// 401 `UNAUTHENTICATED` for an access token that has run out: the same message, and a
    /// `google.rpc.ErrorInfo` detail with reason `ACCESS_TOKEN_EXPIRED` (the live answer quoted in
    /// PYFCM-334; PyFCM refreshes its token on that reason and only on it).
    public static let expiredCredentials: FCMError = {
        var e = invalidCredentials
        e.errorInfoReason = "ACCESS_TOKEN_EXPIRED"
        return e
    }()
    /// 401 `UNAUTHENTICATED` / FcmError `THIRD_PARTY_AUTH_ERROR`: a send to an iOS app instance
    /// that FCM could not relay because the project's APNs auth key is missing or APNs refused the
    /// provider token FCM signed with it (F-ERR: "APNs certificate or web push auth key was
    /// invalid or missing", HTTP 401). The live service words the message as its front end words a
    /// missing OAuth credential, with the FcmError detail beside it (the answer quoted in
    /// FA-NODE-3215); the Admin SDKs map the code to `ThirdPartyAuthError` (FA-PY-ERR).
    public static let thirdPartyAuthError = FCMError(401, "UNAUTHENTICATED", missingCredentials.message, errorCode: "THIRD_PARTY_AUTH_ERROR")
    /// The sentence Google's front end ends its authentication messages with.
    static let signInHelp = "See https://developers.google.com/identity/sign-in/web/devconsole-project."
    /// 403 `PERMISSION_DENIED`, no FcmError detail: the path names a project that does not exist or
    /// that the access token's service account may not send for; `project` is the name as in the path.
    public static func permissionDenied(project: String) -> FCMError {
        FCMError(403, "PERMISSION_DENIED", "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(project)' (or it may not exist).", errorCode: nil)
    }
    /// ``quotaExceeded(retryAfter:)`` with `Retry-After: 60`.
    public static let quotaExceeded = quotaExceeded(retryAfter: 60)
    /// ``unavailable(retryAfter:)`` with `Retry-After: 30`.
    public static let unavailable = unavailable(retryAfter: 30)
    /// 429 `RESOURCE_EXHAUSTED` / `QUOTA_EXCEEDED` with `Retry-After: <seconds>` (F-ERR, F-QUOTA).
    public static func quotaExceeded(retryAfter seconds: Int) -> FCMError {
        FCMError(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Send requests'.", errorCode: "QUOTA_EXCEEDED", retryAfter: seconds)
    }
    /// 503 `UNAVAILABLE` with `Retry-After: <seconds>` (F-ERR).
    public static func unavailable(retryAfter seconds: Int) -> FCMError {
        FCMError(503, "UNAVAILABLE", "The service is currently unavailable.", errorCode: "UNAVAILABLE", retryAfter: seconds)
    }
    /// 500 `INTERNAL` / FcmError `INTERNAL`, the answer to an injected internal-error `ServiceFault` (F-ERR).
    public static let internalError = FCMError(500, "INTERNAL", "Internal error encountered.", errorCode: "INTERNAL")

    /// The answer FCM sends: the JSON error body with its FcmError and `google.rpc.BadRequest` details,
    /// plus `Retry-After` when ``retryAfter`` is set.
    public var response: HTTPResponse {
        var details: [JSONValue] = []
        if let errorInfoReason {
            details.append(.object([("@type", .string("type.googleapis.com/google.rpc.ErrorInfo")), ("reason", .string(errorInfoReason)),
                                    ("domain", "googleapis.com"),
                                    ("metadata", .object([("method", "google.firebase.fcm.v1.FcmService.SendMessage"),
                                                          ("service", "fcm.googleapis.com")]))]))
        }
        if let errorCode {
            details.append(.object([("@type", .string("type.googleapis.com/google.firebase.fcm.v1.FcmError")),
                                    ("errorCode", .string(errorCode))]))
        }
        let violations = fieldViolations.isEmpty ? field.map { [FieldViolation(field: $0, description: message)] } ?? [] : fieldViolations
        if !violations.isEmpty {
            let list = violations.map { v -> JSONValue in
                .object((v.field.map { [("field", JSONValue.string($0))] } ?? []) + [("description", .string(v.description))])
            }
            details.append(.object([("@type", .string("type.googleapis.com/google.rpc.BadRequest")), ("fieldViolations", .array(list))]))
        }
        var error: [(String, JSONValue)] = [("code", .number(JSONNumber(Int64(httpStatus)))), ("message", .string(message)),
                                            ("status", .string(status))]
        if !details.isEmpty { error.append(("details", .array(details))) }
        var headers: HTTPHeaders = ["content-type": "application/json; charset=UTF-8"]
        if let retryAfter { headers.add("retry-after", String(retryAfter)) }
        return HTTPResponse(status: httpStatus, headers: headers, text: JSONValue.object([("error", .object(error))]).serialized())
    }
}
