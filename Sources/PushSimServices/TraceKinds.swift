import PushSimKernel

/// The kinds of trace event recorded by the fake push services (APNs, FCM, WNS): emitters and
/// checkers name them through these constants, so a misspelt kind does not compile.
extension TraceKind {
    /// `apns.accepted`
    public static let apnsAccepted = TraceKind("apns.accepted")
    /// `apns.broadcast-accepted`: a broadcast on a channel accepted, and to how many subscribers it goes
    public static let apnsBroadcastAccepted = TraceKind("apns.broadcast-accepted")
    /// `apns.channel-created`
    public static let apnsChannelCreated = TraceKind("apns.channel-created")
    /// `apns.channel-deleted`
    public static let apnsChannelDeleted = TraceKind("apns.channel-deleted")
    /// `apns.channel-subscribed`: a device joined or left a broadcast channel (a Live Activity started or ended on it)
    public static let apnsChannelSubscribed = TraceKind("apns.channel-subscribed")
    /// `apns.delivered`
    public static let apnsDelivered = TraceKind("apns.delivered")
    /// `apns.rejected`
    public static let apnsRejected = TraceKind("apns.rejected")
    /// `apns.stored`
    public static let apnsStored = TraceKind("apns.stored")
    /// `apns.token-invalidated`
    public static let apnsTokenInvalidated = TraceKind("apns.token-invalidated")
    /// `apns.token-issued`
    public static let apnsTokenIssued = TraceKind("apns.token-issued")
    /// `endpoint.retired`
    public static let endpointRetired = TraceKind("endpoint.retired")
    /// `fcm.accepted`
    public static let fcmAccepted = TraceKind("fcm.accepted")
    /// `fcm.access-token-issued`
    public static let fcmAccessTokenIssued = TraceKind("fcm.access-token-issued")
    /// `fcm.deleted-messages-sent`
    public static let fcmDeletedMessagesSent = TraceKind("fcm.deleted-messages-sent")
    /// `fcm.delivered`
    public static let fcmDelivered = TraceKind("fcm.delivered")
    /// `fcm.fan-out`: a topic or condition send accepted, and how many copies FCM sends (the accounting checker reads it)
    public static let fcmFanOut = TraceKind("fcm.fan-out")
    /// `fcm.rejected`
    public static let fcmRejected = TraceKind("fcm.rejected")
    /// `fcm.relayed`: FCM sent a message for an iOS app instance on to APNs
    public static let fcmRelayed = TraceKind("fcm.relayed")
    /// `fcm.relay-failed`: FCM could not relay a message to APNs (no key, or APNs refused it)
    public static let fcmRelayFailed = TraceKind("fcm.relay-failed")
    /// `fcm.stored`
    public static let fcmStored = TraceKind("fcm.stored")
    /// `fcm.subscribed`: tokens joined a topic (Instance ID API or device)
    public static let fcmSubscribed = TraceKind("fcm.subscribed")
    /// `fcm.topics-dropped`: a dead token left its topics
    public static let fcmTopicsDropped = TraceKind("fcm.topics-dropped")
    /// `fcm.token-expired`
    public static let fcmTokenExpired = TraceKind("fcm.token-expired")
    /// `fcm.token-invalidated`
    public static let fcmTokenInvalidated = TraceKind("fcm.token-invalidated")
    /// `fcm.token-issued`
    public static let fcmTokenIssued = TraceKind("fcm.token-issued")
    /// `fcm.unsubscribed`: tokens left a topic (Instance ID API or device)
    public static let fcmUnsubscribed = TraceKind("fcm.unsubscribed")
    /// `wns.accepted`
    public static let wnsAccepted = TraceKind("wns.accepted")
    /// `wns.cached`
    public static let wnsCached = TraceKind("wns.cached")
    /// `wns.channel-invalidated`
    public static let wnsChannelInvalidated = TraceKind("wns.channel-invalidated")
    /// `wns.channel-issued`
    public static let wnsChannelIssued = TraceKind("wns.channel-issued")
    /// `wns.delivered`
    public static let wnsDelivered = TraceKind("wns.delivered")
    /// `wns.rejected`
    public static let wnsRejected = TraceKind("wns.rejected")
}
