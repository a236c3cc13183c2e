import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimScenario

/// Every push service the language knows has a fake in ``Simulation`` that takes its faults: a
/// service added to ``PushServiceDescriptor/all`` without being wired fails here, not silently
/// in a scenario.
@Suite("Simulation: faults reach the fake of every push service")
struct ServiceFaultWiringTests {
    @Test func everyDescribedServiceTakesFaults() throws {
        let simulation = Simulation(seed: 1)
        let fault = ServiceFault(effect: .internalError, from: VirtualTime(microseconds: 0), to: VirtualTime(microseconds: 1_000_000))
        for service in PushServiceDescriptor.all {
            #expect(simulation.injectFault(fault, into: service), "\(service.name) takes no faults")
        }
        #expect(simulation.apns.faults.count == 1 && simulation.fcm.faults.count == 1 && simulation.wns.faults.count == 1)
    }

    /// The simulation builds one fake per described service, in ``PushServiceDescriptor/all``'s order.
    @Test func oneFakePerDescribedServiceInOrder() {
        let simulation = Simulation(seed: 1)
        #expect(simulation.services.map { type(of: $0).descriptor } == PushServiceDescriptor.all)
        #expect(simulation.fake(FCMService.self) === simulation.fcm)
    }
}
