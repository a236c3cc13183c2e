import PushSimNetwork
import PushSimServices
import PushSimHub

/// A fake push service as a ``Simulation`` builds and wires it: made from the simulation's
/// identity and options, and giving the hub its credential for the service. One conformance per
/// fake, in this folder (`APNsService+Simulation.swift`, …); ``SimulatedPushServices/all`` lists them.
protocol SimulatedPushService: FakePushService {
    /// What a simulation's identity holds for the service: the account its fake accepts and the
    /// hub's credential is made from (``SimulationIdentity/account(_:)``).
    associatedtype Account: Sendable
    /// The account of PushSim's sample app with the service.
    static var defaultAccount: Account { get }
    /// The fake, registered in `world`, accepting the credentials of `identity` for its service.
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> Self
    /// Sets the hub's credential for this service, made from `identity`, in `hub`; with
    /// `wrongKey` it holds a key or secret the fake does not have for the account (`hub
    /// credentials <service> wrong`).
    static func giveHubCredential(from identity: SimulationIdentity, wrongKey: Bool, to hub: inout HubConfiguration)
}

/// The fakes a ``Simulation`` builds: the one place a new fake is named (`pushsim serve`'s
/// router reads it too).
package enum SimulatedPushServices {
    /// One fake per entry of ``PushServiceDescriptor/all``, in its order (the order they are
    /// built and registered in the world).
    static var all: [any SimulatedPushService.Type] { [APNsService.self, FCMService.self, WNSService.self] }
    /// The same fakes, as the layers above see them.
    package static var fakes: [any FakePushService.Type] { all }
}
