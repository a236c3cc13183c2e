import PushSimKernel

/// The kinds of trace event recorded by the scenario runner and the operator console: emitters and
/// checkers name them through these constants, so a misspelt kind does not compile.
extension TraceKind {
    /// `app-server.push`
    public static let appServerPush = TraceKind("app-server.push")
    /// `app-server.push-failed`
    public static let appServerPushFailed = TraceKind("app-server.push-failed")
    /// `operator.cancel`
    public static let operatorCancel = TraceKind("operator.cancel")
    /// `operator.ignored`
    public static let operatorIgnored = TraceKind("operator.ignored")
    /// `operator.installation`
    public static let operatorInstallation = TraceKind("operator.installation")
    /// `operator.list`
    public static let operatorList = TraceKind("operator.list")
    /// `operator.listed`
    public static let operatorListed = TraceKind("operator.listed")
    /// `operator.registration`
    public static let operatorRegistration = TraceKind("operator.registration")
    /// `operator.result`
    public static let operatorResult = TraceKind("operator.result")
    /// `operator.schedule`
    public static let operatorSchedule = TraceKind("operator.schedule")
    /// `operator.send`
    public static let operatorSend = TraceKind("operator.send")
    /// `operator.test-results`
    public static let operatorTestResults = TraceKind("operator.test-results")
    /// `operator.test-send`
    public static let operatorTestSend = TraceKind("operator.test-send")
    /// `scenario.step`
    public static let scenarioStep = TraceKind("scenario.step")
}
