import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices
import PushSimServices
import PushSimHub

/// A place in a scenario file, 1-based line and column (columns count Unicode characters).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file's path as given to the parser.
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in Unicode characters.
    public var column: Int
    /// A location at `line` and `column` (both 1-based) of `file`.
    public init(file: String, line: Int, column: Int) { self.file = file; self.line = line; self.column = column }
    /// `file:line:col`
    public var description: String { "\(file):\(line):\(column)" }
}

/// A world setting given at the top of a scenario.
public enum ScenarioSetting: Equatable, Sendable {
    /// The calendar instant of virtual time zero (`epoch 2027-03-01T00:00:00Z`; default
    /// 2026-01-01T00:00:00Z): what the fakes' wall-clock values (APNs' 410 timestamp, FCM's
    /// message ids, the hub's ISO dates, token expiries) count from.
    case epoch(CalendarAnchor)
    /// The built-in backend devices use unless they choose one (`backend tutorial|hardened`).
    case backend(BackendFlavour)
    /// The hub policy whose key the built-in backends (tutorial and hardened) sign their hub calls
    /// with (`backend key listen`; default the full key, as the tutorial deploys it): the hub
    /// grants that key's claims only, so a Listen key's sends are 401 (NH-SEC).
    case backendKey(HubKey)
    /// Devices talk to the user's own backend, outside the world (`backend external "http://127.0.0.1:8080"`).
    case externalBackend(ExternalBackendAddress)
    /// Hub registration time-to-live (`hub ttl 90d`).
    case hubRegistrationTTL(VirtualDuration)
    /// One-way latency of every network message, uniform in `min...max` (`network latency 5ms..80ms`).
    case latency(min: VirtualDuration, max: VirtualDuration)
    /// Latency of one link (`network latency 200ms..2s between hub apns`).
    case linkLatency(min: VirtualDuration, max: VirtualDuration, between: [String])
    /// How the hub answers where the sources disagree or are silent (`hub send status 200`).
    case hubRule(HubRuleSetting)
    /// A shared access policy of the hub besides its two defaults (`hub policy "marketing" send`).
    case hubPolicy(HubAccessPolicy)
    /// The hub's credentials for a push service are wrong or missing (`hub credentials apns wrong`).
    case hubCredentials(service: String, problem: String)
    /// Whether the app's App ID has APNs' Broadcast capability (`apns broadcast disabled`).
    case apnsBroadcast(enabled: Bool)
    /// The APNs auth key of the Firebase project, which FCM relays iOS sends with (`fcm apns key missing`).
    case fcmAPNsKey(FCMAPNsKeyState)
    /// An injected fault of a push service (`fault apns outage from 10s to 40s retry-after 30s`).
    case fault(service: String, ServiceFault)
    /// Each message is lost with this probability, on every link or only between two hosts, for
    /// the whole run or in `[from, to)` (`network loss 1/100`, `network loss 1/10 between
    /// bob-iphone backend`, `network loss 1/5 from 10s to 60s`).
    case loss(Ratio, between: [String]?, window: Range<VirtualTime>? = nil)
    /// No message passes between two hosts in `[from, to)` (`network partition bob-iphone backend from 10s to 20s`).
    case partition(String, String, from: VirtualTime, to: VirtualTime)
    /// The run stops after this many events (`limit events <n>`; default 20 million).
    case limitEvents(Int)
    /// No event due later than this after time zero runs (`limit time <duration>`; default 10 years).
    case limitTime(VirtualDuration)
    /// An account on the hardened backend (`account bob password s3cret`). Without any, every
    /// device's `user` gets an account whose password is the user name.
    case account(user: String, password: String)
}

/// `device <name> <platform> [user <name>] [client <flavour>]`
public struct DeviceDeclaration: Equatable, Sendable {
    /// Unique in the scenario; never a statement keyword.
    public var name: String
    /// `ios`, `android` or `windows`.
    public var platform: DevicePlatform
    /// Who uses the device (`user <name>`); they get an account on the hardened backend unless
    /// the scenario declares accounts. Nil: no account is made for it.
    public var user: String?
    /// The app's client logic (`client tutorial|recommended`); `tutorial` when not written.
    public var client: ClientFlavour
    /// The backend this device's app talks to; nil means the scenario's `backend` setting.
    public var backend: BackendFlavour?
    /// The OS major version (`os 17`); nil means the platform's default (iOS 12).
    public var osVersion: Int?
    /// The user's own backend this device's app talks to (`backend external "<address>"`); when
    /// set, ``backend`` is nil.
    public var externalBackend: ExternalBackendAddress?
    /// The iOS app has the Firebase Messaging SDK (`firebase`): it gets an FCM token bound to its APNs token.
    public var firebase = false
    /// Where the `device` statement starts.
    public var location: SourceLocation
    /// A declaration; `backend`, `osVersion` and `externalBackend` default to nil (see each property).
    public init(name: String, platform: DevicePlatform, user: String?, client: ClientFlavour, location: SourceLocation,
                backend: BackendFlavour? = nil, osVersion: Int? = nil, externalBackend: ExternalBackendAddress? = nil) {
        self.name = name; self.platform = platform; self.user = user; self.client = client; self.location = location
        self.backend = backend; self.osVersion = osVersion; self.externalBackend = externalBackend
    }
}

/// Who acts in a step, and what they do: a device (its user or its OS) or the operator, who
/// works straight through the hub.
public enum ScenarioActionKind: Equatable, Sendable {
    /// A device's step (`bob-iphone install`); the step's ``ScenarioAction/device`` names it.
    case device(DeviceAction)
    /// The operator's step (`operator send apple "{}"`); the step's device is `operator`.
    case `operator`(OperatorAction)
    /// A browser's or an application server's Web Push step; the step's device names the actor.
    case webPush(WebPushAction)

    /// The step as the run labels it after its actor's name (`login bob`, `send apple to everyone`).
    var label: String {
        switch self {
        case .device(let action): return action.label
        case .operator(let action): return action.label
        case .webPush(let action): return action.label
        }
    }
}

/// One timed action, with its time already resolved to an absolute virtual time.
public struct ScenarioAction: Equatable, Sendable {
    /// When the action runs (absolute, in microseconds of virtual time).
    public var time: VirtualTime
    /// The device acting, or `operator` for the operator's steps.
    public var device: String
    /// What the device or the operator does.
    public var kind: ScenarioActionKind
    /// Where the action's statement starts.
    public var location: SourceLocation
    /// An action at an absolute `time`.
    public init(time: VirtualTime, device: String, kind: ScenarioActionKind, location: SourceLocation) {
        self.time = time; self.device = device; self.kind = kind; self.location = location
    }
}

/// What an expectation asserts.
public enum ExpectationKind: Equatable, Sendable {
    /// `expect <device> shows "<text>"`: some notification with exactly this text was shown.
    case shows(device: String, text: String)
    /// `expect <device> shows nothing`
    case showsNothing(device: String)
    /// `expect <device> shows <n> notifications`
    case showsCount(device: String, count: Int)
    /// `expect <device> badge <n>|<glyph>|none`: the app icon's badge at the end (or at the
    /// deadline), as the last `aps.badge` or WNS badge notification set it; `none` (nil) when no
    /// badge shows: none was set, or `0` or `none` cleared it (`badge 0` reads as `none`).
    case badge(device: String, value: AppBadge?)
    /// `expect <device> woke <n> time(s)`: how many background pushes woke the app (an iOS
    /// `content-available` push, within the OS's background budget; A-BG).
    case woke(device: String, count: Int)
    /// `expect <device> <operation> status [first|last|every|never] <code>` (or a class, `4xx`, or
    /// alternatives, `401 or 403`): some response to that call had such a status, or, with a
    /// quantifier, the first, the last, every or no response did (see ``StatusQuantifier``).
    case status(device: String, operation: AppOperation, code: StatusPattern, quantifier: StatusQuantifier = .any)
    /// `expect <device> suppressed "<text>"`: some notification with exactly this text reached the
    /// device but the user's notification settings kept it off screen (`notification.suppressed`).
    case suppressed(device: String, text: String)
    /// `expect <device> suppressed <n> notifications` (`suppressed nothing`: 0): exactly n were kept
    /// off screen, with or without text.
    case suppressedCount(device: String, count: Int)
    /// `expect <device> never shows "<text>"`
    case neverShows(device: String, text: String)
    /// `expect <device> shows "<a>" then "<b>" …`: these were shown in this order (others may come between).
    case showsInOrder(device: String, texts: [String])
    /// `expect hub has <n> registration(s) [for "<tag>"] [by <time>]`: live registrations when the run
    /// ends, or at `<time>` when given (a probe reads the hub then).
    case hubRegistrations(tag: String?, count: Int)
    /// `expect hub has <n> installation(s) [for "<tag>"] [by <time>]`: live installations when the
    /// run ends, or at `<time>`; a tag counts the installation's own tags and its implicit
    /// `$InstallationId:{id}` and `$UserId:{id}` (NH-REG).
    case hubInstallations(tag: String?, count: Int)
    /// `expect operator listed <n> registration(s)`: some `operator list registrations` answered
    /// with a feed of n entries.
    case listedRegistrations(count: Int)
    /// `expect apns|fcm|wns|hub|backend|backend-hardened received [at least|at most] <n> request(s)
    /// [with <condition> [and <condition>]…]`: from the request journal, the requests whose exchange
    /// meets every condition (status, reason, a header or a JSON field of the request or the
    /// answer); for a push service, only its provider API counts (sends, not device traffic).
    case received(host: String, count: RequestCount, conditions: [ExchangeCondition])
    /// `expect invariant <id> holds|broken`
    case invariant(id: String, holds: Bool)
    /// `expect operator test-send results <n>`: some test send answered with n per-target results.
    case testSendResults(count: Int)
    /// `expect fcm topic "<name>" has <n> subscribers [by <time>]`: how many tokens of the scenario's
    /// Firebase project FCM holds on the topic at the end of the run (or at the time); a token whose
    /// app is gone counts until FCM learns it is dead.
    case topicSubscribers(topic: String, count: Int)
    /// `expect <device> activity "<channel>" shows "<content state JSON>"`: at the end of the run,
    /// the device's Live Activity on the broadcast channel the scenario named shows this content
    /// state (compared as compact JSON; §1.20).
    case activityShows(device: String, channel: String, contentState: String)
    /// `expect apns has <n> channel(s) [by <time>]`: how many broadcast channels the scenario's app
    /// has in its APNs environment, as `GET …/all-channels` lists them (§1.20).
    case broadcastChannels(count: Int)
    /// `expect hub notification <n>|"<id>" state <State>`: the hub's telemetry state of a
    /// notification when the run ends (`Completed`, `Abandoned`, `NoTargetFound`, `Cancelled`, …;
    /// NH-SDKDOC), named by its number among the sends the hub took or by its id.
    case notificationState(NotificationReference, state: String)
    /// `expect user <name> shows "<text>" [once] on every device [by <time>]`: every device on which
    /// `<name>` is logged in at the deadline (or at the end) showed the text, exactly once with `once`.
    /// Vacuously true when the user is logged in nowhere. A device whose notification settings kept
    /// the text off screen (`notification.suppressed`) counts as having shown it: it received it,
    /// and its user chose not to see it. How exploration checks convergence.
    case userShowsOnEveryDevice(user: String, text: String, once: Bool)
    /// An expectation over a population's members (`expect every device in fans shows "Goal!"`,
    /// `expect 5000 of fans show "Goal!"`, `expect no device in fans shows nothing`): how many of
    /// `members` (in member order) satisfy `predicate` must match `quantifier`. Checked once, at the
    /// end, in O(members + what they showed).
    case population(name: String, members: [String], quantifier: PopulationQuantifier, predicate: MemberPredicate)
    /// `expect <device> live activity ["<Type>"] active|stale|ended|dismissed|none`, `… content
    /// "<field>" "<value>"` or `… alert "<text>"`: the device's newest Live Activity (of that type)
    /// at the end of the run, or at `by <time>` (a probe reads it then).
    case liveActivity(device: String, attributesType: String?, check: LiveActivityCheck)
}

/// How many members of a population an expectation asks for.
public enum PopulationQuantifier: Equatable, Sendable {
    /// `every device in <p>`: all of them.
    case every
    /// `no device in <p>` or `none of <p>`: not one.
    case none
    /// `<n> of <p>`: exactly n.
    case exactly(Int)
    /// `at least <n> of <p>`
    case atLeast(Int)
    /// `at most <n> of <p>`
    case atMost(Int)

    /// Whether `count` members out of `total` satisfy this quantifier.
    public func holds(count: Int, of total: Int) -> Bool {
        switch self {
        case .every: return count == total
        case .none: return count == 0
        case .exactly(let n): return count == n
        case .atLeast(let n): return count >= n
        case .atMost(let n): return count <= n
        }
    }
}

/// What one member of a population must have shown, for a population expectation.
public enum MemberPredicate: Equatable, Sendable {
    /// `shows "<text>"`: some notification with exactly this text.
    case shows(String)
    /// `shows nothing`
    case showsNothing
    /// `shows <n> notification(s)`: exactly n.
    case showsCount(Int)
}

/// One expectation, checked after the run, optionally at a deadline (`by 6s`).
public struct Expectation: Equatable, Sendable {
    /// What is asserted.
    public var kind: ExpectationKind
    /// Only what happened at or before this time counts.
    public var by: VirtualTime?
    /// Where the `expect` statement starts.
    public var location: SourceLocation
    /// The statement as written (trimmed, without the comment), for reports.
    public var source: String
    /// An expectation; `by` nil means the whole run counts.
    public init(kind: ExpectationKind, by: VirtualTime?, location: SourceLocation, source: String) {
        self.kind = kind; self.by = by; self.location = location; self.source = source
    }
}

/// A parsed scenario file.
public struct Scenario: Equatable, Sendable {
    /// The file's path, as given to the parser.
    public var path: String
    /// The name in the `scenario "<name>"` statement.
    public var name: String
    /// The seed written in the file (`seed 7`); the command line may override it.
    public var seed: UInt64?
    /// World settings, in file order.
    public var settings: [ScenarioSetting]
    /// Declared devices, in file order (population members included).
    public var devices: [DeviceDeclaration]
    /// Declared browsers, in file order.
    public var browsers: [BrowserDeclaration] = []
    /// Declared application servers, in file order.
    public var applicationServers: [ApplicationServerDeclaration] = []
    /// In file order; times never go backwards.
    public var actions: [ScenarioAction]
    /// In file order.
    public var expectations: [Expectation]
    /// The calendar instant of virtual time zero: the last `epoch` setting, else 2026-01-01T00:00:00Z.
    public var epoch: CalendarAnchor {
        for setting in settings.reversed() { if case .epoch(let anchor) = setting { return anchor } }
        return CalendarAnchor()
    }
    /// A scenario from its parts, as the parser builds it.
    public init(path: String, name: String, seed: UInt64?, settings: [ScenarioSetting], devices: [DeviceDeclaration],
                actions: [ScenarioAction], expectations: [Expectation]) {
        self.path = path; self.name = name; self.seed = seed; self.settings = settings; self.devices = devices
        self.actions = actions; self.expectations = expectations
    }
}

/// A choice among the hub's answers where Microsoft's sources disagree or are silent (each is
/// explained, with its sources, in PushSimHub's `HubFidelityRules.swift`).
public enum HubRuleSetting: Equatable, Sendable, CustomStringConvertible {
    /// `hub send status 200|201`: the status of an accepted send to tags or to everyone
    /// (default 201, as the service answers; the REST pages say 200).
    case sendStatus(Int)
    /// `hub registration status 200|201`: the status of a successful registration PUT (default
    /// 200, as the service answers; the REST pages say 201).
    case registrationStatus(Int)
    /// `hub if-match absent 404|412`: a registration PUT with `If-Match` on an id that holds no
    /// registration (default 404, as the Update Registration page says).
    case ifMatchAbsent(Int)
    /// `hub delete without if-match deletes|412`: a registration DELETE without `If-Match`
    /// (default: it deletes; no source says).
    case deleteWithoutIfMatch(refused: Bool)
    /// `hub apns payload refused|passed`: a native APNs send whose body is not a JSON object
    /// (default: refused with 400).
    case invalidAPNsPayload(refused: Bool)
    /// `hub apns token renewal <duration>`: how long the hub uses one APNs provider token
    /// (default 50m). Past an hour APNs answers 403 `ExpiredProviderToken` and the hub mints
    /// again; under 20 minutes APNs answers 429 `TooManyProviderTokenUpdates` (A-JWT).
    case apnsTokenRenewal(VirtualDuration)
    /// `hub answers current|classic`: which generation of the live service the registration answers
    /// imitate (default current, as the service answers since 2023; classic: as it answered until
    /// 2022 and as the REST pages describe, with `ETag` and `Content-Location` headers).
    case answerShape(HubAnswerShape)

    /// As written in a scenario (`hub send status 200`).
    public var description: String {
        switch self {
        case .sendStatus(let status): return "hub send status \(status)"
        case .registrationStatus(let status): return "hub registration status \(status)"
        case .ifMatchAbsent(let status): return "hub if-match absent \(status)"
        case .deleteWithoutIfMatch(let refused): return "hub delete without if-match \(refused ? "412" : "deletes")"
        case .invalidAPNsPayload(let refused): return "hub apns payload \(refused ? "refused" : "passed")"
        case .apnsTokenRenewal(let every): return "hub apns token renewal \(every)"
        case .answerShape(let shape): return "hub answers \(shape == .current ? "current" : "classic")"
        }
    }
}
