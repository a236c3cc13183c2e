import PushSimKernel
import PushSimNetwork

/// A fake push service as the layers above the services know it: the real service it plays
/// (its `PushServiceDescriptor`) and the faults injected into it (`ServiceFault`; a
/// `FaultHolder` named after the service).
///
/// `APNsService`, `FCMService` and `WNSService` conform; code that wires a world (the scenario
/// layer's `Simulation`) holds its fakes as a list of these and routes a `fault <service> …` to
/// the fake whose ``descriptor`` names the service, instead of spelling the services out.
public protocol FakePushService: Host, FaultHolder {
    /// The push service this fake plays: its name, hosts and hub format.
    static var descriptor: PushServiceDescriptor { get }
    /// The names of the token states a fault can put a token in (`ServiceFault.Effect.refuse(_:)`),
    /// in the service's own words (APNs `BadDeviceToken`, FCM `UNREGISTERED`, …).
    static var refusalKinds: [String] { get }
    /// The host names a client reaches this service by from outside the world (lower-case): what
    /// `pushsim serve` takes from a `Host` header to pick this fake.
    static var publicHosts: [String] { get }
    /// For `pushsim serve`, which serves every host on one port: the host name a request goes to
    /// by its `path` (and its whole `target`, for a query that marks it) when its `Host` header
    /// names none of the world's, laid out as the real service lays out its paths; nil when the
    /// path is not this service's.
    static func loopbackHost(path: String, target: String) -> String?
    /// Whether `request`, received by this fake, is a send from a provider (what `expect
    /// <service> received` counts), as opposed to a token request or the device channel's traffic.
    static func isProviderSend(_ request: HTTPRequest) -> Bool
    /// How the fake checks the signatures of tokens clients sign with their own keys (APNs' ES256
    /// provider tokens, Google's RS256 service-account assertions): verified (the default), or,
    /// for `pushsim serve --signatures structure-only`, structure and claims only
    /// (`SignaturePolicy`). A fake that checks no such signature does nothing.
    func checkSignatures(_ policy: SignaturePolicy)
}

extension FakePushService {
    /// Adds `fault` after the faults already injected (an earlier one that hits the same request wins).
    public func inject(_ fault: ServiceFault) { faults.append(fault) }

    /// The service's name (`apns`), which a fault statement names it by.
    public var faultHolderName: String { Self.descriptor.name }

    /// What the service answers a request `fault` hits (`ServiceFault.answerSummary(service:anchor:)`).
    public func answerSummary(_ fault: ServiceFault, anchor: CalendarAnchor) -> String {
        fault.answerSummary(service: Self.descriptor.name, anchor: anchor)
    }
}
