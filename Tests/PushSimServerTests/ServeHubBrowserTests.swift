import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimHub
@testable import PushSimServer
import Testing

/// The hub's browser platform through `pushsim serve`: a simulated browser subscribes with the
/// hub's VAPID public key (`GET /_pushsim/hub/browser-credential`), a client writes a browser
/// installation over the hub's REST API and sends with `ServiceBusNotification-Format: browser`;
/// the browser decrypts and shows the hub's copy (NH-BROWSER, Citations §4.11).
@Suite(.serialized) struct ServeHubBrowserTests {
    @Test func aBrowserInstallationShowsTheHubsSend() async throws {
        let s = try TestServer()
        let credential = try await s.json("GET", "/_pushsim/hub/browser-credential")
        #expect(credential.status == 200)
        #expect(credential.value["subject"]?.stringValue?.hasPrefix("mailto:") == true)
        let key = try #require(credential.value["vapidPublicKey"]?.stringValue)
        let made = try await s.json("POST", "/_pushsim/browsers", body: #"{"name":"eve-chrome","vendor":"chrome","applicationServerKey":"\#(key)"}"#)
        #expect(made.status == 201)
        let subscription = try await s.json("GET", "/_pushsim/browsers/eve-chrome/subscription")
        let endpoint = try #require(subscription.value["endpoint"]?.stringValue)
        let p256dh = try #require(subscription.value["keys"]?["p256dh"]?.stringValue)
        let auth = try #require(subscription.value["keys"]?["auth"]?.stringValue)

        let sas = s.hubSAS(unixNow: try await s.unixNow())
        let installation = #"{"installationId":"eve-web","platform":"browser","pushChannel":{"endpoint":"\#(endpoint)","p256dh":"\#(p256dh)","auth":"\#(auth)"},"tags":["username:eve"]}"#
        let put = try await s.request("PUT", "/notifyusers/installations/eve-web?api-version=2015-01",
                                      headers: ["Authorization": sas, "Content-Type": "application/json"], body: installation)
        #expect(put.status == 200, "\(put.body)")
        let send = try await s.request("POST", "/notifyusers/messages?api-version=2015-01", headers: [
            "Authorization": sas, "ServiceBusNotification-Format": "browser", "ServiceBusNotification-Tags": "username:eve",
            "Content-Type": "application/json;charset=utf-8"], body: #"{"title":"Hub","body":"to a browser"}"#)
        #expect(send.status == 201, "\(send.body)")
        _ = try await s.json("POST", "/_pushsim/clock/advance", body: #"{"by":"1s"}"#)
        let shown = try await s.json("GET", "/_pushsim/browsers/eve-chrome/notifications")
        #expect(shown.value["notifications"]?.arrayValue?.compactMap { $0["text"]?.stringValue } == ["Hub: to a browser"])
    }
}
