import Testing
import PushSimKernel
import PushSimNetwork
@testable import PushSimHub

/// Notification ids in the live hub's form (issue 41 item 11): a send's `Location` names
/// `NH-<yyyyMMddHHmmssfff>-<32 hex>-<2 digits>`, as the JavaScript SDK's 2022 and 2023 recordings
/// of a live hub show (`NH-20230803155355238-23cfaa9cd29144c8a8e05c08336d5153-07`).
@Suite("Hub notification ids")
struct NotificationIDTests {
    /// `NH-`, 17 digits of UTC time to the millisecond, 32 lower-case hex digits, 2 digits.
    static func hasLiveShape(_ id: String) -> Bool {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        let digits = { (p: Substring, n: Int) in p.count == n && p.allSatisfy { $0.isASCII && $0.isNumber } }
        return parts.count == 4 && parts[0] == "NH" && digits(parts[1], 17) && digits(parts[3], 2)
            && parts[2].count == 32 && parts[2].allSatisfy { "0123456789abcdef".contains($0) }
    }

    @Test func aSendsLocationNamesAnIDOfTheLiveForm() throws {
        let w = HubWorld()
        w.world.run(until: w.world.now + .milliseconds(1_234))
        let r = w.raw("POST", w.path("messages/"), query: [("api-version", "2020-06")],
                      headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8))
        #expect(r?.status == 201)
        let id = try #require(NotificationHubClient.lastSegment(r?.headers["Location"]))
        #expect(Self.hasLiveShape(id), "\(id)")
        // The time part is the moment the hub took the send, on the world's calendar.
        let acceptedAt = try #require(w.events("hub.send-accepted").first).time
        let stamp = CalendarAnchor.iso8601(unixSeconds: w.world.anchor.unixSeconds(acceptedAt)).filter { $0.isNumber }
        let millis = w.world.anchor.unixMilliseconds(acceptedAt) % 1_000
        #expect(id.hasPrefix("NH-" + stamp + String(repeating: "0", count: 3 - String(millis).count) + String(millis) + "-"))
        #expect(w.hub.notificationState(id) != nil)
        #expect(w.hub.notificationID(number: 1) == id && w.hub.notificationID(number: 2) == nil)
    }

    /// The same seed gives the same ids; another seed other ones; drawing them moves nothing else.
    @Test func idsAreTheSameForTheSameSeed() {
        func ids(seed: UInt64) -> [String] {
            var random = SeededRandom(seed: seed)
            return (0..<50).map { NotificationID.make(at: .zero + .milliseconds(Int64($0)), anchor: CalendarAnchor(), random: &random) }
        }
        #expect(ids(seed: 3) == ids(seed: 3))
        #expect(ids(seed: 3) != ids(seed: 4))
        #expect(Set(ids(seed: 3)).count == 50)
        #expect(ids(seed: 3).allSatisfy(Self.hasLiveShape))
    }
}
