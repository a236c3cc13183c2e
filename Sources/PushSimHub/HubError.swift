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
        /// Telemetry of a scheduled send that has not fired yet (NH-REST; not in the SDK's enum,
        /// whose `NotificationDetails` maps unknown names to `Unknown`).
        case scheduled = "Scheduled"
    }
    public var state: State
    /// From the `Location` header (Standard tier).
    public var notificationID: String?
    public var trackingID: String?
    /// Test sends only (`DetailedStateAvailable`): copies the PNS accepted, copies that failed,
    /// and one result per copy (NH-DOTNET `NotificationOutcome.cs`).
    public var success: Int = 0
    public var failure: Int = 0
    public var results: [RegistrationResult] = []
}

/// One copy's outcome in a test send (NH-DOTNET `RegistrationResult.cs`).
public struct RegistrationResult: Sendable, Equatable {
    /// `apple`, `fcmv1` or `windows`.
    public var applicationPlatform: String
    public var pnsHandle: String
    /// The registration id; for an installation `installation:<id>` (or `installation:<id>#<template>`).
    public var registrationID: String
    /// Free text: `The Notification was successfully sent to the Push Notification System` on success
    /// (the wording NH-FIX shows), otherwise `<outcome name>: <reason>`.
    public var outcome: String

    public init(applicationPlatform: String, pnsHandle: String, registrationID: String, outcome: String) {
        self.applicationPlatform = applicationPlatform
        self.pnsHandle = pnsHandle
        self.registrationID = registrationID
        self.outcome = outcome
    }
}
