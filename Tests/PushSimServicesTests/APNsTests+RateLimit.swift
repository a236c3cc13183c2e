import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("APNs TooManyRequests per device token (Citations §1.7)")
struct APNsRateLimitTests {
    @Test func offByDefault() {
        let bench = APNsBench()
        #expect(bench.apns.configuration.perTokenRateLimit == nil)
        #expect((0..<100).allSatisfy { _ in bench.send().status == 200 })
        #expect(bench.phone.pushes.count == 100)
    }

    @Test func tooManyPushesToOneTokenAre429TooManyRequests() {
        let bench = APNsBench()
        bench.apns.configuration.perTokenRateLimit = RateLimit(3, per: .seconds(10))
        let start = bench.world.now
        #expect((0..<3).map { _ in bench.send().status } == [200, 200, 200])
        let r = bench.send()
        #expect(r.status == 429)
        #expect(r.bodyText == #"{"reason":"TooManyRequests"}"#)
        #expect(r.headers["apns-id"] != nil)
        #expect(bench.phone.pushes.count == 3)
        #expect(bench.world.events("apns.rejected").last?[.reason] == "TooManyRequests")
        #expect(bench.world.events("fault.injected").isEmpty) // a configured limit, not an injected fault
        // Once the window has moved past the three accepted pushes, three more are allowed.
        bench.world.run(until: start + .seconds(10) + .milliseconds(200))
        #expect((0..<4).map { _ in bench.send().status } == [200, 200, 200, 429])
    }

    @Test func rejectedPushesDoNotCountAndOtherTokensAreUnaffected() {
        let bench = APNsBench()
        bench.apns.configuration.perTokenRateLimit = RateLimit(2, per: .minutes(1))
        let ipad = FakeDevice(world: bench.world, name: "ipad", serviceHost: APNsService.deviceHost)
        let other = ipad.register(app: APNsBench.bundle, environment: "production")
        #expect((0..<5).map { _ in bench.send().status } == [200, 200, 429, 429, 429])
        #expect((0..<2).map { _ in bench.send(to: other).status } == [200, 200])
        bench.world.advance(by: .minutes(1))
        // The three 429s were not counted: the window is free again after one minute.
        #expect((0..<3).map { _ in bench.send().status } == [200, 200, 429])
    }

    @Test func slidingWindowCounterForgetsOldEvents() {
        var counter = SlidingWindowCounter()
        let limit = RateLimit(2, per: .seconds(10))
        let at = { (s: Int64) in VirtualTime.zero + .seconds(s) }
        let admitted = [0, 5, 9, 10].map { counter.admit(at: at($0), under: limit) }
        #expect(admitted == [true, true, false, true]) // at 10 s the event at 0 s has left the window
        #expect(counter.count(at: at(10), window: .seconds(10)) == 2)
        #expect(limit.description == "2 per 10s")
    }
}

/// A provider token's `iat` as clients send it: a number, or a string of digits (kalyke-apns).
@Suite("APNs provider token iat")
struct APNsIssuedAtTests {
    @Test func aNumberOrAStringOfDigits() {
        #expect(APNsProviderTokens.issuedAt(.number(JSONNumber(1_767_225_600))) == 1_767_225_600)
        #expect(APNsProviderTokens.issuedAt(.string("1767225600")) == 1_767_225_600)
        #expect(APNsProviderTokens.issuedAt(.string("-5")) == nil)
        #expect(APNsProviderTokens.issuedAt(.string("")) == nil)
        #expect(APNsProviderTokens.issuedAt(.string("99999999999999999999999")) == nil)
        #expect(APNsProviderTokens.issuedAt(nil) == nil)
    }

    /// Bug: a fractional `iat` (pyapns-client signs `time.time()`) was 403 InvalidProviderToken;
    /// a NumericDate may carry a fraction, and the whole seconds count.
    @Test func aNumberWithAFraction() {
        #expect(APNsProviderTokens.issuedAt(.number(JSONNumber(text: "1767225600.734512"))) == 1_767_225_600)
        #expect(APNsProviderTokens.issuedAt(.number(JSONNumber(text: "1.7672256e9"))) == 1_767_225_600)
        #expect(APNsProviderTokens.issuedAt(.number(JSONNumber(text: "-0.5"))) == nil)
        #expect(APNsProviderTokens.issuedAt(.number(JSONNumber(text: "1e400"))) == nil)
    }
}
