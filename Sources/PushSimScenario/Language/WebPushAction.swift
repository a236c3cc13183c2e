import PushSimKernel
import PushSimDevices
import PushSimServices

/// `browser <name> chrome|firefox|safari|edge [permission default|granted|denied] [prompt allow|deny]`
public struct BrowserDeclaration: Equatable, Sendable {
    /// Unique among the scenario's devices, browsers and application servers.
    public var name: String
    /// Which browser, which decides its push service.
    public var vendor: BrowserVendor
    /// The site's notification permission at the start (`default` unless written).
    public var permission: WebNotificationPermission
    /// How the user answers the permission prompt (`allow` unless written).
    public var promptAnswer: PermissionPromptAnswer
    /// Where the `browser` statement starts.
    public var location: SourceLocation
    /// A declaration.
    public init(name: String, vendor: BrowserVendor, permission: WebNotificationPermission = .default,
                promptAnswer: PermissionPromptAnswer = .allow, location: SourceLocation) {
        self.name = name; self.vendor = vendor; self.permission = permission; self.promptAnswer = promptAnswer; self.location = location
    }
}

/// `app-server <name> [subject "<mailto:…|https:…>"]`: a site's application server with a VAPID
/// key of its own (see ``WebPushApplicationServer``).
public struct ApplicationServerDeclaration: Equatable, Sendable {
    /// Unique among the scenario's devices, browsers and application servers.
    public var name: String
    /// The VAPID `sub` claim (`mailto:push@example.com` unless written).
    public var subject: String
    /// Where the `app-server` statement starts.
    public var location: SourceLocation
    /// A declaration.
    public init(name: String, subject: String, location: SourceLocation) {
        self.name = name; self.subject = subject; self.location = location
    }
}

/// A Web Push step: a browser's (`bob-chrome subscribe push for shop`) or an application
/// server's (`shop push "Sale" to bob-chrome ttl 0`).
public enum WebPushAction: Equatable, Sendable {
    /// The page calls `pushManager.subscribe()` with the server's VAPID public key.
    case subscribe(server: String)
    /// The page calls `PushSubscription.unsubscribe()`.
    case unsubscribe
    /// The user clears the browser's site data: subscription, keys and permission go.
    case clearProfile
    /// The browser loses its network connection.
    case offline
    /// The browser is back online and reconnects to its push service.
    case online
    /// The application server sends `text` to the browser's subscription.
    case push(text: String, to: String, options: WebPushApplicationServer.MessageOptions)
    /// The page signs `user` in on the hardened backend and registers its subscription (made
    /// with the hub's VAPID key) for the hub's browser platform, natively or with `template`.
    case login(user: String, password: String, template: String?)

    /// The step as the run labels it after its actor's name.
    var label: String {
        switch self {
        case .subscribe(let server): return "subscribe push for \(server)"
        case .unsubscribe: return "unsubscribe push"
        case .clearProfile: return "clear-profile"
        case .offline: return "offline"
        case .online: return "online"
        case .push(let text, let to, let o):
            var words = "push \(jsonString(text)) to \(to) ttl \(o.ttlSeconds)"
            if let topic = o.topic { words += " topic \(jsonString(topic))" }
            if let urgency = o.urgency { words += " urgency \(urgency)" }
            return o.forged ? words + " forged" : words
        case .login(let user, _, let template):
            return "login \(user)" + (template.map { " template \(jsonString($0))" } ?? "")
        }
    }
}
