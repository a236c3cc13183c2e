import PushSimNetwork

/// A failed hub call, classified the way the .NET SDK classifies it (NH-DOTNET `ExceptionUtility.cs`):
/// 404 → `MessagingEntityNotFoundException`; 401 → `UnauthorizedException`; 403 → `QuotaExceededException`
/// with `Retry-After`, else `UnauthorizedException`; 429 → `QuotaExceededException`; 400 → `BadRequestException`;
/// 500, 503, 504, 408 → `ServerBusyException`; anything else, 410 included, a plain `MessagingException`.
public struct HubError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The SDK's exception type; the raw value is its name.
    public enum Kind: String, Sendable {
        /// 404.
        case entityNotFound = "MessagingEntityNotFoundException"
        /// 401, or 403 without `Retry-After`.
        case unauthorized = "UnauthorizedException"
        /// 429, or 403 with `Retry-After`.
        case quotaExceeded = "QuotaExceededException"
        /// 400.
        case badRequest = "BadRequestException"
        /// 500, 503, 504 or 408.
        case serverBusy = "ServerBusyException"
        /// The generic `MessagingException`; a 410 Gone arrives as this, with no dedicated type.
        case messaging = "MessagingException"
        /// No HTTP answer at all (the SDK's timeout or connection failure).
        case transport = "TimeoutException"
        /// The SDK refused the arguments before sending anything (not a `MessagingException`).
        case argument = "ArgumentException"
    }

    /// The exception type the SDK would throw.
    public var kind: Kind
    /// The HTTP status behind it; nil for transport failures.
    public var status: Int?
    /// The hub's `<Detail>` message (the text before its tracking part), or the transport failure.
    public var detail: String
    /// The tracking id the hub's `<Detail>` ends with (`…_G1`, see `HubErrorDetail`); nil when
    /// the SDK refused before sending or no answer came. Not compared by `==`: it differs per answer.
    public var trackingID: String?

    /// An error as given, without classifying `status`.
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
        let (detail, trackingID) = HubErrorDetail.split((try? XMLDocumentParser.parse(r.body))?.root.first("Detail")?.text ?? r.bodyText)
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
        self.trackingID = trackingID
    }

    /// Kind, status and detail equal; tracking ids are not compared.
    public static func == (a: HubError, b: HubError) -> Bool { a.kind == b.kind && a.status == b.status && a.detail == b.detail }

    public var description: String { "\(kind.rawValue) (\(status.map(String.init) ?? "no response")): \(detail)" }
}

/// What a send returns (the SDK's `NotificationOutcome`; NH-DOTNET, NH-SDKDOC).
public struct NotificationOutcome: Sendable, Equatable {
    /// The notification's state, named as the SDK and the telemetry API name it.
    public enum State: String, Sendable {
        /// `Enqueued`: what an accepted send returns; `DetailedStateAvailable`: a test send's
        /// answer; the rest are telemetry states (`Unknown` also for a name not listed here).
        case enqueued = "Enqueued", detailedStateAvailable = "DetailedStateAvailable", processing = "Processing",
             completed = "Completed", abandoned = "Abandoned", unknown = "Unknown", noTargetFound = "NoTargetFound",
             cancelled = "Cancelled"
        /// Telemetry of a scheduled send that has not fired yet (NH-REST; not in the SDK's enum,
        /// whose `NotificationDetails` maps unknown names to `Unknown`).
        case scheduled = "Scheduled"
    }
    /// `Enqueued` for an ordinary send, `DetailedStateAvailable` for a test send.
    public var state: State
    /// From the `Location` header (Standard tier).
    public var notificationID: String?
    /// The SDK's tracking id; always nil here.
    public var trackingID: String?
    /// The HTTP status the hub answered with (201 or 200, see ``SendAcceptedStatus``); not in the
    /// SDK's class, which hides it. Nil when the outcome was not read off an answer.
    public var httpStatus: Int? = nil
    /// Test sends only (`DetailedStateAvailable`): copies the PNS accepted, copies that failed,
    /// and one result per copy (NH-DOTNET `NotificationOutcome.cs`).
    public var success: Int = 0
    /// Test sends only: copies that failed.
    public var failure: Int = 0
    /// Test sends only: one result per copy.
    public var results: [RegistrationResult] = []
}

/// One copy's outcome in a test send (NH-DOTNET `RegistrationResult.cs`).
public struct RegistrationResult: Sendable, Equatable {
    /// `apple`, `fcmv1` or `windows`.
    public var applicationPlatform: String
    /// The device handle the copy went to.
    public var pnsHandle: String
    /// The registration id; for an installation `installation:<id>` (or `installation:<id>#<template>`).
    public var registrationID: String
    /// Free text: `The Notification was successfully sent to the Push Notification System` on success
    /// (the wording NH-FIX shows), otherwise `<outcome name>: <reason>`.
    public var outcome: String

    /// One copy's result, as given.
    public init(applicationPlatform: String, pnsHandle: String, registrationID: String, outcome: String) {
        self.applicationPlatform = applicationPlatform
        self.pnsHandle = pnsHandle
        self.registrationID = registrationID
        self.outcome = outcome
    }
}
