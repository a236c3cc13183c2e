import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// The hub's window of PNS requests in flight (``HubConfiguration/maxPNSRequestsInFlight``): a
/// fan-out larger than the window goes out as answers come back, and still reaches everyone.
@Suite("Hub PNS request window")
struct PNSStreamsTests {
    private func world(window: Int) -> (HubWorld, [TestDevice]) {
        var configuration = TestIdentity.configuration()
        configuration.maxPNSRequestsInFlight = window
        let w = HubWorld(configuration: configuration)
        let phones = (0..<7).map { TestDevice.iPhone(w, "iphone\($0)") }
        for p in phones { w.register(.apple, p.handle ?? "", tags: ["news"]) }
        return (w, phones)
    }

    /// Largest number of PNS requests started and not yet answered at any point of the trace.
    private func peakInFlight(_ w: HubWorld) -> Int {
        var open = 0, peak = 0
        for e in w.world.trace.events {
            if e.kind.name == "hub.pns-request" { open += 1; peak = max(peak, open) }
            if e.kind.name == "hub.pns-accepted" || (e.kind.name == "notification.dropped" && e.layer == "hub") { open -= 1 }
        }
        return peak
    }

    @Test func aFanOutWiderThanTheWindowReachesEveryoneWithAtMostWindowRequestsOpen() {
        let (w, phones) = world(window: 2)
        _ = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["news"], $0) }
        for p in phones { #expect(p.pushes.count == 1) }
        #expect(w.events("hub.pns-accepted").count == 7)
        #expect(peakInFlight(w) == 2)
        #expect(w.world.leftovers().isEmpty)
    }

    @Test func aWideWindowSendsEveryCopyAtOnce() {
        let (w, phones) = world(window: 1_000)
        _ = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["news"], $0) }
        for p in phones { #expect(p.pushes.count == 1) }
        #expect(peakInFlight(w) == 7)
    }

    /// Copies waiting for a stream go to the registrations as they were when the send was
    /// accepted: one updated to another handle or deleted meanwhile still gets its copy, at the
    /// handle it had.
    @Test func waitingCopiesGoWhereTheRegistrationsPointedWhenTheSendWasAccepted() {
        let (w, phones) = world(window: 1)
        w.apns!.faults = [ServiceFault(effect: .slow(.seconds(20)), from: .zero, to: .zero + .days(1))]
        let newcomer = TestDevice.iPhone(w, "newcomer")
        var outcome: Result<NotificationOutcome, HubError>?
        w.client.sendAppleNativeNotification(Payload.apple, tags: ["news"]) { outcome = $0 }
        w.advance(.seconds(5))
        #expect(outcome != nil)
        var updated: Result<RegistrationDescription, HubError>?, deleted: Result<Void, HubError>?
        w.client.createOrUpdateRegistration(RegistrationDescription(platform: .apple, handle: newcomer.handle ?? "", tags: ["news"],
                                                                    registrationID: "4776426353465749830-8176931066261974658-1")) { updated = $0 }
        w.client.deleteRegistration("8882371917575032092-363095731742251022-1") { deleted = $0 }
        w.advance(.seconds(5))
        guard case .success? = updated, case .success? = deleted else { Issue.record("\(String(describing: updated)) \(String(describing: deleted))"); return }
        w.world.run()
        for p in phones { #expect(p.pushes.count == 1, "\(p.name)") }
        #expect(newcomer.pushes.isEmpty)
    }

    @Test func copiesWaitingForAStreamAreReportedAsLeftovers() {
        let (w, _) = world(window: 1)
        // APNs answers after 20 s: the one open request holds the only stream meanwhile.
        w.apns!.faults = [ServiceFault(effect: .slow(.seconds(20)), from: .zero, to: .zero + .days(1))]
        var outcome: Result<NotificationOutcome, HubError>?
        w.client.sendAppleNativeNotification(Payload.apple, tags: ["news"]) { outcome = $0 }
        w.advance(.seconds(5))
        #expect(outcome != nil)
        let lines = w.world.leftovers().map(\.line)
        #expect(lines.contains("hub: notification \(w.ntf(1)) for registration 76592028274533430-4765052952699024478-2 not yet accepted by its PNS (attempt 1)"))
        #expect(lines.contains("hub: 6 notification copies waiting for a free PNS stream"))
        w.world.run()
        #expect(w.events("hub.pns-accepted").count == 7)
    }
}
