import PushSimKernel
import Testing
@testable import PushSimScenario

/// The "no sends to dead handles" invariant, fed hand-made trace events.
@Suite struct DeadHandleCheckerTests {
    private func event(_ kind: String, at s: Int64, _ fields: [TraceEvent.Field]) -> TraceEvent {
        TraceEvent(sequence: 0, time: .zero + .seconds(s), layer: "hub", host: "hub", kind: TraceKind(kind), correlation: "c0001", fields: fields)
    }

    @Test func sendAfterFeedbackIsAViolation() {
        let c = DeadHandleChecker()
        c.observe(event("hub.pns-request", at: 1, [.init(.notification, "ntf-1"), .init(.handle, "AB…CD")]))
        c.observe(event("hub.registration-deleted", at: 2, [.init(.handle, "AB…CD"), .init(.deadHandle, true)]))
        c.observe(event("hub.pns-request", at: 3, [.init(.notification, "ntf-2"), .init(.handle, "AB…CD")]))
        let r = c.result(leftovers: [])
        #expect(r.enforced)
        #expect(r.violations.count == 1)
        #expect(r.violations.first?.contains("ntf-2") == true)
        #expect(r.violations.first?.contains("AB…CD") == true)
    }

    @Test func reRegistrationRevivesTheHandle() {
        let c = DeadHandleChecker()
        c.observe(event("hub.registration-deleted", at: 2, [.init(.handle, "AB…CD"), .init(.deadHandle, true)]))
        c.observe(event("hub.registration-upserted", at: 3, [.init(.handle, "AB…CD")]))
        c.observe(event("hub.pns-request", at: 4, [.init(.notification, "ntf-2"), .init(.handle, "AB…CD")]))
        #expect(c.result(leftovers: []).holds)
    }

    @Test func anOrdinaryDeleteDoesNotMakeAHandleDead() {
        let c = DeadHandleChecker()
        c.observe(event("hub.registration-deleted", at: 2, [.init(.handle, "AB…CD")]))
        c.observe(event("hub.pns-request", at: 4, [.init(.notification, "ntf-2"), .init(.handle, "AB…CD")]))
        #expect(c.result(leftovers: []).holds)
    }

    @Test func theLibraryNeverSendsToADeadHandle() throws {
        // The reinstall story kills three handles by feedback; the hub must not use them again.
        let text = """
            scenario "t"
            device bob-iphone ios user bob
            device alice-pixel android user alice
            at 0s bob-iphone install
            at 0s alice-pixel install
            at 1s bob-iphone login bob password bob
            at 1s alice-pixel login alice password alice
            at 2s bob-iphone uninstall
            at 3s bob-iphone install
            at 4s bob-iphone login bob password bob
            at 5s alice-pixel send "a" to bob via apns
            at 6s alice-pixel send "b" to bob via apns
            at 7s alice-pixel send "c" to bob via apns
            expect bob-iphone shows 3 notifications
            """
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        let report = try ScenarioRunner.run(scenario).get()
        #expect(report.passed)
        let dead = try #require(report.invariants.first { $0.name == "no sends to dead handles" })
        #expect(dead.holds)
        #expect(report.trace.contains { $0.kind.name == "hub.registration-deleted" && $0[.deadHandle] == .bool(true) })
    }
}
