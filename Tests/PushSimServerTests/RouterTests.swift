import PushSimNetwork
import PushSimServices
@testable import PushSimServer
import Testing

/// `pushsim serve`'s routing on its one port: by a `Host` header naming a world host, else by
/// the path as each real service lays out its own (each fake names its paths).
@Suite struct RouterTests {
    private let router = Router(hubName: "notifyusers", hubHost: "pushsim.servicebus.windows.net")

    private func route(_ target: String, host: String? = nil) -> Router.Route? {
        router.route(WireRequest(method: "POST", target: target, headers: host.map { [("Host", $0)] } ?? []))
    }

    @Test func pathsGoWhereTheRealServicesServeThem() {
        #expect(route("/_pushsim/time") == .control)
        #expect(route("/v1/projects/demo/messages:send") == .host(authority: "fcm.googleapis.com"))
        #expect(route("/token") == .host(authority: "oauth2.googleapis.com"))
        #expect(route("/oauth2/v4/token") == .host(authority: "oauth2.googleapis.com"))
        #expect(route("/3/device/abc") == .host(authority: "api.push.apple.com"))
        #expect(route("/accesstoken.srf") == .host(authority: "login.live.com"))
        #expect(route("/?token=AwYAAAB") == .host(authority: "cloud.notify.windows.com"))
        #expect(route("/?a=1&token=AwYAAAB") == .host(authority: "cloud.notify.windows.com"))
        #expect(route("/api/register") == .host(authority: "pushsim-backend.azurewebsites.net"))
        #expect(route("/NotifyUsers/registrations") == .host(authority: "pushsim.servicebus.windows.net"))
        #expect(route("/") == nil)
        #expect(route("/4/device/abc") == nil)
    }

    @Test func aHostHeaderNamingAWorldHostWinsOverThePath() {
        #expect(route("/3/device/abc", host: "api.sandbox.push.apple.com") == .host(authority: "api.sandbox.push.apple.com"))
        #expect(route("/anything", host: "API.Development.Push.Apple.com") == .host(authority: "api.development.push.apple.com"))
        #expect(route("/3/device/abc", host: "example.com") == .host(authority: "api.push.apple.com"))
    }

    /// The browsers' push endpoints go to their vendors' hosts by path, Chrome's to FCM's host.
    @Test func webPushEndpointsGoToTheirVendorsHosts() {
        #expect(route("/fcm/send/abc:APA91bxyz") == .host(authority: "fcm.googleapis.com"))
        #expect(route("/wp/abc:APA91bxyz") == .host(authority: "fcm.googleapis.com"))
        #expect(route("/wpush/v2/gAAAAABtoken") == .host(authority: "updates.push.services.mozilla.com"))
        #expect(route("/w/?token=BQYAAAA%2b") == .host(authority: "wns2-bl2p.notify.windows.com"))
        #expect(route("/Q" + String(repeating: "a", count: 170)) == .host(authority: "web.push.apple.com"))
        #expect(route("/Q" + String(repeating: "a", count: 169)) == nil)
        #expect(route("/anything", host: "web.push.apple.com") == .host(authority: "web.push.apple.com"))
        #expect(route("/w/?token=x", host: "wns2-par02p.notify.windows.com") == .host(authority: "wns2-par02p.notify.windows.com"))
        for host in WebPushService.publicHosts { #expect(router.publicHosts.contains(host), "\(host)") }
    }

    /// Every fake's public hosts are routable, so a new fake is served without an edit here.
    @Test func everyFakesPublicHostsAreServed() {
        for fake in [APNsService.self, FCMService.self, WNSService.self] as [any FakePushService.Type] {
            for host in fake.publicHosts { #expect(router.publicHosts.contains(host), "\(host)") }
        }
    }
}
