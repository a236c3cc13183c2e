import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// The header fields of the hub's 201s (issue 41): a send's `Location` carries the `api-version`
/// the request asked for, as the live hub echoes it (NH-DOTNET's recordings: a request with
/// `api-version=2017-04` gets a `Location` ending in `?api-version=2017-04`, already so before this
/// suite: issue 41 item 9), and Create Registration ID answers as the live hub does (item 10).
@Suite("Hub answer header fields")
struct HubAnswerHeaderTests {
    static let hub = "https://pushsim.servicebus.windows.net/notifyusers"

    @Test(arguments: ["2020-06", "2017-04", "2015-01"])
    func aSendsLocationCarriesTheRequestsAPIVersion(version: String) {
        let w = HubWorld()
        let r = w.raw("POST", w.path("messages/"), query: [("api-version", version)],
                      headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8))
        #expect(r?.status == 201)
        #expect(r?.headers["Location"] == "\(Self.hub)/messages/\(w.ntf(1))?api-version=\(version)")
    }

    @Test func directAndScheduledSendsCarryItToo() {
        let w = HubWorld()
        let direct = w.raw("POST", w.path("messages/"), query: [("api-version", "2020-06"), ("direct", "")],
                           headers: [("ServiceBusNotification-Format", "apple"), ("ServiceBusNotification-DeviceHandle", "ab12")],
                           body: Array(Payload.apple.utf8))
        #expect(direct?.status == 201)
        #expect(direct?.headers["Location"] == "\(Self.hub)/messages/\(w.ntf(1))?api-version=2020-06")
        let scheduled = w.raw("POST", w.path("schedulednotifications/"), query: [("api-version", "2017-04")],
                              headers: [("ServiceBusNotification-Format", "apple"), ("ServiceBusNotification-ScheduleTime", "2030-01-01T00:00:00")],
                              body: Array(Payload.apple.utf8))
        #expect(scheduled?.status == 201)
        #expect(scheduled?.headers["Location"] == "\(Self.hub)/schedulednotifications/\(w.ntf(2))?api-version=2017-04")
    }

    /// A version holding bytes a URL query cannot carry as they are is written form-encoded, so
    /// the `Location` stays one well-formed URL.
    @Test func anOddVersionIsEncodedNotPastedIn() {
        let w = HubWorld()
        let r = w.raw("POST", w.path("messages/"), query: [("api-version", "2020-06&x=1 y")],
                      headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8))
        #expect(r?.headers["Location"] == "\(Self.hub)/messages/\(w.ntf(1))?api-version=2020-06%26x%3D1+y")
    }

    /// The client (which asks with `api-version=2020-06`) still reads the notification id.
    @Test func theClientStillReadsTheNotificationID() {
        let w = HubWorld()
        let outcome = w.wait { w.client.sendNotification(.apple(Payload.apple), tagExpression: nil, $0) }
        guard case .success(let o)? = outcome else { Issue.record("send failed: \(String(describing: outcome))"); return }
        #expect(o.notificationID == w.ntf(1))
    }

    /// Create Registration ID, as the live hub answered the JavaScript SDK in 2023
    /// (`recordings/node/createregistrationid/…` in azure-sdk-for-js, issue 41 item 10): 201, an
    /// empty body, `Content-Type: application/atom+xml; type=entry; charset=utf-8` (the REST page
    /// lists the same type) and a `Location` that is the id's address and nothing more, no query,
    /// whatever `api-version` the request asked for. The SDKs read the id out of that path.
    @Test(arguments: ["2020-06", "2017-04"])
    func createRegistrationIDAnswersAnAddressWithoutQuery(version: String) {
        let w = HubWorld(services: false)
        let r = w.raw("POST", w.path("registrationIDs/"), query: [("api-version", version)])
        #expect(r?.status == 201)
        #expect(r?.headers["Content-Type"] == "application/atom+xml; type=entry; charset=utf-8")
        let location = r?.headers["Location"] ?? ""
        #expect(location.hasPrefix("\(Self.hub)/registrationids/"))
        #expect(!location.contains("?"))
        #expect(r?.body.isEmpty == true)
        #expect(NotificationHubClient.registrationID(inLocation: location) != nil)   // the client reads the id out of it
        #expect(w.createID() != "?")
    }
}
