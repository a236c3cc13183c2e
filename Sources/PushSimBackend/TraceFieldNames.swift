import PushSimKernel

/// The trace field names recorded by this layer (and by layers above it that share them): emitters
/// and checkers name them through these constants, so a misspelt field does not compile.
extension TraceFieldName {
    /// `exception`
    public static let exception = TraceFieldName("exception")
    /// `hub-status`
    public static let hubStatus = TraceFieldName("hub-status")
    /// `tag`
    public static let tag = TraceFieldName("tag")
}
