import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimHub
import PushSimDevices

/// A service fault in words: what a scenario's `fault` statement and `pushsim serve`'s
/// `POST /_pushsim/faults` both say. One reading for both, so that the same words make the same
/// `PushSimNetwork.ServiceFault` and the same answers, whichever way it was injected.
///
/// | kind | takes | each service answers |
/// |---|---|---|
/// | `outage` | `retry-after` (default 30 s) | APNs 503 `ServiceUnavailable`, FCM 503 `UNAVAILABLE` + `Retry-After`, WNS 503, hub 503 |
/// | `throttle` | `retry-after` (default 30 s) | APNs 429 `TooManyRequests`, FCM 429 `QUOTA_EXCEEDED` + `Retry-After`, WNS 406 + `X-WNS-CONTINUE-AFTER`, hub 429 + `Retry-After` |
/// | `internal-error` | | APNs 500 `InternalServerError`, FCM 500 `INTERNAL`, WNS 500, hub 500 |
/// | `slow` | a delay | the usual answer, that much later |
/// | `lost-answer` | | the usual work (a send is delivered), but the answer never arrives: the caller times out |
/// | a token state | a token, device or app | APNs `BadDeviceToken`, `Unregistered`, `DeviceTokenNotForTopic`; FCM `UNREGISTERED`, `SENDER_ID_MISMATCH`; WNS `channel-expired` |
///
/// `hub` is the notification hub itself: the common kinds only, hitting every REST request to
/// it (registrations, installations, sends); it takes no token, device or app.
public struct FaultWords: Sendable, Equatable {
    /// `apns`, `fcm`, `wns`, or `hub` (the notification hub).
    public var service: String
    /// One of ``kinds(for:)``.
    public var kind: String
    /// The delay of a `slow` fault.
    public var delay: VirtualDuration?
    /// The `Retry-After` of an outage or a throttle; default 30 s.
    public var retryAfter = VirtualDuration.seconds(30)
    /// The chance each request in scope is hit; default always.
    public var probability = Ratio.always
    /// How many requests it may hit at most; nil: any number.
    public var count: Int?
    /// Which requests: the whole service, or one token, device, app or (FCM only) Firebase
    /// installation (never for the hub).
    public var scope = ServiceFault.Scope.service

    /// Words for a `kind` fault of `service`, the rest at their defaults.
    public init(service: String, kind: String) {
        self.service = service
        self.kind = kind
    }

    /// The kinds every service takes.
    public static let commonKinds = ["outage", "throttle", "internal-error", "slow", "lost-answer"]

    /// What faults can be injected into: the push services `apns`, `fcm`, `wns`, then `hub`, the
    /// notification hub itself.
    public static var services: [String] { SimulatedPushServices.fakes.map { $0.descriptor.name } + [hub] }

    /// The notification hub's name among ``services``: `hub`.
    public static let hub = NotificationHub.name

    /// The kinds `service` takes (nil for a service no fake plays): the common ones, then its
    /// token states; the hub takes the common ones only.
    public static func kinds(for service: String) -> [String]? {
        if service == hub { return commonKinds }
        guard let fake = SimulatedPushServices.fakes.first(where: { $0.descriptor.name == service }) else { return nil }
        return commonKinds + fake.refusalKinds
    }

    /// What is wrong with the words, in a sentence that names the part and what is allowed; nil
    /// when they make a fault.
    public var problem: FaultProblem? {
        guard let kinds = Self.kinds(for: service) else {
            return FaultProblem(part: .service, message: "unknown push service '\(service)'; faults go to " + Self.services.joined(separator: ", "))
        }
        guard kinds.contains(kind) else {
            return FaultProblem(part: .kind, message: "unknown fault '\(kind)' for \(service); the kinds are " + kinds.joined(separator: ", "))
        }
        if kind == "slow" && delay == nil {
            return FaultProblem(part: .delay, message: "a slow fault needs its delay, e.g. 2s")
        }
        if kind != "slow" && delay != nil {
            return FaultProblem(part: .delay, message: "only a slow fault takes a delay")
        }
        if let count, count < 1 {
            return FaultProblem(part: .count, message: "a fault's count is a whole number of requests from 1")
        }
        if service == Self.hub, let member = scope.member {
            return FaultProblem(part: .scope, message: "the hub takes no \(member): a hub fault hits every request to the hub, "
                + "whatever its token, device or app")
        }
        if case .fid = scope, service != FCMService.name {
            return FaultProblem(part: .scope, message: "only FCM has Firebase installation IDs: a fid scope is for fcm faults, "
                + "\(service) takes a token, device or app")
        }
        if case .fid(let fid) = scope, !FirebaseInstallationID.hasShape(fid) {
            return FaultProblem(part: .scope, message: "'\(fid)' is not a Firebase installation ID: a FID is 22 characters of "
                + "A-Z a-z 0-9 - _ starting with c, d, e or f (a device's is in the control API's device read-back)")
        }
        if !Self.commonKinds.contains(kind) && scope == .service {
            let scopes = service == FCMService.name ? "token, device, app or fid" : "token, device or app"
            return FaultProblem(part: .scope, message: "'\(kind)' is the state of a token: say which \(scopes) it is about")
        }
        return nil
    }

    /// The fault these words make, in force over `window`, named `id`; nil when ``problem`` is not nil.
    public func fault(window: Range<VirtualTime>, id: String? = nil) -> ServiceFault? {
        guard problem == nil else { return nil }
        let effect: ServiceFault.Effect
        switch kind {
        case "outage": effect = .outage(retryAfter: retryAfter)
        case "throttle": effect = .throttle(retryAfter: retryAfter)
        case "internal-error": effect = .internalError
        case "slow": effect = .slow(delay ?? .zero)
        case "lost-answer": effect = .lostAnswer
        default: effect = .refuse(kind)
        }
        return ServiceFault(effect: effect, window: window, probability: probability, scope: scope, count: count, id: id)
    }
}

extension ServiceFault.Scope {
    /// The word (and control API member) that names the scope: `token`, `device` or `app`; nil
    /// for the whole service.
    var member: String? {
        switch self {
        case .service: return nil
        case .token: return "token"
        case .device: return "device"
        case .app: return "app"
        case .fid: return "fid"
        }
    }
}

/// Why fault words make no fault: the part at fault and a sentence saying what is allowed.
public struct FaultProblem: Error, Sendable, Equatable {
    /// The part of the words at fault.
    public enum Part: String, Sendable {
        case service, kind, delay, count, scope
    }
    /// The part at fault.
    public var part: Part
    /// What is wrong and what is allowed.
    public var message: String
}
