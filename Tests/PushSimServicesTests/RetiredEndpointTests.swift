import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("Retired endpoints answer as they do today (Citations §2.8, §3.8)")
struct RetiredEndpointTests {
    static let deprecatedBody = #"{"error":"Deprecated endpoint, see https://firebase.google.com/docs/cloud-messaging/migrate-v1"}"#

    /// A legacy send as clients built it before 2024: server key, `to`, `notification`.
    func legacySend(_ bench: FCMBench, authority: String = FCMService.apiHost, path: String, method: String = "POST") -> HTTPRequest {
        HTTPRequest(method: method, authority: authority, path: path,
                    headers: ["Authorization": "key=AAAA-legacy-server-key", "Content-Type": "application/json"],
                    body: Array(#"{"to":"\#(bench.token)","notification":{"title":"Hi","body":"there"}}"#.utf8))
    }

    @Test(arguments: ["POST", "GET"])
    func legacyFCMSendIs404DeprecatedEndpoint(method: String) throws {
        let bench = FCMBench()
        let r = bench.server.roundTrip(legacySend(bench, path: "/fcm/send", method: method), in: bench.world)
        #expect(r.status == 404)
        #expect(r.bodyText == Self.deprecatedBody)
        #expect(r.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(bench.phone.pushes.isEmpty)
        let event = try #require(bench.world.events("endpoint.retired").first)
        #expect(event[.path] == "/fcm/send")
        #expect(event[.status] == .int(404))
        // The v1 API next door still works.
        #expect(bench.send(bench.message()).status == 200)
    }

    @Test(arguments: ["gcm-http.googleapis.com", "android.googleapis.com"])
    func gcmHostsAre400DeprecatedEndpoint(host: String) {
        let bench = FCMBench()
        let r = bench.server.roundTrip(legacySend(bench, authority: host, path: "/gcm/send"), in: bench.world)
        #expect(r.status == 400)
        #expect(r.bodyText == "Error=DeprecatedEndpoint")
        #expect(r.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.events("endpoint.retired").first?[.authority] == .string(host))
    }

    @Test func retiredEndpointsIgnoreInjectedFaults() {
        let bench = FCMBench()
        let (from, to) = window(bench.world, 60)
        bench.fcm.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(10)), from: from, to: to)]
        #expect(bench.server.roundTrip(legacySend(bench, path: "/fcm/send"), in: bench.world).status == 404)
        #expect(bench.world.events("fault.injected").isEmpty)
    }

    @Test(arguments: ["db3.notify.live.net", "am3.notify.live.net", "s.notify.live.net"])
    func mpnsHostsNoLongerResolve(host: String) throws {
        let bench = FCMBench()
        #expect(RetiredEndpoints.isMPNSHost(host))
        let channel = "http://\(host)/throttledthirdparty/01.00/AQG2MdvoLlZFT7-VJ2TJ5LnbAgAAAAADAQAAAAQUZm52OkJCMjg1QTg1QkZDMkUxREQFBlVTU0MwMQ"
        let request = try #require(HTTPRequest(method: "POST", url: channel, headers: ["X-NotificationClass": "2", "Content-Type": "text/xml"],
                                                body: Array("<wp:Notification xmlns:wp=\"WPNotification\"/>".utf8)))
        bench.server.send(request, in: bench.world)
        bench.world.run()
        #expect(bench.server.results.last == .failure(.noSuchHost))
    }

    @Test func onlyTheMPNSDomainCounts() {
        #expect(RetiredEndpoints.isMPNSHost("notify.live.net"))
        #expect(!RetiredEndpoints.isMPNSHost("notify.windows.com"))
        #expect(!RetiredEndpoints.isMPNSHost("evilnotify.live.net"))
    }
}
