import Testing
import PushSimKernel
import PushSimNetwork
@testable import PushSimHub

/// A caller's `X-WNS-Type: wns/raw` wins, as in the SDK's `WindowsNotification`
/// (`OnValidateAndPopulateHeaders`): the body goes raw, as octets; any other type the caller
/// gives is replaced by the one the root names (issue 41: the operator's raw sends went as
/// `wns/badge`, or were refused when the body was not XML).
@Suite("SDK Windows raw sends")
struct WindowsRawSendTests {
    private func type(_ p: NotificationPayload?) -> [String] {
        p?.headers.filter { sameFieldName($0.0, "X-WNS-Type") }.map(\.1) ?? []
    }

    @Test func theCallersRawTypeWinsOverAnXMLRoot() throws {
        let p = try #require(NotificationPayload.windows(#"<badge value="9"/>"#, headers: [("X-WNS-Type", "wns/raw")]))
        #expect(type(p) == ["wns/raw"])
        #expect(p.contentType == "application/octet-stream")
        #expect(p.requestHeaders.map(\.0) == ["ServiceBusNotification-Format", "Content-Type", "X-WNS-Type"])
    }

    @Test(arguments: ["count=3", "{\"sync\":true}", "<not xml", " x"])
    func aBodyThatIsNotXMLGoesRawWhenTheCallerSaysSo(body: String) throws {
        // Name and value in any case: the SDK's headers are OrdinalIgnoreCase, and it compares the value so.
        let p = try #require(NotificationPayload.windows(body, headers: [("x-wns-type", "WNS/Raw"), ("X-WNS-TTL", "60")]))
        #expect(p.headers.map(\.0) == ["x-wns-type", "X-WNS-TTL"] && type(p) == ["wns/raw"])
        #expect(p.body == body && p.mediaType == "application/octet-stream")
        // Long s upper-cases to S in .NET's ordinal comparison, as in the root check.
        #expect(type(NotificationPayload.windows(body, headers: [("X-WNS-Type", "wn\u{17F}/raw")])) == ["wns/raw"])
    }

    @Test func anotherTypeTheCallerGivesIsReplacedByTheRoots() throws {
        let p = try #require(NotificationPayload.windows(#"<badge value="9"/>"#, headers: [("X-WNS-TTL", "60"), ("X-WNS-Type", "wns/toast")]))
        #expect(p.headers.map(\.0) == ["X-WNS-TTL", "X-WNS-Type"] && type(p) == ["wns/badge"])
        #expect(p.contentType == "application/xml")
        // Not XML and not raw: the SDK throws, whatever type was given.
        #expect(NotificationPayload.windows("count=3", headers: [("X-WNS-Type", "wns/toast")]) == nil)
        // Without a type from the caller it is the root's, first, as before.
        #expect(NotificationPayload.windows("<tile/>", headers: [("X-WNS-TTL", "60")])?.headers.map(\.0) == ["X-WNS-Type", "X-WNS-TTL"])
    }

    @Test func twoTypesFromTheCallerBecomeOneTheLaterWins() {
        let p = NotificationPayload.windows("<toast/>", headers: [("X-WNS-Type", "wns/toast"), ("X-WNS-Tag", "a"), ("X-WNS-Type", "wns/raw")])
        #expect(p?.headers.map(\.0) == ["X-WNS-Type", "X-WNS-Tag"] && type(p) == ["wns/raw"])
    }

    @Test func aRawSendReachesWNSAsOctetsAndThePCGetsTheBody() {
        let w = HubWorld()
        let pc = TestDevice.windows(w, "pc")
        w.register(.windows, pc.handle ?? "", tags: ["sports"])
        let payload = NotificationPayload.windows("count=3", headers: [("X-WNS-Type", "wns/raw")])!
        let outcome = w.wait { w.client.sendNotification(payload, tagExpression: "sports", $0) }
        guard case .success? = outcome else { Issue.record("the raw send failed: \(String(describing: outcome))"); return }
        let toHub = w.world.journal.entries.last { $0.to == NotificationHub.name && $0.request.path.hasSuffix("/messages/") }?.request
        #expect(toHub?.headers["Content-Type"] == "application/octet-stream" && toHub?.headers["X-WNS-Type"] == "wns/raw")
        let sent = w.hubRequests(authority: "cloud.notify.windows.com").first?.request
        #expect(sent?.headers["X-WNS-Type"] == "wns/raw")
        #expect(sent?.headers["Content-Type"] == "application/octet-stream")
        #expect(pc.pushes.map(\.body) == ["count=3"])
    }
}
