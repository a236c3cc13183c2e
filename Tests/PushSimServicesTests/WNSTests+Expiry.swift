import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("WNS X-WNS-TTL, tile/badge expiry and X-WNS-Tag (Citations §3.3, §3.6)")
struct WNSExpiryTests {
    static let badge = #"<badge value="7"/>"#

    /// Sends `type` with `headers` to the offline PC, waits `offline`, reconnects; returns what arrived.
    func cacheAndReconnect(type: String, body: String, headers: [(String, String)] = [], offline: VirtualDuration)
        -> (WNSBench, [FakeDevice.Push]) {
        let bench = WNSBench()
        bench.pc.goOffline()
        let contentType = WNSNotificationType(rawValue: type)!.contentType
        #expect(bench.notify(type: type, contentType: contentType, body: body, headers: headers).status == 200)
        bench.world.advance(by: offline)
        bench.pc.goOnline()
        bench.world.run()
        return (bench, bench.pc.pushes)
    }

    @Test func cachedTileIsNotDeliveredAfterItsTTL() {
        let (bench, pushes) = cacheAndReconnect(type: "wns/tile", body: WNSBench.tile, headers: [("X-WNS-TTL", "60")], offline: .minutes(2))
        #expect(pushes.isEmpty)
        #expect(bench.world.dropReasons == ["cached but its X-WNS-TTL has passed"])
        #expect(bench.world.leftovers().isEmpty)
    }

    @Test func cachedTileWithinItsTTLIsDelivered() {
        let (_, pushes) = cacheAndReconnect(type: "wns/tile", body: WNSBench.tile, headers: [("X-WNS-TTL", "600")], offline: .minutes(2))
        #expect(pushes.count == 1)
        #expect(pushes.first?.headers["X-WNS-TTL"] == "600")
    }

    @Test func ttlZeroIsNeverCached() {
        let bench = WNSBench()
        bench.pc.goOffline()
        #expect(bench.notify(type: "wns/tile", body: WNSBench.tile, headers: [("X-WNS-TTL", "0")]).status == 200)
        #expect(bench.world.dropReasons == ["device offline and its X-WNS-TTL has passed"])
        #expect(bench.world.leftovers().isEmpty)
    }

    @Test(arguments: [("wns/tile", WNSBench.tile), ("wns/badge", WNSExpiryTests.badge)])
    func tileAndBadgeExpireAfterThreeDays(type: String, body: String) {
        let (bench, pushes) = cacheAndReconnect(type: type, body: body, offline: .days(3))
        #expect(pushes.isEmpty)
        #expect(bench.world.dropReasons == ["cached but the \(type) expired (3 days)"])
        let (_, early) = cacheAndReconnect(type: type, body: body, offline: .days(3) + VirtualDuration.seconds(-60))
        #expect(early.count == 1)
    }

    @Test func ttlOverridesTheThreeDays() {
        let (_, pushes) = cacheAndReconnect(type: "wns/tile", body: WNSBench.tile,
                                            headers: [("X-WNS-TTL", String(5 * 86_400))], offline: .days(4))
        #expect(pushes.count == 1)
    }

    @Test func cachedRawWithoutTTLDoesNotExpire() {
        let (_, pushes) = cacheAndReconnect(type: "wns/raw", body: "sync", headers: [("X-WNS-Cache-Policy", "cache")], offline: .days(10))
        #expect(pushes.map(\.text) == ["sync"])
    }

    @Test(arguments: ["-1", "1.5", "soon", "", "+5"])
    func malformedTTLIsBadRequest(value: String) {
        let bench = WNSBench()
        expectWNSError(bench.notify(headers: [("X-WNS-TTL", value)]), 400, "X-WNS-TTL must be a whole number of seconds")
        #expect(bench.pc.pushes.isEmpty)
    }

    @Test(arguments: ["room-42", "röom", "a b", "", "tag_1"])
    func nonAlphanumericTagIsBadRequest(tag: String) {
        let bench = WNSBench()
        expectWNSError(bench.notify(headers: [("X-WNS-Tag", tag)]), 400, "X-WNS-Tag must be alphanumeric")
    }

    @Test func sixteenAlphanumericCharactersAreAccepted() {
        let bench = WNSBench()
        #expect(bench.notify(headers: [("X-WNS-Tag", "Room42abcdefXYZ9")]).status == 200)
        expectWNSError(bench.notify(headers: [("X-WNS-Tag", "Room42abcdefXYZ90")]), 400, "X-WNS-Tag is longer than 16 characters")
    }
}
