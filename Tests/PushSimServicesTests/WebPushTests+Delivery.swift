import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("Web Push delivery: offline storage, Topic, TTL, faults (Citations §9.3, §9.5)")
struct WebPushDeliveryTests {
    @Test func aMessageForAnAbsentBrowserIsKeptAndSentWhenItConnects() {
        let bench = WebPushBench()
        let endpoint = bench.subscribe(.firefox, key: bench.vapidKey)
        bench.browser.goOffline()
        #expect(bench.send(endpoint, headers: [("TTL", "3600")]).status == 201)
        #expect(bench.browser.pushes.isEmpty)
        #expect(bench.webPush.keptMessageIDs(endpoint: endpoint).count == 1)
        #expect(bench.world.events("webpush.stored").count == 1)
        #expect(bench.webPush.leftovers(world: bench.world).count == 1)
        bench.world.advance(by: .minutes(30))
        bench.browser.goOnline()
        bench.world.run()
        #expect(bench.browser.pushes.count == 1)
        #expect(bench.webPush.keptMessageIDs(endpoint: endpoint).isEmpty)
        #expect(bench.world.events("webpush.delivered").count == 1)
    }

    @Test func aNewerMessageWithTheSameTopicReplacesTheKeptOne() {
        let bench = WebPushBench()
        let endpoint = bench.subscribe(.safari, key: bench.vapidKey)
        bench.browser.goOffline()
        for (topic, text) in [("mail", "1 unread"), ("news", "headline"), ("mail", "2 unread")] {
            #expect(bench.send(endpoint, headers: [("Topic", topic)], body: WebPushBench.encryptedBody(Array(text.utf8))).status == 201)
        }
        let replaced = bench.world.events("webpush.replaced")
        #expect(replaced.count == 1)
        #expect(replaced.first?[.topic]?.description == "mail")
        #expect(bench.webPush.keptMessageIDs(endpoint: endpoint).count == 2)
        bench.browser.goOnline()
        bench.world.run()
        #expect(bench.browser.pushes.map(\.body) == [WebPushBench.encryptedBody(Array("headline".utf8)), WebPushBench.encryptedBody(Array("2 unread".utf8))])
    }

    @Test func ttlZeroIsDroppedWhenTheBrowserIsAway() {
        let bench = WebPushBench()
        let endpoint = bench.subscribe(.firefox, key: bench.vapidKey)
        bench.browser.goOffline()
        // autopush still answers 201 (its "delivered" answer) and drops it.
        let r = bench.send(endpoint, headers: [("TTL", "0")])
        #expect(r.status == 201 && r.headers["ttl"] == "0")
        #expect(bench.webPush.keptMessageIDs(endpoint: endpoint).isEmpty)
        #expect(bench.world.events("webpush.expired").count == 1)
        bench.browser.goOnline()
        bench.world.run()
        #expect(bench.browser.pushes.isEmpty)
        // With the browser there, TTL 0 is delivered at once.
        #expect(bench.send(endpoint, headers: [("TTL", "0")]).status == 201)
        #expect(bench.browser.pushes.count == 1)
    }

    @Test func aKeptMessageWhoseTTLRunsOutIsNotDelivered() {
        let bench = WebPushBench()
        let endpoint = bench.subscribe(.chrome, key: bench.vapidKey)
        bench.browser.goOffline()
        #expect(bench.send(endpoint, headers: [("TTL", "60")]).status == 201)
        #expect(bench.send(endpoint, headers: [("TTL", "7200")]).status == 201)
        bench.world.advance(by: .minutes(5))
        #expect(bench.webPush.leftovers(world: bench.world).count == 1)
        bench.browser.goOnline()
        bench.world.run()
        #expect(bench.browser.pushes.count == 1)
        let expired = bench.world.events("webpush.expired")
        #expect(expired.count == 1 && expired.first?[.reason]?.description == "the TTL ran out while the browser was away")
    }

    @Test func aBrowserThatNoLongerHoldsTheSubscriptionMakesItGone() {
        let bench = WebPushBench()
        let endpoint = bench.subscribe(.chrome, key: bench.vapidKey)
        bench.browser.uninstall()   // the browser answers 410: it dropped the subscription (site data cleared)
        #expect(bench.send(endpoint).status == 201)
        #expect(bench.browser.refused == 1)
        expectFCM(bench.send(endpoint), 410, "push subscription has unsubscribed or expired.")
    }

    @Test func subscriptionsUnseenTooLongExpireAsEachVendorSays() {
        let bench = WebPushBench()
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        bench.world.advance(by: .days(59))
        bench.browser.goOnline()   // a connection is a sign of life
        bench.world.run()
        bench.world.advance(by: .days(59))
        #expect(bench.send(firefox).status == 201)
        bench.world.advance(by: .days(61))
        expectAutopush(bench.send(firefox), 410, errno: 106, "No such subscription")
        bench.world.advance(by: .days(150))
        expectFCM(bench.send(chrome), 404, FCMWebPushRules.notFoundText)
        #expect(bench.send(safari).status == 201)
    }

    @Test func faultsGetEachVendorsAnswer() {
        let bench = WebPushBench()
        let endpoints = WebPushVendor.allCases.map { bench.subscribe($0, key: bench.vapidKey) }
        bench.webPush.faults = [ServiceFault(effect: .throttle(retryAfter: .seconds(30)), from: bench.world.now, to: bench.world.now + .hours(1))]
        let chrome = bench.send(endpoints[0])
        #expect(chrome.status == 429 && chrome.headers["retry-after"] == "30")
        let firefox = bench.send(endpoints[1])
        expectAutopush(firefox, 503, errno: 201, "Service temporarily unavailable")
        #expect(firefox.headers["retry-after"] == "120")
        let safari = bench.send(endpoints[2])
        expectApple(safari, 429, "TooManyRequests")
        #expect(safari.headers["retry-after"] == nil)
        let edge = bench.send(endpoints[3])
        #expect(edge.status == 406 && edge.headers["Retry-After"] == "30" && edge.headers["X-WNS-Status"] == "channelthrottled")
        #expect(bench.world.events("fault.injected").count == 4)
        #expect(bench.browser.pushes.isEmpty)
        bench.webPush.faults = [ServiceFault(effect: .refuse("gone"), from: bench.world.now, to: bench.world.now + .hours(1),
                                             scope: .device("laptop"))]
        expectApple(bench.send(endpoints[2]), 410, "Unregistered")
        bench.webPush.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(10)), from: bench.world.now, to: bench.world.now + .hours(1))]
        expectApple(bench.send(endpoints[2]), 503, "ServiceUnavailable")
        bench.webPush.faults = []
        #expect(bench.send(endpoints[2]).status == 201)
    }

    @Test func aSlowFaultDelaysTheAnswerNotTheDelivery() {
        let bench = WebPushBench()
        let endpoint = bench.subscribe(.edge, key: bench.vapidKey)
        bench.webPush.faults = [ServiceFault(effect: .slow(.seconds(5)), from: bench.world.now, to: bench.world.now + .hours(1))]
        let sentAt = bench.world.now
        #expect(bench.send(endpoint).status == 201)
        #expect(bench.browser.pushes.first.map { $0.time < sentAt + .seconds(5) } == true)
        #expect(bench.world.now >= sentAt + .seconds(5))
    }

    @Test func theSameRunLeavesTheSameTrace() {
        func run() -> [String] {
            let bench = WebPushBench(seed: 77)
            let endpoints = WebPushVendor.allCases.map { bench.subscribe($0, key: bench.vapidKey) }
            bench.browser.goOffline()
            for endpoint in endpoints { _ = bench.send(endpoint, headers: [("Topic", "abcd")]) }
            bench.browser.goOnline()
            bench.world.run()
            return bench.world.trace.events.map { "\($0.time) \($0.kind.name) \($0.fields.map { "\($0.key.name)=\($0.value)" })" }
        }
        let first = run()
        #expect(first == run())
        #expect(first.contains { $0.contains("webpush.delivered") })
    }
}
