import PushSimKernel
import PushSimNetwork

/// A fake push service as the layers above the services know it: the real service it plays
/// (its ``PushServiceDescriptor``) and the faults injected into it (``ServiceFault``).
///
/// `APNsService`, `FCMService` and `WNSService` conform; code that wires a world (the scenario
/// layer's `Simulation`) holds its fakes as a list of these and routes a `fault <service> …` to
/// the fake whose ``descriptor`` names the service, instead of spelling the services out.
public protocol FakePushService: Host {
    /// The push service this fake plays: its name, hosts and hub format.
    static var descriptor: PushServiceDescriptor { get }
    /// Injected faults, asked in order on the requests the fake subjects to faults; the first that hits wins.
    var faults: [ServiceFault] { get set }
}

extension FakePushService {
    /// Adds `fault` after the faults already injected (an earlier one that hits the same request wins).
    public func inject(_ fault: ServiceFault) { faults.append(fault) }
}
