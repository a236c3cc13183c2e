import PushSimKernel

/// The kinds of trace event the Web Push service records, named as the other services' are
/// (`<service>.accepted`, `.rejected`, `.delivered`, `.stored`): emitters and checkers name them
/// through these constants, so a misspelt kind does not compile.
extension TraceKind {
    /// `webpush.accepted`: a message was taken (201).
    public static let webPushAccepted = TraceKind("webpush.accepted")
    /// `webpush.delivered`: the browser took a message.
    public static let webPushDelivered = TraceKind("webpush.delivered")
    /// `webpush.expired`: a message's `TTL` ran out before its browser came back (or was 0 and
    /// the browser was away).
    public static let webPushExpired = TraceKind("webpush.expired")
    /// `webpush.rejected`: a message was refused, with the vendor's status and reason.
    public static let webPushRejected = TraceKind("webpush.rejected")
    /// `webpush.replaced`: a kept message gave way to a newer one with the same `Topic`.
    public static let webPushReplaced = TraceKind("webpush.replaced")
    /// `webpush.stored`: a message is kept for a browser that is away.
    public static let webPushStored = TraceKind("webpush.stored")
    /// `webpush.subscribed`: a browser got a new endpoint.
    public static let webPushSubscribed = TraceKind("webpush.subscribed")
    /// `webpush.unsubscribed`: a subscription was given up (by the browser, or found gone on delivery).
    public static let webPushUnsubscribed = TraceKind("webpush.unsubscribed")
}

/// The trace fields only the Web Push service records.
extension TraceFieldName {
    /// `endpoint`: a subscription's endpoint, shortened (`shortToken`).
    public static let webPushEndpoint = TraceFieldName("endpoint")
    /// `replaced-by`: the message that took a kept one's place.
    public static let replacedBy = TraceFieldName("replaced-by")
    /// `ttl`: the seconds a message is kept, as the service honours them.
    public static let ttl = TraceFieldName("ttl")
    /// `vendor`: `chrome`, `firefox`, `safari` or `edge`.
    public static let vendor = TraceFieldName("vendor")
}
