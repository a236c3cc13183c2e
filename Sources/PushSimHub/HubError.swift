import PushSimNetwork

/// A failed hub call, classified the way the .NET SDK classifies it (NH-DOTNET `ExceptionUtility.cs`):
/// 404 → `MessagingEntityNotFoundException`; 401 → `UnauthorizedException`; 403 → `QuotaExceededException`
/// with `Retry-After`, else `UnauthorizedException`; 429 → `QuotaExceededException`; 400 → `BadRequestException`;
/// 500, 503, 504, 408 → `ServerBusyException`; anything else, 410 included, a plain `MessagingException`.
public struct HubError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case entityNotFound = "MessagingEntityNotFoundException"
        case unauthorized = "UnauthorizedException"
        case quotaExceeded = "QuotaExceededException"
        case badRequest = "BadRequestException"
        case serverBusy = "ServerBusyException"
        /// The generic `MessagingException`; a 410 Gone arrives as this, with no dedicated type.
        case messaging = "MessagingException"
        /// No HTTP answer at all (the SDK's timeout or connection failure).
        case transport = "TimeoutException"
        /// The SDK refused the arguments before sending anything (not a `MessagingException`).
        case argument = "ArgumentException"
    }

    public var kind: Kind
    /// The HTTP status behind it; nil for transport failures.
    public var status: Int?
    /// The hub's `<Detail>` text, or the transport failure.
    public var detail: String

    public init(kind: Kind, status: Int?, detail: String) {
        self.kind = kind
        self.status = status
        self.detail = detail
    }

    init(_ result: CallResult) {
        guard let r = result.response else {
            self.init(kind: .transport, status: nil, detail: result.summary)
            return
        }
        let detail = (try? XMLDocumentParser.parse(r.body))?.root.first("Detail")?.text ?? r.bodyText
        let kind: Kind
        switch r.status {
        case 404: kind = .entityNotFound
        case 401: kind = .unauthorized
        case 403: kind = r.headers["Retry-After"] != nil ? .quotaExceeded : .unauthorized
        case 429: kind = .quotaExceeded
        case 400: kind = .badRequest
        case 500, 503, 504, 408: kind = .serverBusy
        default: kind = .messaging
        }
        self.init(kind: kind, status: r.status, detail: detail)
    }

    public var description: String { "\(kind.rawValue) (\(status.map(String.init) ?? "no response")): \(detail)" }
}

/// What a send returns (the SDK's `NotificationOutcome`; NH-DOTNET, NH-SDKDOC).
public struct NotificationOutcome: Sendable, Equatable {
    public enum State: String, Sendable {
        case enqueued = "Enqueued", detailedStateAvailable = "DetailedStateAvailable", processing = "Processing",
             completed = "Completed", abandoned = "Abandoned", unknown = "Unknown", noTargetFound = "NoTargetFound",
             cancelled = "Cancelled"
    }
    public var state: State
    /// From the `Location` header (Standard tier).
    public var notificationID: String?
    public var trackingID: String?
}
