import PushSimKernel
import PushSimNetwork

/// One Live Activity token APNs issued: who holds it and what it reaches.
package struct APNsLiveActivityTokenRecord: Sendable, Equatable {
    /// Host name of the device holding it.
    public var device: String
    /// The app's bundle id; the token's topic is this plus `.push-type.liveactivity`.
    public var app: String
    /// The app install it was issued to, from 1.
    public var install: Int
    /// `production` or `sandbox`: the token is unknown in the other environment (§1.5).
    public var environment: String
    /// Push-to-start (for an attributes type) or update (for one activity).
    public var kind: LiveActivityTokenRequest.Kind
    /// The attributes type or the activity id.
    public var subject: String
    /// When APNs issued it.
    public var issuedAt: VirtualTime
    /// When APNs learned the token no longer reaches anything (its activity was dismissed, or the
    /// app is gone): from then sends get 410 `ExpiredToken` (§1.16, A-RESP).
    public var expiredAt: VirtualTime?

    /// The record as the rest of the service keeps a device token's, for delivery and storage.
    var handleRecord: HandleRecord {
        HandleRecord(device: device, app: app, install: install, environment: environment, issuedAt: issuedAt,
                     invalidatedAt: expiredAt, expiresAt: nil, lastActiveAt: issuedAt)
    }
}

/// The Live Activity tokens APNs issued, push-to-start and update alike, by token (looked up only,
/// never iterated). Kept apart from device tokens: a Live Activity token reaches the app's widget
/// extension, not the app, and answers only `liveactivity` pushes (§1.15).
package struct APNsLiveActivityTokens {
    private var records: [String: APNsLiveActivityTokenRecord] = [:]   // looked up only
    private var tokenByRequest: [String: String] = [:]                  // looked up only

    /// None yet.
    public init() {}

    /// The record of `token`, nil when APNs never issued it as a Live Activity token.
    public subscript(token: String) -> APNsLiveActivityTokenRecord? { records[token] }

    /// The token for `ask` from `device`: the one issued before for the same request, else a new
    /// one made by `make` (a draw from the APNs random stream), and whether it is new.
    mutating func token(for ask: LiveActivityTokenRequest, device: String, now: VirtualTime, make: () -> String) -> (token: String, isNew: Bool) {
        let key = [device, ask.app, String(ask.install), ask.environment, ask.kind.rawValue, ask.subject, String(ask.generation)].joined(separator: "\u{1F}")
        if let known = tokenByRequest[key] { return (known, false) }
        let token = make()
        tokenByRequest[key] = token
        records[token] = APNsLiveActivityTokenRecord(device: device, app: ask.app, install: ask.install, environment: ask.environment,
                                                     kind: ask.kind, subject: ask.subject, issuedAt: now)
        return (token, true)
    }

    /// Marks `token` as no longer reaching anything from `time` on (kept: the first time stays).
    mutating func expire(_ token: String, at time: VirtualTime) {
        guard records[token] != nil, records[token]?.expiredAt == nil else { return }
        records[token]?.expiredAt = time
    }
}
