import PushSimKernel

// The fault model shared by the fake push services (PushSimServices) and the fake notification
// hub (PushSimHub): the rules, their interpreter, the delayed or lost reply and the trace of a
// hit. What each fake answers to a hit lives with the fake (ServiceFault+Answers.swift for APNs,
// FCM and WNS; NotificationHub+Faults.swift for the hub).
//
// Swift API for the scenario language (design rule 9: faults are data plus a small interpreter).
//
//     public struct ServiceFault: Sendable, Equatable {
//         public enum Effect: Sendable, Equatable {
//             case outage(retryAfter: VirtualDuration)    // `outage retry-after <d>`
//             case throttle(retryAfter: VirtualDuration)  // `throttle retry-after <d>`
//             case internalError                          // `internal-error`
//             case slow(VirtualDuration)                  // `slow <d>`
//             public init?(name: String, duration: VirtualDuration?)  // keyword + optional duration
//             public var name: String                                 // the keyword back
//         }
//         public var window: Range<VirtualTime>           // [from, to)
//         public var probability: Ratio                   // default .always
//         public var effect: Effect
//         public init(effect: Effect, from: VirtualTime, to: VirtualTime, probability: Ratio = .always)
//         public init(effect: Effect, window: Range<VirtualTime>, probability: Ratio = .always)
//         public var label: String                        // e.g. "outage retry-after 30s from 10s to 40s"
//     }
//     APNsService.faults, FCMService.faults, WNSService.faults, NotificationHub.faults: [ServiceFault]
//         (public var; first match wins)
//
// So `fault apns outage from 10s to 40s retry-after 30s` becomes
//     simulation.apns.faults.append(ServiceFault(effect: .outage(retryAfter: .seconds(30)),
//                                                from: .zero + .seconds(10), to: .zero + .seconds(40)))
// and `fault fcm throttle from 0s to 1h retry-after 60s probability 1/4` adds `probability: Ratio(1, 4)`.
//
// How each service answers (see ServiceFault+Answers.swift for the exact responses):
//
// | effect | APNs (A-RESP) | FCM (F-ERR) | WNS (W-HDR, W-TRBL) |
// |---|---|---|---|
// | outage | 503 `ServiceUnavailable` | 503 `UNAVAILABLE` + `Retry-After` | 503 |
// | throttle | 429 `TooManyRequests` | 429 `RESOURCE_EXHAUSTED`/`QUOTA_EXCEEDED` + `Retry-After` | 406 + `X-WNS-CONTINUE-AFTER` |
// | internalError | 500 `InternalServerError` | 500 `INTERNAL` | 500 |
// | slow(d) | the normal answer, `d` later | same | same |
//
// The notification hub takes the whole-service effects only (no token, device or app scope, no
// refusal): outage 503, throttle 429 with `Retry-After`, internal error 500, each with the hub's
// XML error body; slow and lost-answer as above (see NotificationHub+Faults.swift).

/// One injected service fault: while `window` holds, each provider-API request is hit with
/// probability `probability` (an integer ratio, design rule 5) and answered per `effect`.
///
/// Service faults imitate what the real services do under load or failure and are always labelled
/// in the trace as injected (`fault.injected`, `injected: true`), so that a checker never mistakes
/// them for a bug (design rule 9, FoundationDB's tagging). In the push services they apply only
/// to the provider APIs (`api.push.apple.com`, `fcm.googleapis.com`, `*.notify.windows.com`),
/// never to the device channel nor to the OAuth/Live token endpoints; in the notification hub,
/// to every REST request (registrations, installations, sends), whole-service rules only.
public struct ServiceFault: Sendable, Equatable {
    /// What an affected request gets.
    public enum Effect: Sendable, Equatable {
        /// The service is down: its real 503. `retryAfter` is sent where the service documents a
        /// `Retry-After` (FCM); APNs and WNS document none, so there it only appears in the label.
        case outage(retryAfter: VirtualDuration)
        /// The caller is rate limited: APNs 429 `TooManyRequests`, FCM 429 `QUOTA_EXCEEDED` with
        /// `Retry-After`, WNS 406 with `X-WNS-CONTINUE-AFTER` (seconds, rounded up).
        case throttle(retryAfter: VirtualDuration)
        /// The service fails inside: its real 500.
        case internalError
        /// The request is handled normally but its answer leaves this much later.
        case slow(VirtualDuration)
        /// The request is handled normally (a send is delivered) but its answer is lost on the way
        /// back: the caller times out, and a retry sends it twice.
        case lostAnswer
        /// The service's own answer for a token in some state, by the service's name for it: APNs
        /// `BadDeviceToken`, `Unregistered` (410, its timestamp the fault's start),
        /// `DeviceTokenNotForTopic`; FCM `UNREGISTERED`, `SENDER_ID_MISMATCH`; WNS
        /// `channel-expired` (410). Each fake lists its own (`refusalKinds`).
        case refuse(String)

        /// The effect a keyword names: `outage`, `throttle` (both need a duration: the
        /// retry-after), `internal-error` (no duration), `slow` (needs the delay). Nil otherwise.
        public init?(name: String, duration: VirtualDuration?) {
            switch (name, duration) {
            case ("outage", let d?): self = .outage(retryAfter: d)
            case ("throttle", let d?): self = .throttle(retryAfter: d)
            case ("internal-error", nil): self = .internalError
            case ("slow", let d?): self = .slow(d)
            case ("lost-answer", nil): self = .lostAnswer
            default: return nil
            }
        }

        /// The keyword: `outage`, `throttle`, `internal-error` or `slow`.
        public var name: String {
            switch self {
            case .outage: return "outage"
            case .throttle: return "throttle"
            case .internalError: return "internal-error"
            case .slow: return "slow"
            case .lostAnswer: return "lost-answer"
            case .refuse(let kind): return kind
            }
        }

        /// Whether the effect is a token's refusal, which the service gives only once it has read
        /// the request and found the token (after its credentials are checked).
        public var isRefusal: Bool { if case .refuse = self { return true } else { return false } }

        var label: String {
            switch self {
            case .outage(let d), .throttle(let d): return "\(name) retry-after \(d)"
            case .internalError, .lostAnswer, .refuse: return name
            case .slow(let d): return "slow \(d)"
            }
        }
    }

    /// Which requests a fault is about.
    public enum Scope: Sendable, Equatable {
        /// Every provider request to the service.
        case service
        /// Requests to one token (APNs device token, FCM registration token, WNS channel URI or
        /// the token in its query).
        case token(String)
        /// Requests to any token of one simulated device, by its name.
        case device(String)
        /// Requests to any token of one app (APNs bundle id, FCM and WNS app id).
        case app(String)
        /// FCM only: requests to one Firebase installation of an app, by its FID, whether they
        /// name the FID (`message.fid`) or a token issued for it.
        case fid(String)

        /// `token <t>`, `device <name>`, `app <id>`, `fid <fid>`, or nothing for the whole service.
        var label: String {
            switch self {
            case .service: return ""
            case .token(let t): return " token " + (t.utf8.count > 12 ? String(t.prefix(8)) + "…" : t)
            case .device(let d): return " device " + d
            case .app(let a): return " app " + a
            case .fid(let f): return " fid " + f
            }
        }
    }

    /// When the rule is in force: `[from, to)` in virtual time.
    public var window: Range<VirtualTime>
    /// The chance that an in-window request is hit; drawn from the service's own `<service>/faults`
    /// stream, so adding a fault never shifts any other random number. Default: always.
    public var probability: Ratio
    /// What a hit request gets.
    public var effect: Effect
    /// Which requests it is about; default the whole service.
    public var scope: Scope
    /// How many more requests it may hit; nil: no bound but the window. Counted down on each hit.
    public var remaining: Int?
    /// A name given by whoever injected it (the control API's `f1`, `f2`, …), shown in the label.
    public var id: String?

    /// A rule in force over `window` (`[from, to)` in virtual time), hitting each request in
    /// `scope` with `probability`, at most `count` times (nil: no bound).
    public init(effect: Effect, window: Range<VirtualTime>, probability: Ratio = .always, scope: Scope = .service,
                count: Int? = nil, id: String? = nil) {
        self.window = window
        self.probability = probability
        self.effect = effect
        self.scope = scope
        self.remaining = count
        self.id = id
    }

    /// The parser-friendly form: `from` inclusive, `to` exclusive. `to` must not be before `from`.
    public init(effect: Effect, from: VirtualTime, to: VirtualTime, probability: Ratio = .always, scope: Scope = .service,
                count: Int? = nil, id: String? = nil) {
        precondition(from <= to, "a service fault window must not end (\(to)) before it starts (\(from))")
        self.init(effect: effect, window: from..<to, probability: probability, scope: scope, count: count, id: id)
    }

    /// Whether it may still hit a request at `now` or later: its window has not ended and its
    /// count is not spent.
    public func isActive(at now: VirtualTime) -> Bool { now < window.upperBound && remaining.map { $0 > 0 } ?? true }

    /// Whether the service asks it before reading the request (a whole-service outage, throttle,
    /// error, delay or loss), rather than once it has found the request's token.
    var isAskedFirst: Bool { scope == .service && !effect.isRefusal }

    /// A short description for the trace, in the scenario language's words:
    /// `outage retry-after 30s from 10s to 40s`, `slow 5s from 0s to 1m probability 1/2`.
    public var label: String {
        let from = window.lowerBound - .zero, to = window.upperBound - .zero
        var text = "\(effect.label)\(scope.label) from \(from) to \(to)"
        if probability != .always { text += " probability \(probability)" }
        if let remaining { text += " count \(remaining)" }
        if let id { text = id + ": " + text }
        return text
    }
}

/// What a fault scoped to a token, a device, an app or a Firebase installation is compared with:
/// the request's token, the record the service keeps for it, and (FCM) the FID its app named.
package struct FaultTarget {
    package var token: String
    package var device: String
    package var app: String
    package var installation: String?

    package init(token: String, device: String, app: String, installation: String? = nil) {
        self.token = token
        self.device = device
        self.app = app
        self.installation = installation
    }

    func isIn(_ scope: ServiceFault.Scope) -> Bool {
        switch scope {
        case .service: return true
        case .token(let t): return t == token
        case .device(let d): return d == device
        case .app(let a): return a == app
        case .fid(let f): return f == installation
        }
    }
}

/// The interpreter: picks the rule that hits a request. Rules are asked in order and the first
/// one that hits wins (as turmoil's and PushSim's link rules do); a rule outside its window or
/// scope, or with its count spent, draws nothing, and neither does one whose probability is
/// `always` or `never`. A hit counts down the rule's ``ServiceFault/remaining``.
///
/// A service asks twice: first, before it reads the request, for the whole-service rules
/// (``match(_:at:)``: an outage answers before credentials are checked); then, once it has found
/// the request's token, for the rest (``match(_:at:target:)``: a token refusal, or any fault
/// scoped to a token, a device or an app).
package struct ServiceFaultInterpreter {
    private var random: SeededRandom

    /// Draws from the `<service>/faults` stream (e.g. `apns/faults`, `hub/faults`), separate from
    /// the service's own stream so that token and id generation never depend on the fault rules.
    package init(world: World, service: String) { random = world.randomStream(service + "/faults") }

    /// The whole-service rule that hits a request before it is read, if any.
    package mutating func match(_ rules: inout [ServiceFault], at now: VirtualTime) -> ServiceFault? {
        match(&rules, at: now) { $0.isAskedFirst }
    }

    /// The rule about `target` (or a whole-service refusal) that hits the request, if any.
    package mutating func match(_ rules: inout [ServiceFault], at now: VirtualTime, target: FaultTarget) -> ServiceFault? {
        match(&rules, at: now) { !$0.isAskedFirst && target.isIn($0.scope) }
    }

    private mutating func match(_ rules: inout [ServiceFault], at now: VirtualTime, where applies: (ServiceFault) -> Bool) -> ServiceFault? {
        for i in rules.indices where rules[i].window.contains(now) && rules[i].remaining != 0 && applies(rules[i]) {
            if random.chance(rules[i].probability) {
                if let left = rules[i].remaining { rules[i].remaining = left - 1 }
                return rules[i]
            }
        }
        return nil
    }
}

/// Where and when a provider request's answer goes: at once, or `delay` later while a `.slow`
/// fault holds it (the work itself is done at once; only the answer waits).
package struct Reply {
    package let exchange: Exchange
    package var delay: VirtualDuration = .zero
    /// A `.lostAnswer` fault took the answer: it is never sent, and the caller times out.
    package var isLost = false

    /// The answer to `exchange`, at once unless `delay` or `isLost` say otherwise.
    package init(exchange: Exchange, delay: VirtualDuration = .zero, isLost: Bool = false) {
        self.exchange = exchange
        self.delay = delay
        self.isLost = isLost
    }

    /// Lets an injected fault that hit this request hold its answer, and traces the hit
    /// (``World/recordInjected(_:service:status:reason:exchange:)``): a `.slow` fault delays the
    /// answer, a `.lostAnswer` loses it. `status` and `reason` are what the fault answers instead
    /// (nil when the request goes on to its usual answer).
    package mutating func take(_ fault: ServiceFault, service: String, status: Int?, reason: String, world: World) {
        world.recordInjected(fault, service: service, status: status, reason: reason, exchange: exchange)
        switch fault.effect {
        case .slow(let d): delay = d
        case .lostAnswer: isLost = true
        default: break
        }
    }

    /// Sends `response` as this reply says: at once, `delay` later, or never when lost.
    package func send(_ response: HTTPResponse, world: World) {
        if isLost { return }
        guard delay > .zero else { return world.respond(to: exchange, with: response) }
        world.schedule(after: delay) { world.respond(to: exchange, with: response) }
    }
}

extension World {
    /// Traces an injected service fault: `fault.injected` with `fault` (the rule's label),
    /// `injected: true`, and the `status` sent (or the `delay` added for `.slow`, or `lost` for
    /// `.lostAnswer`); the journal entry of the call it hit (`exchange`) is labelled with it too.
    package func recordInjected(_ fault: ServiceFault, service: String, status: Int?, reason: String, exchange: Exchange) {
        labelInjected(exchange, fault.label)
        switch fault.effect {
        case .slow(let d):
            record(layer: service, host: service, kind: .faultInjected,
                   [.fault: .string(fault.label), .injected: true, .delay: .string(d.description)])
        case .lostAnswer:
            record(layer: service, host: service, kind: .faultInjected,
                   [.fault: .string(fault.label), .injected: true, .lost: "response"])
        default:
            record(layer: service, host: service, kind: .faultInjected,
                   [.fault: .string(fault.label), .injected: true, .status: .int(status ?? 0), .reason: .string(reason)])
        }
    }
}

/// A `Retry-After`-style whole number of seconds: rounded up, at least 1.
package func retryAfterSeconds(_ d: VirtualDuration) -> Int {
    max(1, Int(d.secondsRoundedUp))
}
