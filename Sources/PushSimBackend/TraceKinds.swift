import PushSimKernel

/// The kinds of trace event recorded by the app backends: emitters and checkers name them through
/// these constants, so a misspelt kind does not compile.
extension TraceKind {
    /// `backend.auth-refused`
    public static let backendAuthRefused = TraceKind("backend.auth-refused")
    /// `backend.error-swallowed`
    public static let backendErrorSwallowed = TraceKind("backend.error-swallowed")
    /// `backend.exception`
    public static let backendException = TraceKind("backend.exception")
    /// `backend.hub-error`
    public static let backendHubError = TraceKind("backend.hub-error")
    /// `backend.registration-refused`
    public static let backendRegistrationRefused = TraceKind("backend.registration-refused")
    /// `backend.tag-refused`
    public static let backendTagRefused = TraceKind("backend.tag-refused")
    /// `backend.tags-unchecked`
    public static let backendTagsUnchecked = TraceKind("backend.tags-unchecked")
    /// `backend.unknown-pns`
    public static let backendUnknownPNS = TraceKind("backend.unknown-pns")
}
