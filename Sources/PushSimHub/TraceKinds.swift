import PushSimKernel

/// The kinds of trace event recorded by the fake notification hub and its SDK-like client: emitters
/// and checkers name them through these constants, so a misspelt kind does not compile.
extension TraceKind {
    /// `hub.bulk-import`
    public static let hubBulkImport = TraceKind("hub.bulk-import")
    /// `hub.direct-send`
    public static let hubDirectSend = TraceKind("hub.direct-send")
    /// `hub.feedback-ignored`
    public static let hubFeedbackIgnored = TraceKind("hub.feedback-ignored")
    /// `hub.installation-channel-expired`
    public static let hubInstallationChannelExpired = TraceKind("hub.installation-channel-expired")
    /// `hub.installation-deleted`
    public static let hubInstallationDeleted = TraceKind("hub.installation-deleted")
    /// `hub.installation-patched`
    public static let hubInstallationPatched = TraceKind("hub.installation-patched")
    /// `hub.installation-upserted`
    public static let hubInstallationUpserted = TraceKind("hub.installation-upserted")
    /// `hub.no-target`
    public static let hubNoTarget = TraceKind("hub.no-target")
    /// `hub.notification-outcome`
    public static let hubNotificationOutcome = TraceKind("hub.notification-outcome")
    /// `hub.pns-accepted`
    public static let hubPNSAccepted = TraceKind("hub.pns-accepted")
    /// `hub.pns-auth-failed`
    public static let hubPNSAuthFailed = TraceKind("hub.pns-auth-failed")
    /// `hub.pns-request`
    public static let hubPNSRequest = TraceKind("hub.pns-request")
    /// `hub.pns-retry`
    public static let hubPNSRetry = TraceKind("hub.pns-retry")
    /// `hub.precondition-failed`
    public static let hubPreconditionFailed = TraceKind("hub.precondition-failed")
    /// `hub.provider-token`
    public static let hubProviderToken = TraceKind("hub.provider-token")
    /// `hub.registration-deleted`
    public static let hubRegistrationDeleted = TraceKind("hub.registration-deleted")
    /// `hub.registration-gone`
    public static let hubRegistrationGone = TraceKind("hub.registration-gone")
    /// `hub.registration-id-created`
    public static let hubRegistrationIDCreated = TraceKind("hub.registration-id-created")
    /// `hub.registration-upserted`
    public static let hubRegistrationUpserted = TraceKind("hub.registration-upserted")
    /// `hub.registrations-read`
    public static let hubRegistrationsRead = TraceKind("hub.registrations-read")
    /// `hub.rejected`
    public static let hubRejected = TraceKind("hub.rejected")
    /// `hub.scheduled`
    public static let hubScheduled = TraceKind("hub.scheduled")
    /// `hub.scheduled-cancelled`
    public static let hubScheduledCancelled = TraceKind("hub.scheduled-cancelled")
    /// `hub.scheduled-fired`
    public static let hubScheduledFired = TraceKind("hub.scheduled-fired")
    /// `hub.send-accepted`
    public static let hubSendAccepted = TraceKind("hub.send-accepted")
    /// `hub.template-send`
    public static let hubTemplateSend = TraceKind("hub.template-send")
    /// `hub.test-send`
    public static let hubTestSend = TraceKind("hub.test-send")
    /// `hub.test-send-refused`
    public static let hubTestSendRefused = TraceKind("hub.test-send-refused")
    /// `hub.test-send-result`
    public static let hubTestSendResult = TraceKind("hub.test-send-result")
    /// `sdk.argument-exception`
    public static let sdkArgumentException = TraceKind("sdk.argument-exception")
}
