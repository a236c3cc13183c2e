import PushSimKernel

/// The kinds of trace event recorded by the network (HTTP exchanges, hosts going on and off line,
/// injected faults, and notifications dropped, which the hub, the services and the devices all
/// record): emitters and checkers name them through these constants, so a misspelt kind does not
/// compile.
extension TraceKind {
    /// `fault.injected`
    public static let faultInjected = TraceKind("fault.injected")
    /// `host.offline`
    public static let hostOffline = TraceKind("host.offline")
    /// `host.online`
    public static let hostOnline = TraceKind("host.online")
    /// `http.abandoned`
    public static let httpAbandoned = TraceKind("http.abandoned")
    /// `http.failure`
    public static let httpFailure = TraceKind("http.failure")
    /// `http.late-response`
    public static let httpLateResponse = TraceKind("http.late-response")
    /// `http.refused`
    public static let httpRefused = TraceKind("http.refused")
    /// `http.request`
    public static let httpRequest = TraceKind("http.request")
    /// `http.response`
    public static let httpResponse = TraceKind("http.response")
    /// `notification.dropped`
    public static let notificationDropped = TraceKind("notification.dropped")
}
