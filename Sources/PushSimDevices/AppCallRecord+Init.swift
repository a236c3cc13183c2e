import PushSimKernel

extension AppCallRecord {
    /// A call record made outside the app (the scenario operator's hub sends use the same record).
    public static func make(operation: AppOperation, sentAt: VirtualTime, completedAt: VirtualTime,
                            status: Int?, failure: String?) -> AppCallRecord {
        AppCallRecord(operation: operation, sentAt: sentAt, completedAt: completedAt, status: status, failure: failure)
    }
}
