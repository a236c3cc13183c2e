import PushSimKernel

/// The trace field names recorded by this layer (and by layers above it that share them): emitters
/// and checkers name them through these constants, so a misspelt field does not compile.
extension TraceFieldName {
    /// `bytes`
    public static let bytes = TraceFieldName("bytes")
    /// `callee`
    public static let callee = TraceFieldName("callee")
    /// `channel-id`: an APNs broadcast channel's id
    public static let channelID = TraceFieldName("channel-id")
    /// `defect`
    public static let defect = TraceFieldName("defect")
    /// `delay`
    public static let delay = TraceFieldName("delay")
    /// `error`
    public static let error = TraceFieldName("error")
    /// `fault`
    public static let fault = TraceFieldName("fault")
    /// `from`
    public static let from = TraceFieldName("from")
    /// `handle`
    public static let handle = TraceFieldName("handle")
    /// `injected`
    public static let injected = TraceFieldName("injected")
    /// `lost`
    public static let lost = TraceFieldName("lost")
    /// `message`
    public static let message = TraceFieldName("message")
    /// `method`
    public static let method = TraceFieldName("method")
    /// `pns`
    public static let pns = TraceFieldName("pns")
    /// `reason`
    public static let reason = TraceFieldName("reason")
    /// `registration`
    public static let registration = TraceFieldName("registration")
    /// `result`
    public static let result = TraceFieldName("result")
    /// `status`
    public static let status = TraceFieldName("status")
    /// `tags`
    public static let tags = TraceFieldName("tags")
    /// `topic`: an FCM topic, recorded by the service and by the device that subscribes to it; a
    /// Web Push message's `Topic` header
    public static let topic = TraceFieldName("topic")
    /// `target`
    public static let target = TraceFieldName("target")
    /// `to`
    public static let to = TraceFieldName("to")
    /// `type`
    public static let type = TraceFieldName("type")
    /// `user`
    public static let user = TraceFieldName("user")
    /// `why`
    public static let why = TraceFieldName("why")
}
