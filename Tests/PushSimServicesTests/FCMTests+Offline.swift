import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("FCM offline storage (Citations §2.5)")
struct FCMOfflineTests {
    func data(_ n: Int) -> JSONValue { ["n": .string(String(n))] }

    @Test func hundredNonCollapsibleAreKeptAndTheNextDropsThemAll() {
        let bench = FCMBench()
        bench.phone.goOffline()
        // One collapsible message is stored too: FCM discards *all* stored messages at the limit.
        bench.queue(bench.message(["data": data(-1), "android": ["collapse_key": "score"]]))
        for n in 0..<100 { bench.queue(bench.message(["data": data(n)])) }
        bench.world.run()
        #expect(bench.server.results.allSatisfy { $0.status == 200 })
        #expect(bench.world.events("fcm.stored").count == 101)
        #expect(bench.world.dropReasons.isEmpty)
        #expect(bench.world.leftovers().count == 101)

        #expect(bench.send(bench.message(["data": data(100)])).status == 200)
        #expect(bench.world.dropReasons.count == 101)
        #expect(bench.world.dropReasons.allSatisfy { $0.contains("onDeletedMessages") })
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.compactMap { (try? JSONParser.parse($0.body))?["data"]?["n"]?.stringValue } == ["100"])
        #expect(bench.world.leftovers().isEmpty)
    }

    @Test func sameCollapseKeyReplacesTheStoredMessage() {
        let bench = FCMBench()
        bench.phone.goOffline()
        #expect(bench.send(bench.message(["data": ["score": "1-0"], "android": ["collapse_key": "score"]])).status == 200)
        #expect(bench.send(bench.message(["data": ["score": "2-0"], "android": ["collapse_key": "score"]])).status == 200)
        #expect(bench.world.dropReasons == ["replaced by a newer message with collapse key score"])
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.compactMap { (try? JSONParser.parse($0.body))?["data"]?["score"]?.stringValue } == ["2-0"])
    }

    @Test func atMostFourCollapseKeysAreStored() {
        let bench = FCMBench()
        bench.phone.goOffline()
        for key in ["a", "b", "c", "d", "e"] {
            #expect(bench.send(bench.message(["data": ["k": .string(key)], "android": ["collapse_key": .string(key)]])).status == 200)
        }
        #expect(bench.world.dropReasons == ["more than 4 collapse keys stored for the device"])
        bench.phone.goOnline()
        bench.world.run()
        let keys = bench.phone.pushes.compactMap { (try? JSONParser.parse($0.body))?["data"]?["k"]?.stringValue }
        #expect(keys.count == 4)
        #expect(keys.contains("e"))
    }

    @Test func ttlZeroIsNeverStored() {
        let bench = FCMBench()
        bench.phone.goOffline()
        #expect(bench.send(bench.message(["android": ["ttl": "0s"]])).status == 200)
        #expect(bench.world.dropReasons == ["device unreachable and ttl is 0"])
        #expect(bench.world.leftovers().isEmpty)
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
    }

    @Test func ttlPassingWhileOfflineDropsOnReconnect() {
        let bench = FCMBench()
        bench.phone.goOffline()
        #expect(bench.send(bench.message(["data": ["m": "short"], "android": ["ttl": "60s"]])).status == 200)
        #expect(bench.send(bench.message(["data": ["m": "long"], "android": ["ttl": "600s"]])).status == 200)
        bench.world.advance(by: .minutes(2))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.world.dropReasons == ["ttl passed while the device was offline"])
        #expect(bench.phone.pushes.compactMap { (try? JSONParser.parse($0.body))?["data"]?["m"]?.stringValue } == ["long"])
    }

    @Test func defaultTTLIsFourWeeks() {
        let bench = FCMBench()
        bench.phone.goOffline()
        #expect(bench.send(bench.message()).status == 200)
        bench.world.advance(by: .days(28))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.dropReasons == ["ttl passed while the device was offline"])
    }
}
