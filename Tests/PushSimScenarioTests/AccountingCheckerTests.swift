import PushSimKernel
import PushSimNetwork
import Testing
@testable import PushSimScenario

/// "Every notification accounted for": delivered, dropped with a reason, or reported pending.
@Suite struct AccountingCheckerTests {
    private func e(_ layer: String, _ kind: String, _ fields: [TraceEvent.Field]) -> TraceEvent {
        TraceEvent(sequence: 0, time: .zero, layer: layer, host: layer, kind: TraceKind(kind), correlation: "c0001", fields: fields)
    }
    private let request: [TraceEvent.Field] = [.init(.notification, "ntf-1"), .init(.registration, "reg-1")]
    private var accepted: [TraceEvent.Field] { request + [.init(.message, "m-1")] }

    /// FCM's fan-out of a topic send to three devices is three deliveries to account for: two
    /// received and one dropped still leave one copy open; the third received closes it; a
    /// copy pending in FCM's leftovers is no violation.
    @Test func aTopicFanOutIsAccountedCopyByCopy() {
        let fanOut = e("fcm", "fcm.fan-out", [.init(.fcmMessageName, "projects/p/messages/1"), .init(.target, "topic news"), .init(.copies, "3")])
        let received = e("device", "device.push-received", [.init(.message, "projects/p/messages/1")])
        let dropped = e("fcm", "notification.dropped", [.init(.fcmMessageName, "projects/p/messages/1"), .init(.reason, "ttl")])
        func checked(_ events: [TraceEvent], pending: [String] = []) -> InvariantResult {
            let c = AccountingChecker()
            events.forEach(c.observe)
            return c.result(leftovers: pending.isEmpty ? [] : [Leftover("kept", pendingIDs: pending)])
        }
        let open = checked([fanOut, received, dropped])
        #expect(!open.holds)
        #expect(open.violations.first?.contains("FCM's topic news send") == true)
        #expect(checked([fanOut, received, dropped], pending: ["projects/p/messages/1"]).holds)
        #expect(checked([fanOut, received, dropped, received]).holds)
        // No copies (a topic nobody is subscribed to): nothing to wait for.
        #expect(checked([e("fcm", "fcm.fan-out", [.init(.fcmMessageName, "projects/p/messages/2"), .init(.copies, "0")])]).holds)
    }

    @Test func deliveredMessageIsAccounted() {
        let c = AccountingChecker()
        c.observe(e("hub", "hub.pns-request", request))
        c.observe(e("hub", "hub.pns-accepted", accepted))
        c.observe(e("device", "device.push-received", [.init(.message, "m-1")]))
        #expect(c.result(leftovers: []).holds)
    }

    @Test func deviceBeforeTheHubHearsThe200IsAccounted() {
        let c = AccountingChecker()
        c.observe(e("hub", "hub.pns-request", request))
        c.observe(e("device", "device.push-received", [.init(.message, "m-1")]))
        c.observe(e("hub", "hub.pns-accepted", accepted))
        #expect(c.result(leftovers: []).holds)
    }

    @Test func droppedByTheServiceOrTheHubIsAccounted() {
        let a = AccountingChecker()
        a.observe(e("hub", "hub.pns-request", request))
        a.observe(e("hub", "hub.pns-accepted", [.init(.notification, "ntf-1"), .init(.registration, "reg-1"), .init(.message, "id-9")]))
        a.observe(e("apns", "notification.dropped", [.init(.apnsID, "id-9"), .init(.reason, "expired")]))
        #expect(a.result(leftovers: []).holds)
        let h = AccountingChecker()
        h.observe(e("hub", "hub.pns-request", request))
        h.observe(e("hub", "notification.dropped", request + [.init(.reason, "APNs 403 InvalidProviderToken")]))
        #expect(h.result(leftovers: []).holds)
    }

    /// Lost copies are listed in the order of `<notification>/<registration>`, whatever order they opened in.
    @Test func lostCopiesAreListedInOrderOfNotificationThenRegistration() {
        let c = AccountingChecker()
        for (n, r) in [("ntf-1", "reg-2"), ("ntf-1-2", "reg-1"), ("ntf-1", "reg-10")] {
            c.observe(e("hub", "hub.pns-request", [.init(.notification, .string(n)), .init(.registration, .string(r))]))
        }
        #expect(c.result(leftovers: []).violations.map { $0.split(separator: " ")[3...6].joined(separator: " ") } == [
            "ntf-1-2 for registration reg-1", "ntf-1 for registration reg-10", "ntf-1 for registration reg-2"])
    }

    /// A violation names the copy or message as it was when it opened (written out only when reported).
    @Test func violationsNameWhatWasLost() {
        let copy = AccountingChecker()
        copy.observe(e("hub", "hub.pns-request", request))
        #expect(copy.result(leftovers: []).violations == [
            "the hub's copy ntf-1 for registration reg-1 (since 0+00:00:00.000, c0001) neither reached its PNS nor was dropped, and is not reported pending"])
        let message = AccountingChecker()
        message.observe(e("hub", "hub.pns-request", request))
        message.observe(e("hub", "hub.pns-accepted", accepted))
        #expect(message.result(leftovers: []).violations == [
            "message m-1 of ntf-1 (accepted 0+00:00:00.000, c0001) was neither delivered nor dropped, and is not reported pending"])
    }

    @Test func pendingIsAccountedOnlyWhenTheLeftoversSaySo() {
        let c = AccountingChecker()
        c.observe(e("hub", "hub.pns-request", request))
        c.observe(e("hub", "hub.pns-accepted", accepted))
        #expect(c.result(leftovers: [Leftover("apns: notification m-1 kept for bob-iphone (app) since 0+00:00:01.000, undelivered",
                                              pendingIDs: ["m-1"])]).holds)
        // A leftover's wording does not count, only the ids it holds.
        let worded = AccountingChecker()
        worded.observe(e("hub", "hub.pns-request", request))
        worded.observe(e("hub", "hub.pns-accepted", accepted))
        #expect(!worded.result(leftovers: [Leftover("apns: notification m-1 kept for bob-iphone, undelivered")]).holds)
        let lost = AccountingChecker()
        lost.observe(e("hub", "hub.pns-request", request))
        lost.observe(e("hub", "hub.pns-accepted", accepted))
        let r = lost.result(leftovers: [])
        #expect(!r.holds && r.enforced)
        #expect(r.violations.first?.contains("message m-1 of ntf-1") == true)
    }

    @Test func aCopyThatNeverReachedItsPNSIsReported() {
        let c = AccountingChecker()
        c.observe(e("hub", "hub.pns-request", request))
        #expect(c.result(leftovers: []).violations.first?.contains("ntf-1 for registration reg-1") == true)
        let pending = AccountingChecker()
        pending.observe(e("hub", "hub.pns-request", request))
        #expect(pending.result(leftovers: [Leftover("hub: notification ntf-1 for registration reg-1 waiting to retry", pendingIDs: ["ntf-1"])]).holds)
    }

    @Test func anOfflineDeviceAtTheEndLeavesItsNotificationPendingNotLost() throws {
        let scenario = try ScenarioParser.parse("""
            scenario "t"
            device bob-iphone ios user bob
            device alice-pixel android user alice
            at 0s bob-iphone install
            at 0s alice-pixel install
            at 1s bob-iphone login bob password bob
            at 1s alice-pixel login alice password alice
            at 2s bob-iphone offline
            at 3s alice-pixel send "later" to bob via apns
            expect bob-iphone shows nothing
            expect invariant accounting holds
            """, path: "t.scenario").get()
        let report = try ScenarioRunner.run(scenario).get()
        #expect(report.passed)
        #expect(report.leftovers.contains { $0.hasPrefix("apns: notification") })
    }
}

/// `pushsim serve` keeps the checkers running for as long as it serves: what the accounting
/// checker remembers of delivered messages must not grow with traffic (it grew ~180 bytes per
/// send, 22 → 91 MiB of heap over 400,000 sends, before ids were forgotten).
@Suite struct AccountingCheckerMemoryTests {
    private func received(_ id: String, at seconds: Int64) -> TraceEvent {
        TraceEvent(sequence: 0, time: .zero + .seconds(seconds), layer: "device", host: "device", kind: TraceKind("device.push-received"),
                   correlation: "c0001", fields: [.init(.message, .string(id))])
    }

    /// Messages sent straight to a PNS, with no hub copy in flight, are not remembered at all.
    @Test func directSendsAreNotRemembered() {
        let c = AccountingChecker()
        for i in 0..<10_000 { c.observe(received("m-\(i)", at: Int64(i / 100))) }
        #expect(c.endedCount == 0)
        #expect(c.result(leftovers: []).holds)
    }

    /// While a hub copy stays open (its PNS never answers), pushes are remembered 60 s, no longer.
    @Test func pushesBesideAnOpenCopyAreForgottenAfterTheHubCouldStillAccept() {
        let c = AccountingChecker()
        c.observe(TraceEvent(sequence: 0, time: .zero, layer: "hub", host: "hub", kind: TraceKind("hub.pns-request"), correlation: "c0001",
                             fields: [.init(.notification, "ntf-1"), .init(.registration, "reg-1")]))
        for i in 0..<100_000 { c.observe(received("m-\(i)", at: Int64(i / 100))) }   // 100 a second for 1,000 s
        #expect(c.endedCount <= 100 * 61)
        #expect(c.endedCount >= 100 * 60)
    }

    /// A push before the hub hears the 200 is still accounted, and forgotten when the 200 comes.
    @Test func anEarlyPushIsForgottenWhenTheAcceptComes() {
        let c = AccountingChecker()
        let fields: [TraceEvent.Field] = [.init(.notification, "ntf-1"), .init(.registration, "reg-1"), .init(.message, "m-1")]
        c.observe(TraceEvent(sequence: 0, time: .zero, layer: "hub", host: "hub", kind: TraceKind("hub.pns-request"), correlation: "c0001",
                             fields: Array(fields.prefix(2))))
        c.observe(received("m-1", at: 1))
        #expect(c.endedCount == 1)
        c.observe(TraceEvent(sequence: 0, time: .zero + .seconds(2), layer: "hub", host: "hub", kind: TraceKind("hub.pns-accepted"),
                             correlation: "c0001", fields: fields))
        #expect(c.endedCount == 0)
        #expect(c.result(leftovers: []).holds)
    }
}
