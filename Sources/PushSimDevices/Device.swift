import PushSimKernel
import PushSimNetwork

/// A simulated phone or PC: the operating system side (push handle, app install, network) and
/// the app running the tutorial's client logic in one of two flavours.
///
/// The OS gets its handle from its push service over the device channel (`DeviceChannel`):
/// APNs on iOS, FCM on Android, WNS on Windows. A push arriving for a handle that is not the
/// installed app's current one is refused with 410, which is how the service learns the app is gone.
public final class Device: Host {
    /// Its host name in the world, e.g. `bob-iphone`.
    public let name: String
    /// Its OS, which decides its push service.
    public let platform: DevicePlatform
    /// The built-in flavour this device was made with (reports and scenario checks use it).
    public let client: ClientFlavour
    /// The app's client logic: the flavour's (``ClientFlavour/makeLogic()``), or one of your own.
    public let logic: AppClientLogic
    /// The app's ids with the push services, and the backend it calls.
    public let app: AppIdentity
    /// The OS major version. On iOS 13 and later `[deviceToken description]` no longer gives hex,
    /// which breaks the tutorial client's handle (defect h, NH-IOS, IOS13).
    public let osVersion: Int
    /// Tags the app asks the backend for besides its user tag (the tutorial app asks for none).
    public internal(set) var requestedTags: [String] = []

    // OS side
    /// Whether the app is installed now.
    public private(set) var isAppInstalled = false
    /// How many times the app was installed on this device.
    public private(set) var installCount = 0
    /// The app instance the OS asks a handle for: a new one on every install, restore and handle
    /// refresh, so the service issues a new handle (the same instance always gets the same one).
    public private(set) var appInstance = 0
    /// The handle the OS handed to the app, nil until it arrives.
    public private(set) var handle: String?
    /// The Firebase installation ID (FID) of the app on an Android device (``FirebaseInstallationID``):
    /// a new one on install, restore and clear-data, kept across launches and handle refreshes; FCM
    /// delivers a send addressed to it (`message.fid`) as to the app's current token. Nil on iOS
    /// (unless the app has the Firebase SDK, ``usesFirebaseMessaging``) and Windows, and while the
    /// app is not installed.
    public private(set) var firebaseInstallationID: String?
    /// Whether the app embeds the Firebase Messaging SDK (iOS only): after its APNs token arrives,
    /// the SDK asks FCM for a registration token bound to it (`Device+FirebaseIOS.swift`).
    public let usesFirebaseMessaging: Bool
    /// The FCM registration token FCM issued to an iOS app with the Firebase SDK, bound to its
    /// APNs token; nil until it arrives, and on other devices (their FCM token is ``handle``).
    public internal(set) var fcmToken: String?
    /// The newest FCM registration token the app was given (an Android app's handle, or an iOS
    /// app's ``fcmToken``), kept after the app is removed, as the app's server keeps the token it
    /// was sent: what `operator send fcm … to token of <device>` sends to. Nil before any.
    public internal(set) var lastFCMToken: String?
    /// Topic subscriptions and unsubscriptions the app asked for before it had a token: its
    /// Firebase SDK keeps them and sends them once the token comes (FA-ANDROID-RPC).
    var pendingTopicOperations: [(topic: String, delete: Bool)] = []
    /// How many Firebase installations the app has had on this device (numbers each new FID).
    private var firebaseInstallations = 0
    /// Bumped on every install and uninstall, so answers meant for an older install are ignored.
    var generation = 0

    // App side
    /// The app's persistent storage (`NSUserDefaults`): cleared when the app is removed.
    public var storage: [String: String] = [:]
    /// The Basic credentials built at login (`base64(user:password)`), kept in memory only.
    public internal(set) var authorization: String?
    /// The recommended app runs one registration at a time; a request meanwhile runs after it.
    var isRegistering = false
    var registerAgain = false
    /// The user logged in on the app; nil when nobody is.
    public internal(set) var loggedInUser: String?

    // What a test can look at
    /// Every notification shown, in order, replaced ones included (see ``displayed``), unless
    /// ``inboxRetention`` dropped the oldest.
    public internal(set) var inbox: [ShownNotification] = []
    /// How many notifications to keep in ``inbox`` (the newest); nil (the default, and in
    /// scenarios) keeps all. `pushsim serve` sets it, so that a phone sent to for days does not
    /// keep every notification in memory.
    public var inboxRetention: Retention? {
        didSet { if let inboxRetention { inboxDropped += inboxRetention.trim(&inbox, now: true) } }
    }
    /// How many of the oldest notifications ``inboxRetention`` dropped; the inbox's first kept
    /// notification is the `inboxDropped`-th (from 0) the device ever showed.
    public internal(set) var inboxDropped = 0
    /// How many notifications the device has shown since it was made, the dropped ones included.
    public var shownCount: Int { inboxDropped + inbox.count }
    /// Every call the app made to its backend, in the order they ended (calls in flight are not here).
    public internal(set) var calls: [AppCallRecord] = []
    /// The app icon's badge, as the last `aps.badge` or WNS badge notification set it: a number
    /// or a Windows glyph; nil while none shows (none set yet, or cleared by `0` or `none`).
    public internal(set) var badge: AppBadge?
    /// Notifications that reached the device but were kept off screen by the user's notification
    /// settings, in order (``NotificationSettings``).
    public internal(set) var suppressed: [SuppressedNotification] = []
    /// How many times FCM told the app that stored messages were deleted (`onDeletedMessages()`, F-COLL).
    public internal(set) var deletedMessagesNotices = 0

    // OS settings
    /// The OS budget for background (silent) pushes: at most this many wake the app in any
    /// window, the rest are dropped. Default 3 per hour, Apple's "no more than two or three per
    /// hour" (§1.10, A-BG, PINPOINT); nil = no budget. Applies to iOS only.
    public var backgroundPushLimit: RateLimit? = RateLimit(3, per: .hours(1))
    /// The user's notification permission for the app and its turned-off channels
    /// (`Device+NotificationPermission.swift`): allowed on every install unless a step says otherwise.
    public internal(set) var notificationSettings = NotificationSettings()
    /// The system's budget for priority-10 ActivityKit updates (A-LA-PUSH: frequent high-priority
    /// updates are throttled unless the app asks for frequent updates): over it an update is
    /// dropped. Nil (the default) is no budget: Apple publishes no number.
    public var liveActivityPriority10Budget: RateLimit?
    /// The app's Live Activities and push-to-start tokens (`LiveActivities/`).
    public internal(set) var liveActivities = LiveActivityBoard()
    /// Background pushes that woke the app, for ``backgroundPushLimit``.
    var backgroundWakes = SlidingWindowCounter()

    /// The world this device lives in. Unowned: the world owns its hosts, and a strong reference
    /// back would keep every finished world alive (see `WorldLifetimeTests`).
    unowned let world: World

    /// Called after the device shows a notification (the app's notification handler, for a
    /// test's own checks), with what was shown. Runs inside the world, at the virtual time shown.
    public var onNotificationShown: ((ShownNotification) -> Void)?
    /// Called when the OS hands the app a push handle (each launch, and on a rotation), with the
    /// handle and whether it differs from the one before; before the app's own logic reacts.
    public var onHandleReceived: ((_ handle: String, _ changed: Bool) -> Void)?

    /// The platform's default OS version (``DevicePlatformProfile/defaultOSVersion``): iOS 12 (the
    /// tutorial's era, before the token description changed), Android 14, Windows 11.
    public static func defaultOSVersion(_ platform: DevicePlatform) -> Int { platform.profile.defaultOSVersion }

    /// The storage key of the registration id (the tutorial's `RegistrationIdLocalStorageKey`).
    public static let registrationIDKey = "RegistrationId"
    /// The storage key of the recommended app's unregistration still to do: `<id> <Basic credentials>`.
    public static let pendingUnregistrationKey = "PendingUnregistration"

    /// A device running `logic`, or `client`'s built-in logic when `logic` is nil; `firebase`
    /// (iOS only) gives the app the Firebase Messaging SDK (``usesFirebaseMessaging``).
    public init(world: World, name: String, platform: DevicePlatform, client: ClientFlavour, app: AppIdentity, osVersion: Int? = nil,
                logic: AppClientLogic? = nil, firebase: Bool = false) {
        self.usesFirebaseMessaging = firebase && platform == .ios
        self.world = world
        self.name = name
        self.platform = platform
        self.client = client
        self.logic = logic ?? client.makeLogic()
        self.app = app
        self.osVersion = osVersion ?? Device.defaultOSVersion(platform)
        world.register(self, name: name)
    }

    /// The push service this device's OS talks to, and the app id it registers.
    var service: PushServiceLink { app.pushService(on: platform) }

    /// Records a trace event of this device (layer `device`): for client logic to say what it
    /// decided. The fields are built only when the world keeps or reads events of `kind`.
    public func record(_ kind: TraceKind, _ fields: @autoclosure () -> KeyValuePairs<TraceFieldName, TraceValue> = [:]) {
        world.record(layer: "device", host: name, kind: kind, fields())
    }

    // MARK: OS actions

    /// Installs and opens the app: a fresh install has empty storage; the app asks for a handle.
    public func install() {
        guard !isAppInstalled else { return record(.deviceIgnored, [.action: "install", .why: "the app is already installed"]) }
        isAppInstalled = true
        installCount += 1
        appInstance += 1
        forgetApp(keeping: [:])
        newFirebaseInstallation()
        record(.deviceInstall, [.install: .int(installCount)])
        notificationPermissionAtInstall()
        launch()
    }

    /// Installs the app from another device's backup: its storage (the stored registration id)
    /// comes along, but this device gets its own push handle (A-REG, F-TOK: restoring to a new
    /// device yields a new token). Credentials kept in memory do not come along. The recommended
    /// app keeps its registration id out of the backup.
    public func restore(from other: Device) {
        guard !isAppInstalled else { return record(.deviceIgnored, [.action: "restore", .why: "the app is already installed"]) }
        isAppInstalled = true
        installCount += 1
        appInstance += 1
        // The client logic decides what comes along (the recommended app keeps its registration
        // out of backups: two phones upserting one id would take turns losing it).
        forgetApp(keeping: logic.restoredStorage(other.storage))
        newFirebaseInstallation()
        record(.deviceRestore, [.from: .string(other.name), .storedID: .string(storage[Device.registrationIDKey] ?? "none")])
        notificationPermissionAtInstall()
        launch()
    }

    /// The push handle changes while the app stays installed: FCM rotates a token (F-TOK), an OS
    /// update or backup restore gives APNs a new token (A-REG). The app learns it at once
    /// (`onNewToken`, a new `didRegisterForRemoteNotifications…`).
    public func refreshHandle() {
        guard isAppInstalled else { return record(.deviceIgnored, [.action: "refresh-handle", .why: "the app is not installed"]) }
        appInstance += 1
        record(.deviceHandleRefresh)
        launch()
    }

    /// The user clears the app's data in the OS settings, as each platform does it:
    /// - Android (Settings → Apps → Clear storage): the app's storage and its Firebase
    ///   installation go; the next start gets a new FCM registration token, and the old one is
    ///   no longer valid (F-TOK: a token changes when "the user clears app data"). The app is
    ///   started again here, as the user would open it.
    /// - Windows (Settings → Apps → Advanced options → Reset): the app's data goes and the app
    ///   asks for a channel again when it starts; PushSim gives it a new channel and the old one
    ///   is refused from then on. Whether WNS hands back the same URI is unconfirmed.
    /// - iOS has no such setting (the user deletes the app and installs it again): recorded as
    ///   ignored, with the reason.
    /// The push service is not told: it finds out when a push for the old handle reaches the
    /// device, as after an uninstall.
    public func clearData() {
        guard isAppInstalled else { return record(.deviceIgnored, [.action: "clear-data", .why: "the app is not installed"]) }
        guard platform != .ios else {
            return record(.deviceIgnored, [.action: "clear-data", .why: "iOS has no way to clear an app's data: uninstall and install it instead"])
        }
        appInstance += 1
        forgetApp(keeping: [:])
        newFirebaseInstallation()
        record(.deviceClearData)
        launch()
    }

    /// Removes the app and its storage. The push service is not told: it finds out when a push
    /// for the old handle reaches the device (A-FORUM-670868, F-TOK).
    public func uninstall() {
        guard isAppInstalled else { return record(.deviceIgnored, [.action: "uninstall", .why: "the app is not installed"]) }
        isAppInstalled = false
        forgetApp(keeping: [:])
        firebaseInstallationID = nil
        notificationPermissionAtUninstall()
        record(.deviceUninstall)
    }

    /// The app's Firebase SDK makes a new installation (Android, and an iOS app with the Firebase SDK).
    private func newFirebaseInstallation() {
        guard platform == .android || usesFirebaseMessaging else { return }
        firebaseInstallations += 1
        firebaseInstallationID = FirebaseInstallationID.make(device: name, installation: firebaseInstallations, world: world)
    }

    /// Ends the app as it ran and forgets what it held, for an install, a restore, a clear-data or
    /// an uninstall: a new generation (answers to the old app's calls are dropped, and a routine
    /// of the old app never ends), no credentials, no push handle, and `storage` as given.
    private func forgetApp(keeping storage: [String: String]) {
        generation += 1
        (isRegistering, registerAgain) = (false, false)
        self.storage = storage
        authorization = nil
        loggedInUser = nil
        handle = nil
        fcmToken = nil
        pendingTopicOperations = []
        liveActivities = LiveActivityBoard()
    }

    /// The app starts: it asks the OS for a push handle (apps must do this on every launch: A-REG, W-OVR).
    /// When the handle does not come (no answer, an error), the recommended app asks again after
    /// the `AppRetry` delays; the tutorial app waits for its next start.
    public func launch() { launch(attempt: 0) }

    func launch(attempt: Int) {
        guard isAppInstalled else { return }
        if attempt == 0 { logic.resumed(on: self) }
        let generation = self.generation
        let ask = DeviceRegisterRequest(app: service.appID, install: appInstance, environment: service.scope,
                                        installation: firebaseInstallationID)
        let request = HTTPRequest(method: "POST", authority: service.deviceHost, path: DeviceChannel.registerPath, body: ask.body)
        world.call(request, from: name) { [self] result in
            guard generation == self.generation else { return }
            guard let r = result.response, r.status == 200, let json = try? JSONParser.parse(r.body),
                  let h = json["handle"]?.stringValue else {
                record(.deviceHandleFailed, [.result: .string(result.summary)])
                guard let delay = logic.handleRetryDelay(after: attempt) else { return }
                record(.appRetry, [.operation: "handle", .why: "\(result.summary): ask again", .after: .string(delay.description)])
                world.schedule(after: delay) { [self] in if generation == self.generation { launch(attempt: attempt + 1) } }
                return
            }
            let changed = h != handle
            handle = h
            if platform == .android { lastFCMToken = h }
            record(.deviceHandleReceived, [.handle: .string(shortToken(h)), .changed: .bool(changed)])
            onHandleReceived?(h, changed)
            sendPendingTopicOperations()
            if usesFirebaseMessaging { askFCMForToken(apnsToken: h) }
            logic.handleReceived(on: self, changed: changed)
        }
    }

    /// Goes offline: nothing reaches the device and its own calls fail.
    public func goOffline() { world.setOnline(name, false) }

    /// Comes back online: the OS reconnects to its push service, which sends what it kept.
    public func goOnline() {
        world.setOnline(name, true)
        logic.resumed(on: self)   // the recommended app, told the network is back, finishes a logout
        let request = HTTPRequest(method: "POST", authority: service.deviceHost, path: DeviceChannel.connectPath)
        world.call(request, from: name) { [self] result in record(.deviceReconnected, [.result: .string(result.summary)]) }
    }

    // MARK: Pushes from the service

    /// Takes a push from the service over the device channel, by the handle it was sent to: the
    /// app's current handle (a notification, or a broadcast naming its channel), or one of the
    /// app's Live Activity tokens (`LiveActivities/`). Any other handle belongs to an app install
    /// or activity that is gone: 410, so the service learns it. Any path other than `/push` is 404.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        guard request.path == DeviceChannel.pushPath else {
            return world.respond(to: exchange, with: HTTPResponse(status: 404))
        }
        let pushedHandle = request.headers[DeviceChannel.handleHeader] ?? ""
        let message = request.headers[DeviceChannel.messageHeader] ?? ""
        guard isAppInstalled else { return refusePush(message, why: "app not installed", exchange: exchange) }
        // The app's own handle first: every ordinary push is one. No Live Activity token equals it.
        guard let handle, pushedHandle == handle else {
            if let target = liveActivities.target(of: pushedHandle) {
                return receiveLiveActivityPush(request, target: target, exchange: exchange)
            }
            let isActivityKit = request.headers["apns-push-type"] == "liveactivity"   // only for the reason given
            return refusePush(message, why: isActivityKit ? "the Live Activity token reaches no activity any more" : "handle belongs to an earlier install",
                              exchange: exchange)
        }
        if let channel = request.headers[DeviceChannel.channelHeader] {
            return receiveBroadcast(request, channel: channel, exchange: exchange)
        }
        world.respond(to: exchange, with: HTTPResponse(status: 200))
        record(.devicePushReceived, [.service: .string(request.headers[DeviceChannel.serviceHeader] ?? "?"), .message: .string(message)])
        present(request)
    }

    private func refusePush(_ message: String, why: String, exchange: Exchange) {
        record(.devicePushRefused, [.message: .string(message), .why: .string(why)])
        world.respond(to: exchange, with: HTTPResponse(status: 410))
    }

    /// Nothing: what a device holds (inbox, storage) is its state, not unfinished work.
    public func leftovers(world: World) -> [Leftover] { [] }
}
