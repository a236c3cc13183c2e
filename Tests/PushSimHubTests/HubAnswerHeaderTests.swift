import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// The header fields of the hub's 201s (issue 41): a send's `Location` carries the `api-version`
/// the request asked for, as the live hub echoes it (NH-DOTNET's recordings: a request with
/// `api-version=2017-04` gets a `Location` ending in `?api-version=2017-04`), and Create
/// Registration ID says its answer is an Atom entry, as the REST page does.
@Suite("Hub answer header fields")
struct HubAnswerHeaderTests {
    static let hub = "https://pushsim.servicebus.windows.net/notifyusers"

    @Test(arguments: ["2020-06", "2017-04", "2015-01"])
    func aSendsLocationCarriesTheRequestsAPIVersion(version: String) {
        let w = HubWorld()
        let r = w.raw("POST", w.path("messages/"), query: [("api-version", version)],
                      headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8))
        #expect(r?.status == 201)
        #expect(r?.headers["Location"] == "\(Self.hub)/messages/ntf-000001?api-version=\(version)")
    }

    @Test func directAndScheduledSendsCarryItToo() {
        let w = HubWorld()
        let direct = w.raw("POST", w.path("messages/"), query: [("api-version", "2020-06"), ("direct", "")],
                           headers: [("ServiceBusNotification-Format", "apple"), ("ServiceBusNotification-DeviceHandle", "ab12")],
                           body: Array(Payload.apple.utf8))
        #expect(direct?.status == 201)
        #expect(direct?.headers["Location"] == "\(Self.hub)/messages/ntf-000001?api-version=2020-06")
        let scheduled = w.raw("POST", w.path("schedulednotifications/"), query: [("api-version", "2017-04")],
                              headers: [("ServiceBusNotification-Format", "apple"), ("ServiceBusNotification-ScheduleTime", "2030-01-01T00:00:00")],
                              body: Array(Payload.apple.utf8))
        #expect(scheduled?.status == 201)
        #expect(scheduled?.headers["Location"] == "\(Self.hub)/schedulednotifications/ntf-000002?api-version=2017-04")
    }

    /// A version holding bytes a URL query cannot carry as they are is written form-encoded, so
    /// the `Location` stays one well-formed URL.
    @Test func anOddVersionIsEncodedNotPastedIn() {
        let w = HubWorld()
        let r = w.raw("POST", w.path("messages/"), query: [("api-version", "2020-06&x=1 y")],
                      headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8))
        #expect(r?.headers["Location"] == "\(Self.hub)/messages/ntf-000001?api-version=2020-06%26x%3D1+y")
    }

    /// The client (which asks with `api-version=2020-06`) still reads the notification id.
    @Test func theClientStillReadsTheNotificationID() {
        let w = HubWorld()
        let outcome = w.wait { w.client.sendNotification(.apple(Payload.apple), tagExpression: nil, $0) }
        guard case .success(let o)? = outcome else { Issue.record("send failed: \(String(describing: outcome))"); return }
        #expect(o.notificationID == "ntf-000001")
    }

    /// Create Registration ID: `Content-Type: application/atom+xml;type=entry;charset=utf-8`, the
    /// value the REST page lists. The `Location` keeps the shape a live hub gives it (the path
    /// segment `registrationids`, the request's query echoed), which is the only place either of
    /// Microsoft's SDKs looks for the id.
    @Test func createRegistrationIDNamesItsContentType() {
        let w = HubWorld(services: false)
        let r = w.raw("POST", w.path("registrationIDs/"), query: [("api-version", "2020-06")])
        #expect(r?.status == 201)
        #expect(r?.headers["Content-Type"] == "application/atom+xml;type=entry;charset=utf-8")
        #expect(r?.headers["Location"] == "\(Self.hub)/registrationids/reg-000001?api-version=2020-06")
        #expect(r?.body.isEmpty == true)
        #expect(w.createID() == "reg-000002")   // the client reads the id out of that Location
    }
}
