import PushSimKernel

/// The trace field names recorded by this layer (and by layers above it that share them): emitters
/// and checkers name them through these constants, so a misspelt field does not compile.
extension TraceFieldName {
    /// `action`
    public static let action = TraceFieldName("action")
    /// `after`
    public static let after = TraceFieldName("after")
    /// `badge`
    public static let badge = TraceFieldName("badge")
    /// `channel`: an Android notification channel's id
    public static let channel = TraceFieldName("channel")
    /// `content-state`: what a Live Activity shows, as JSON text
    public static let contentState = TraceFieldName("content-state")
    /// `event`: an ActivityKit push's `aps.event` (`start`, `update`, `end`), a Live Activity's or a broadcast's
    public static let event = TraceFieldName("event")
    /// `changed`
    public static let changed = TraceFieldName("changed")
    /// `collapse-id`
    public static let collapseID = TraceFieldName("collapse-id")
    /// `delivery`: `quiet` for a notification delivered to Notification Center without a banner or sound
    public static let delivery = TraceFieldName("delivery")
    /// `endpoint` (a browser's push subscription, shortened)
    public static let subscriptionEndpoint = TraceFieldName("endpoint")
    /// `forgotten-id`
    public static let forgottenID = TraceFieldName("forgotten-id")
    /// `install`
    public static let install = TraceFieldName("install")
    /// `operation`
    public static let operation = TraceFieldName("operation")
    /// `permission`: a ``NotificationPermission`` or a browser's ``WebNotificationPermission`` raw value
    public static let permission = TraceFieldName("permission")
    /// `service`
    public static let service = TraceFieldName("service")
    /// `sound`
    public static let sound = TraceFieldName("sound")
    /// `step`
    public static let step = TraceFieldName("step")
    /// `stored-id`
    public static let storedID = TraceFieldName("stored-id")
    /// `text`
    public static let text = TraceFieldName("text")
    /// `activity`: a Live Activity's id
    public static let activity = TraceFieldName("activity")
}
