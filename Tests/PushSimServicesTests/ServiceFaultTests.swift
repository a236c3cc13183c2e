import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// A window of `seconds` starting now.
func window(_ world: World, _ seconds: Int64) -> (from: VirtualTime, to: VirtualTime) {
    (world.now, world.now + .seconds(seconds))
}

/// The `fault.injected` events one service recorded.
func injected(_ world: World, _ service: String) -> [TraceEvent] {
    world.events("fault.injected").filter { $0.layer == service }
}

@Suite("Service faults: APNs answers (Citations §1.7)")
struct APNsFaultTests {
    @Test(arguments: [
        (ServiceFault.Effect.outage(retryAfter: .seconds(30)), 503, "ServiceUnavailable"),
        (.throttle(retryAfter: .seconds(30)), 429, "TooManyRequests"),
        (.internalError, 500, "InternalServerError"),
    ])
    func effectIsAnsweredWithTheRealAPNsError(effect: ServiceFault.Effect, status: Int, reason: String) throws {
        let bench = APNsBench()
        let (from, to) = window(bench.world, 30)
        bench.apns.faults = [ServiceFault(effect: effect, from: from, to: to)]
        let id = "3f1c2d4e-8a9b-4c7d-9e0f-112233445566"
        let r = bench.send(headers: [("apns-id", id)])
        #expect(r.status == status)
        #expect(r.bodyText == #"{"reason":"\#(reason)"}"#)
        #expect(r.headers["apns-id"] == id)
        #expect(r.headers["retry-after"] == nil) // APNs documents none
        #expect(bench.phone.pushes.isEmpty)
        let event = try #require(injected(bench.world, "apns").first)
        #expect(event[.injected] == .bool(true))
        #expect(event[.status] == .int(Int64(status)))
        #expect(event[.reason] == .string(reason))
        #expect(event[.fault] == .string(ServiceFault(effect: effect, from: from, to: to).label))
    }

    @Test func faultHoldsOnlyInsideItsWindowEndExclusive() {
        let bench = APNsBench()
        let from = bench.world.now + .seconds(10), to = from + .seconds(20)
        bench.apns.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(5)), from: from, to: to)]
        #expect(bench.send().status == 200)
        bench.world.run(until: from)
        #expect(bench.send().status == 503) // arrives 10 ms after `from`
        bench.world.run(until: VirtualTime(microseconds: to.microseconds - 10_000))
        #expect(bench.send().status == 200) // arrives exactly at `to`: outside [from, to)
        #expect(injected(bench.world, "apns").count == 1)
        #expect(bench.phone.pushes.count == 2)
    }

    @Test func deviceChannelIsNeverFaulted() {
        let bench = APNsBench()
        let (from, to) = window(bench.world, 60)
        bench.apns.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(5)), from: from, to: to)]
        let other = FakeDevice(world: bench.world, name: "ipad", serviceHost: APNsService.deviceHost)
        #expect(other.register(app: APNsBench.bundle, environment: "production").count == 64)
        #expect(injected(bench.world, "apns").isEmpty)
    }

    @Test func slowAnswersLateButDeliversAtOnce() throws {
        let bench = APNsBench()
        let (from, to) = window(bench.world, 30)
        bench.apns.faults = [ServiceFault(effect: .slow(.seconds(5)), from: from, to: to)]
        let sentAt = bench.world.now
        let r = bench.send()
        #expect(r.status == 200)
        let entry = try #require(bench.world.journal.requests(to: "apns").last)
        #expect(entry.completedAt == sentAt + .seconds(5) + .milliseconds(20))
        #expect(bench.phone.pushes.first?.time == sentAt + .milliseconds(20)) // the work itself was not delayed
        let event = try #require(injected(bench.world, "apns").first)
        #expect(event[.delay] == .string("5s"))
        #expect(event[.injected] == .bool(true))
    }

    @Test func firstMatchingRuleWins() {
        let bench = APNsBench()
        let (from, to) = window(bench.world, 30)
        bench.apns.faults = [ServiceFault(effect: .throttle(retryAfter: .seconds(1)), from: from, to: to),
                             ServiceFault(effect: .outage(retryAfter: .seconds(1)), from: from, to: to)]
        #expect(bench.send().status == 429)
        bench.apns.faults.reverse()
        #expect(bench.send().status == 503)
    }

    @Test func probabilityHitsSomeRequestsAndNeverHitsNone() {
        let bench = APNsBench()
        let (from, to) = window(bench.world, 3_600)
        bench.apns.faults = [ServiceFault(effect: .internalError, from: from, to: to, probability: Ratio(1, 4))]
        let statuses = (0..<200).map { _ in bench.send().status }
        let hits = statuses.filter { $0 == 500 }.count
        #expect(hits > 20 && hits < 80, "\(hits) of 200 at 1/4")
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 500 })
        bench.apns.faults = [ServiceFault(effect: .internalError, from: from, to: to, probability: .never)]
        #expect((0..<20).allSatisfy { _ in bench.send().status == 200 })
    }
}

@Suite("Service faults: FCM and WNS answers (Citations §2.3, §3.4, §3.5)")
struct FCMAndWNSFaultTests {
    @Test(arguments: [
        (ServiceFault.Effect.outage(retryAfter: .seconds(30)), 503, "UNAVAILABLE", "UNAVAILABLE", "30" as String?),
        (.throttle(retryAfter: .milliseconds(1_500)), 429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", "2"),
        (.internalError, 500, "INTERNAL", "INTERNAL", nil),
    ])
    func fcmAnswersWithGoogleErrors(effect: ServiceFault.Effect, status: Int, rpc: String, code: String, retryAfter: String?) throws {
        let bench = FCMBench()
        let (from, to) = window(bench.world, 30)
        bench.fcm.faults = [ServiceFault(effect: effect, from: from, to: to)]
        let r = bench.send(bench.message())
        let e = GoogleError(r)
        #expect(r.status == status && e.status == rpc && e.code == Int64(status))
        #expect(e.fcmErrorCode == code)
        #expect(r.headers["retry-after"] == retryAfter)
        #expect(bench.phone.pushes.isEmpty)
        #expect(try #require(injected(bench.world, "fcm").first)[.reason] == .string(code))
    }

    @Test func fcmOAuthEndpointIsNotFaulted() {
        let bench = FCMBench()
        let (from, to) = window(bench.world, 30)
        bench.fcm.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(30)), from: from, to: to)]
        #expect(bench.requestAccessToken(bench.assertion()).status == 200)
        #expect(injected(bench.world, "fcm").isEmpty)
    }

    @Test func fcmSlowDelaysTheAnswer() throws {
        let bench = FCMBench()
        let (from, to) = window(bench.world, 30)
        bench.fcm.faults = [ServiceFault(effect: .slow(.seconds(3)), from: from, to: to)]
        let sentAt = bench.world.now
        #expect(bench.send(bench.message()).status == 200)
        #expect(try #require(bench.world.journal.requests(to: "fcm").last).completedAt == sentAt + .seconds(3) + .milliseconds(20))
        #expect(bench.phone.pushes.count == 1)
    }

    @Test func wnsThrottleIs406WithContinueAfter() throws {
        let bench = WNSBench()
        let (from, to) = window(bench.world, 30)
        bench.wns.faults = [ServiceFault(effect: .throttle(retryAfter: .seconds(90)), from: from, to: to)]
        let r = bench.notify()
        #expect(r.status == 406)
        #expect(r.headers["X-WNS-CONTINUE-AFTER"] == "90")
        #expect(r.headers["x-wns-continue-after"] == "90") // header names are case-insensitive
        #expect(r.headers["X-WNS-Status"] == "channelthrottled")
        #expect(r.headers["X-WNS-Error-Description"] == "The cloud service exceeded its throttle limit")
        #expect(r.headers["X-WNS-Msg-ID"]?.count == 16)
        #expect(bench.pc.pushes.isEmpty)
        #expect(try #require(injected(bench.world, "wns").first)[.status] == .int(406))
    }

    @Test(arguments: [(ServiceFault.Effect.outage(retryAfter: .seconds(30)), 503), (.internalError, 500)])
    func wnsOutageAndInternalError(effect: ServiceFault.Effect, status: Int) {
        let bench = WNSBench()
        let (from, to) = window(bench.world, 30)
        bench.wns.faults = [ServiceFault(effect: effect, from: from, to: to)]
        let r = bench.notify()
        #expect(r.status == status)
        #expect(r.headers["X-WNS-CONTINUE-AFTER"] == nil)
        #expect(r.headers["X-WNS-Error-Description"]?.isEmpty == false)
        #expect(bench.pc.pushes.isEmpty)
    }

    @Test func wnsLoginIsNotFaulted() {
        let bench = WNSBench()
        let (from, to) = window(bench.world, 30)
        bench.wns.faults = [ServiceFault(effect: .internalError, from: from, to: to)]
        #expect(bench.login(sid: bench.app.packageSID, secret: bench.app.secret).status == 200)
    }
}

@Suite("Service faults: data, labels and determinism (design rule 9)")
struct ServiceFaultDataTests {
    @Test func labelsReadLikeTheScenarioLanguage() {
        let at = { (s: Int64) in VirtualTime.zero + .seconds(s) }
        #expect(ServiceFault(effect: .outage(retryAfter: .seconds(30)), from: at(10), to: at(40)).label
                == "outage retry-after 30s from 10s to 40s")
        #expect(ServiceFault(effect: .slow(.milliseconds(250)), from: at(0), to: at(60), probability: Ratio(1, 2)).label
                == "slow 250ms from 0s to 1m probability 1/2")
        #expect(ServiceFault(effect: .internalError, from: at(0), to: at(3_600)).label == "internal-error from 0s to 1h")
    }

    @Test func effectsAreNamedByKeyword() {
        #expect(ServiceFault.Effect(name: "outage", duration: .seconds(30)) == .outage(retryAfter: .seconds(30)))
        #expect(ServiceFault.Effect(name: "throttle", duration: .seconds(5)) == .throttle(retryAfter: .seconds(5)))
        #expect(ServiceFault.Effect(name: "internal-error", duration: nil) == .internalError)
        #expect(ServiceFault.Effect(name: "slow", duration: .seconds(2)) == .slow(.seconds(2)))
        #expect(ServiceFault.Effect(name: "outage", duration: nil) == nil)
        #expect(ServiceFault.Effect(name: "internal-error", duration: .seconds(1)) == nil)
        #expect(ServiceFault.Effect(name: "partition", duration: .seconds(1)) == nil)
        for e in [ServiceFault.Effect.outage(retryAfter: .seconds(1)), .throttle(retryAfter: .seconds(1)), .internalError, .slow(.seconds(1))] {
            #expect(ServiceFault.Effect(name: e.name, duration: e == .internalError ? nil : .seconds(1)) == e)
        }
    }

    /// Runs 60 APNs sends under a 1/3 outage and a 1/5 throttle; returns the trace.
    static func faultyRun(seed: UInt64) -> [TraceEvent] {
        let bench = APNsBench(seed: seed)
        let (from, to) = window(bench.world, 3_600)
        bench.apns.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(30)), from: from, to: to, probability: Ratio(1, 3)),
                             ServiceFault(effect: .throttle(retryAfter: .seconds(5)), from: from, to: to, probability: Ratio(1, 5))]
        for _ in 0..<60 { _ = bench.send() }
        return bench.world.trace.events
    }

    @Test func sameSeedSameTraceAndEveryFaultIsLabelled() {
        let a = Self.faultyRun(seed: 5), b = Self.faultyRun(seed: 5)
        #expect(a == b)
        let faults = a.filter { $0.kind.name == "fault.injected" }
        #expect(faults.count > 10)
        #expect(faults.allSatisfy { $0[.injected] == .bool(true) && $0[.fault] != nil && $0[.status] != nil })
        // Every error answer APNs gave is preceded by its fault.injected label.
        let rejected = a.filter { $0.kind.name == "apns.rejected" }
        #expect(rejected.count == faults.count)
        #expect(Self.faultyRun(seed: 6).filter { $0.kind.name == "fault.injected" }.map(\.time) != faults.map(\.time))
    }

    @Test func addingAFaultShiftsNoOtherRandomNumber() {
        func tokensAndIDs(faults: Bool) -> [String] {
            let bench = APNsBench(seed: 9)
            if faults {
                let (from, to) = window(bench.world, 3_600)
                bench.apns.faults = [ServiceFault(effect: .internalError, from: from, to: to, probability: Ratio(1, 2))]
            }
            let ids = (0..<10).map { _ in bench.send().headers["apns-id"] ?? "" }
            let other = FakeDevice(world: bench.world, name: "ipad", serviceHost: APNsService.deviceHost)
            return ids + [other.register(app: APNsBench.bundle, environment: "production")]
        }
        #expect(tokensAndIDs(faults: true) == tokensAndIDs(faults: false))
    }
}
