import PushSimKernel

/// The kinds of trace event recorded by the simulated devices: the OS side and the app: emitters
/// and checkers name them through these constants, so a misspelt kind does not compile.
extension TraceKind {
    /// `app.badge-updated`
    public static let appBadgeUpdated = TraceKind("app.badge-updated")
    /// `app.call-result`
    public static let appCallResult = TraceKind("app.call-result")
    /// `app.data-received`
    public static let appDataReceived = TraceKind("app.data-received")
    /// `app.ignored`
    public static let appIgnored = TraceKind("app.ignored")
    /// `app.login`
    public static let appLogin = TraceKind("app.login")
    /// `app.logout`
    public static let appLogout = TraceKind("app.logout")
    /// `app.messages-deleted`
    public static let appMessagesDeleted = TraceKind("app.messages-deleted")
    /// `app.registered`
    public static let appRegistered = TraceKind("app.registered")
    /// `app.registration-failed`
    public static let appRegistrationFailed = TraceKind("app.registration-failed")
    /// `app.request`
    public static let appRequest = TraceKind("app.request")
    /// `app.retry`
    public static let appRetry = TraceKind("app.retry")
    /// `app.send`
    public static let appSend = TraceKind("app.send")
    /// `app.sound-played`
    public static let appSoundPlayed = TraceKind("app.sound-played")
    /// `app.tags-requested`
    public static let appTagsRequested = TraceKind("app.tags-requested")
    /// `app.updated`
    public static let appUpdated = TraceKind("app.updated")
    /// `app.woken`
    public static let appWoken = TraceKind("app.woken")
    /// `browser.ignored`
    public static let browserIgnored = TraceKind("browser.ignored")
    /// `browser.permission-asked`
    public static let browserPermissionAsked = TraceKind("browser.permission-asked")
    /// `browser.profile-cleared`
    public static let browserProfileCleared = TraceKind("browser.profile-cleared")
    /// `browser.push-dropped`
    public static let browserPushDropped = TraceKind("browser.push-dropped")
    /// `browser.push-event`
    public static let browserPushEvent = TraceKind("browser.push-event")
    /// `browser.subscribe-failed`
    public static let browserSubscribeFailed = TraceKind("browser.subscribe-failed")
    /// `browser.subscribed`
    public static let browserSubscribed = TraceKind("browser.subscribed")
    /// `browser.unsubscribed`
    public static let browserUnsubscribed = TraceKind("browser.unsubscribed")
    /// `device.handle-failed`
    public static let deviceHandleFailed = TraceKind("device.handle-failed")
    /// `device.fcm-token-failed`: an iOS app's Firebase SDK did not get an FCM token for its APNs token
    public static let deviceFCMTokenFailed = TraceKind("device.fcm-token-failed")
    /// `device.fcm-token-received`: an iOS app's Firebase SDK got an FCM token bound to its APNs token
    public static let deviceFCMTokenReceived = TraceKind("device.fcm-token-received")
    /// `device.handle-received`
    public static let deviceHandleReceived = TraceKind("device.handle-received")
    /// `device.handle-refresh`
    public static let deviceHandleRefresh = TraceKind("device.handle-refresh")
    /// The app's data was cleared (Android's Clear storage, Windows' Reset): a new handle follows.
    public static let deviceClearData = TraceKind("device.clear-data")
    /// `device.ignored`
    public static let deviceIgnored = TraceKind("device.ignored")
    /// `device.install`
    public static let deviceInstall = TraceKind("device.install")
    /// `device.notification-permission`: the app's notification permission or a channel changed
    /// (the user answered the app's prompt, or changed the setting later)
    public static let deviceNotificationPermission = TraceKind("device.notification-permission")
    /// `device.push-received`
    public static let devicePushReceived = TraceKind("device.push-received")
    /// `device.push-refused`
    public static let devicePushRefused = TraceKind("device.push-refused")
    /// `device.reconnected`
    public static let deviceReconnected = TraceKind("device.reconnected")
    /// `device.restore`
    public static let deviceRestore = TraceKind("device.restore")
    /// `device.topic`: the app's Firebase SDK asked FCM to subscribe its token to a topic, or to unsubscribe it
    public static let deviceTopic = TraceKind("device.topic")
    /// `device.uninstall`
    public static let deviceUninstall = TraceKind("device.uninstall")
    /// `notification.replaced`
    public static let notificationReplaced = TraceKind("notification.replaced")
    /// `notification.suppressed`: a notification reached the device but the user's settings kept it off screen
    public static let notificationSuppressed = TraceKind("notification.suppressed")
    /// `notification.shown`
    public static let notificationShown = TraceKind("notification.shown")
    /// `liveactivity.alert`: an ActivityKit push carried an alert, shown with the Live Activity
    public static let liveActivityAlert = TraceKind("liveactivity.alert")
    /// `liveactivity.ended`
    public static let liveActivityEnded = TraceKind("liveactivity.ended")
    /// `liveactivity.ignored`: the device dropped an ActivityKit push or a Live Activity request, with the reason
    public static let liveActivityIgnored = TraceKind("liveactivity.ignored")
    /// `liveactivity.started`
    public static let liveActivityStarted = TraceKind("liveactivity.started")
    /// `liveactivity.token-received`: APNs gave the app a push-to-start or update token
    public static let liveActivityTokenReceived = TraceKind("liveactivity.token-received")
    /// `liveactivity.updated`
    public static let liveActivityUpdated = TraceKind("liveactivity.updated")
}
