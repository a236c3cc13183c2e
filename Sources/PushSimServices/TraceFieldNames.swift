import PushSimKernel

/// The trace field names recorded by this layer (and by layers above it that share them): emitters
/// and checkers name them through these constants, so a misspelt field does not compile.
extension TraceFieldName {
    /// `account`
    public static let account = TraceFieldName("account")
    /// `app`
    public static let app = TraceFieldName("app")
    /// `authority`
    public static let authority = TraceFieldName("authority")
    /// `copies`
    public static let copies = TraceFieldName("copies")
    /// `device`
    public static let device = TraceFieldName("device")
    /// `inactive-since`
    public static let inactiveSince = TraceFieldName("inactive-since")
    /// `path`
    public static let path = TraceFieldName("path")
    /// `pending`
    public static let pending = TraceFieldName("pending")
    /// `policy`: a broadcast channel's message storage policy (`none`, `most-recent`)
    public static let policy = TraceFieldName("policy")
    /// `refused`
    public static let refused = TraceFieldName("refused")
    /// `token`
    public static let token = TraceFieldName("token")
    /// `topics`
    public static let topics = TraceFieldName("topics")
    /// `validate_only`
    public static let validateOnly = TraceFieldName("validate_only")
}
