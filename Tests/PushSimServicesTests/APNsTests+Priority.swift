import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// `apns-priority` left out: APNs takes 10 (Apple, "Sending notification requests to APNs"), and 10
/// is an error on a background push, so such a push is refused with 400 `BadPriority` unless
/// ``APNsConfiguration/acceptsBackgroundPushWithoutPriority`` says otherwise.
@Suite("APNs apns-priority default (Citations §1.3)")
struct APNsPriorityDefaultTests {
    static let silent = #"{"aps":{"content-available":1}}"#

    private func expectBadPriority(_ r: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 400, sourceLocation: sourceLocation)
        #expect(r.bodyText == #"{"reason":"BadPriority"}"#, sourceLocation: sourceLocation)
    }

    @Test func backgroundPushWithoutPriorityGetsTheDefault10AndIsRefused() {
        let bench = APNsBench()
        expectBadPriority(bench.send(headers: [("apns-push-type", "background")], body: Self.silent))
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.events("apns.rejected").first?[.reason] == "BadPriority")
    }

    @Test func backgroundPushWithPriority5Or1IsAccepted() {
        let bench = APNsBench()
        for priority in ["5", "1"] {
            #expect(bench.send(headers: [("apns-push-type", "background"), ("apns-priority", priority)], body: Self.silent).status == 200)
            #expect(bench.phone.pushes.last?.headers["apns-priority"] == priority)
        }
    }

    @Test func alertPushWithoutPriorityIsDeliveredAsPriority10() {
        let bench = APNsBench()
        #expect(bench.send(headers: [("apns-push-type", "alert")]).status == 200)
        #expect(bench.phone.pushes.last?.headers["apns-priority"] == "10")
        #expect(bench.send().status == 200)   // no push type either: alert, 10
        #expect(bench.phone.pushes.last?.headers["apns-priority"] == "10")
    }

    @Test func settingTakesAnOmittedBackgroundPriorityAs5() {
        let bench = APNsBench()
        #expect(!bench.apns.configuration.acceptsBackgroundPushWithoutPriority)
        bench.apns.configuration.acceptsBackgroundPushWithoutPriority = true
        #expect(bench.send(headers: [("apns-push-type", "background")], body: Self.silent).status == 200)
        #expect(bench.phone.pushes.last?.headers["apns-priority"] == "5")
        // An explicit 10 is still an error, and alerts still default to 10.
        expectBadPriority(bench.send(headers: [("apns-push-type", "background"), ("apns-priority", "10")], body: Self.silent))
        #expect(bench.send().status == 200)
        #expect(bench.phone.pushes.last?.headers["apns-priority"] == "10")
    }
}
