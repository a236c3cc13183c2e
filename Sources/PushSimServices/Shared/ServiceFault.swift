import PushSimKernel
import PushSimNetwork

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
//     APNsService.faults, FCMService.faults, WNSService.faults: [ServiceFault]  (public var; first match wins)
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

/// One injected service fault: while `window` holds, each provider-API request is hit with
/// probability `probability` (an integer ratio, design rule 5) and answered per `effect`.
///
/// Service faults imitate what the real services do under load or failure and are always labelled
/// in the trace as injected (`fault.injected`, `injected: true`), so that a checker never mistakes
/// them for a bug (design rule 9, FoundationDB's tagging). They apply only to the provider
/// APIs (`api.push.apple.com`, `fcm.googleapis.com`, `*.notify.windows.com`), never to the
/// device channel nor to the OAuth/Live token endpoints.
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

        /// The effect a keyword names: `outage`, `throttle` (both need a duration: the
        /// retry-after), `internal-error` (no duration), `slow` (needs the delay). Nil otherwise.
        public init?(name: String, duration: VirtualDuration?) {
            switch (name, duration) {
            case ("outage", let d?): self = .outage(retryAfter: d)
            case ("throttle", let d?): self = .throttle(retryAfter: d)
            case ("internal-error", nil): self = .internalError
            case ("slow", let d?): self = .slow(d)
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
            }
        }

        var label: String {
            switch self {
            case .outage(let d), .throttle(let d): return "\(name) retry-after \(d)"
            case .internalError: return name
            case .slow(let d): return "slow \(d)"
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

    /// A rule in force over `window` (`[from, to)` in virtual time), hitting each request with `probability`.
    public init(effect: Effect, window: Range<VirtualTime>, probability: Ratio = .always) {
        self.window = window
        self.probability = probability
        self.effect = effect
    }

    /// The parser-friendly form: `from` inclusive, `to` exclusive. `to` must not be before `from`.
    public init(effect: Effect, from: VirtualTime, to: VirtualTime, probability: Ratio = .always) {
        precondition(from <= to, "a service fault window must not end (\(to)) before it starts (\(from))")
        self.init(effect: effect, window: from..<to, probability: probability)
    }

    /// A short description for the trace, in the scenario language's words:
    /// `outage retry-after 30s from 10s to 40s`, `slow 5s from 0s to 1m probability 1/2`.
    public var label: String {
        let from = window.lowerBound - .zero, to = window.upperBound - .zero
        var text = "\(effect.label) from \(from) to \(to)"
        if probability != .always { text += " probability \(probability)" }
        return text
    }
}

/// The interpreter: picks the rule that hits a request. Rules are asked in order and the first
/// one that hits wins (as turmoil's and PushSim's link rules do); a rule outside its window
/// draws nothing, and neither does one whose probability is `always` or `never`.
struct ServiceFaultInterpreter {
    private var random: SeededRandom

    /// Draws from the `<service>/faults` stream (e.g. `apns/faults`), separate from the
    /// service's own stream so that token and id generation never depend on the fault rules.
    init(world: World, service: String) { random = world.randomStream(service + "/faults") }

    mutating func match(_ rules: [ServiceFault], at now: VirtualTime) -> ServiceFault? {
        for rule in rules where rule.window.contains(now) {
            if random.chance(rule.probability) { return rule }
        }
        return nil
    }
}

/// Where and when a provider request's answer goes: at once, or `delay` later while a `.slow`
/// fault holds it (the work itself is done at once; only the answer waits).
struct Reply {
    let exchange: Exchange
    var delay: VirtualDuration = .zero

    func send(_ response: HTTPResponse, world: World) {
        guard delay > .zero else { return world.respond(to: exchange, with: response) }
        world.schedule(after: delay) { world.respond(to: exchange, with: response) }
    }
}

extension World {
    /// Traces an injected service fault: `fault.injected` with `fault` (the rule's label),
    /// `injected: true`, and the `status` sent (or the `delay` added for `.slow`).
    func recordInjected(_ fault: ServiceFault, service: String, status: Int?, reason: String) {
        switch fault.effect {
        case .slow(let d):
            record(layer: service, host: service, kind: .faultInjected,
                   [.fault: .string(fault.label), .injected: true, .delay: .string(d.description)])
        default:
            record(layer: service, host: service, kind: .faultInjected,
                   [.fault: .string(fault.label), .injected: true, .status: .int(status ?? 0), .reason: .string(reason)])
        }
    }
}
