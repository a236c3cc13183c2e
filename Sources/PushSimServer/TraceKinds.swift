import PushSimKernel

/// The kinds of trace event recorded by the loopback server: emitters and checkers name them
/// through these constants, so a misspelt kind does not compile.
extension TraceKind {
    /// `control.step`
    public static let controlStep = TraceKind("control.step")
    /// `external.failed`
    public static let externalFailed = TraceKind("external.failed")
}
