import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// A toast for an offline device: Microsoft's header reference says WNS answers
/// `X-WNS-Status: dropped` and drops it; the WNS overview's pages disagree on whether it is kept,
/// so keeping is ``WNSService/offlineToasts`` (default: dropped).
@Suite("WNS toast for an offline device (Citations §3.4, §3.6)")
struct WNSOfflineToastTests {
    static let second = #"<toast><visual><binding template="ToastGeneric"><text>Bob</text><text>Later</text></binding></visual></toast>"#

    @Test func offlineToastIsAnsweredDroppedAndNeverHandedOver() {
        let bench = WNSBench()
        bench.pc.goOffline()
        let r = bench.notify()
        #expect(r.status == 200)
        #expect(r.headers["X-WNS-Status"] == "dropped")
        #expect(r.headers["X-WNS-Msg-ID"]?.count == 16)
        #expect(bench.world.events("wns.accepted").first?[.status] == "dropped")
        #expect(bench.world.events("notification.dropped").first?[.wnsMessageID] == .string(r.headers["X-WNS-Msg-ID"] ?? "?"))
        // Dropped at once: WNS does not try the device at all.
        #expect(bench.world.events("http.refused").isEmpty)
        bench.pc.goOnline()
        bench.world.run()
        #expect(bench.pc.pushes.isEmpty)
        #expect(bench.world.leftovers().isEmpty)
    }

    @Test func onlineToastAndOfflineTileAreReceived() {
        let bench = WNSBench()
        #expect(bench.notify().headers["X-WNS-Status"] == "received")
        bench.pc.goOffline()
        #expect(bench.notify(type: "wns/tile", body: WNSBench.tile).headers["X-WNS-Status"] == "received")
        #expect(bench.notify(type: "wns/raw", contentType: "application/octet-stream", body: "r").headers["X-WNS-Status"] == "received")
    }

    @Test func keepLastSettingKeepsTheNewestToastUntilTheDeviceReturns() {
        let bench = WNSBench()
        #expect(bench.wns.offlineToasts == .drop)
        bench.wns.offlineToasts = .keepLast
        bench.pc.goOffline()
        let first = bench.notify()
        #expect(first.headers["X-WNS-Status"] == "dropped")   // the header reference's answer either way
        #expect(bench.notify(body: Self.second).status == 200)
        #expect(bench.world.dropReasons == ["replaced by a newer wns/toast (WNS keeps the last one)"])
        #expect(bench.world.leftovers().count == 1)
        bench.world.advance(by: .hours(1))
        bench.pc.goOnline()
        bench.world.run()
        #expect(bench.pc.pushes.map(\.text) == [Self.second])
        #expect(bench.world.leftovers().isEmpty)
    }

    @Test func keptToastPastItsTTLIsNotShown() {
        let bench = WNSBench()
        bench.wns.offlineToasts = .keepLast
        bench.pc.goOffline()
        #expect(bench.notify(headers: [("X-WNS-TTL", "60")]).status == 200)
        bench.world.advance(by: .minutes(5))
        bench.pc.goOnline()
        bench.world.run()
        #expect(bench.pc.pushes.isEmpty)
        #expect(bench.world.dropReasons == ["cached but its X-WNS-TTL has passed"])
    }
}
