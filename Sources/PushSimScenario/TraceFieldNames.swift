import PushSimKernel

/// The trace field names recorded by this layer (and by layers above it that share them): emitters
/// and checkers name them through these constants, so a misspelt field does not compile.
extension TraceFieldName {
    /// `change`
    public static let change = TraceFieldName("change")
    /// `forged`
    public static let forged = TraceFieldName("forged")
    /// `installation`
    public static let installation = TraceFieldName("installation")
    /// `results`
    public static let results = TraceFieldName("results")
    /// `write`
    public static let write = TraceFieldName("write")
}
