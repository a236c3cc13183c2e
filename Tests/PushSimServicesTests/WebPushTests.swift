import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("Web Push subscriptions and accepted messages (Citations §9.1)")
struct WebPushSubscriptionTests {
    @Test func eachVendorHandsOutEndpointsInItsLiveShape() {
        let bench = WebPushBench()
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        #expect(chrome.hasPrefix("https://fcm.googleapis.com/fcm/send/"))
        let fcmToken = chrome.dropFirst("https://fcm.googleapis.com/fcm/send/".count)
        #expect(fcmToken.count == 11 + 7 + 134 && fcmToken.dropFirst(11).hasPrefix(":APA91b"))
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        #expect(firefox.hasPrefix("https://updates.push.services.mozilla.com/wpush/v2/gAAAAAB"))
        #expect(firefox.count == "https://updates.push.services.mozilla.com/wpush/v2/".count + 183)
        let unkeyed = bench.subscribe(.firefox, key: nil)
        #expect(unkeyed.hasPrefix("https://updates.push.services.mozilla.com/wpush/v1/") && unkeyed.count == "https://updates.push.services.mozilla.com/wpush/v1/".count + 140)
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        #expect(safari.hasPrefix("https://web.push.apple.com/Q") && safari.count == "https://web.push.apple.com/".count + 171)
        let edge = bench.subscribe(.edge, key: bench.vapidKey)
        #expect(edge.hasPrefix("https://wns2-") && edge.contains(".notify.windows.com/w/?token=BQYAAA"))
        #expect(bench.webPush.subscriptions.map(\.vendor) == [.chrome, .firefox, .firefox, .safari, .edge])
        #expect(bench.webPush.subscriptions.allSatisfy { $0.browser == "laptop" })
        #expect(bench.world.events("webpush.subscribed").count == 5)
    }

    @Test func endpointsComeFromTheSeedAlone() {
        let a = WebPushBench(seed: 5), b = WebPushBench(seed: 5), c = WebPushBench(seed: 6)
        let vendors = WebPushVendor.allCases
        let first = vendors.map { a.subscribe($0, key: a.vapidKey) }
        #expect(first == vendors.map { b.subscribe($0, key: b.vapidKey) })
        #expect(first != vendors.map { c.subscribe($0, key: c.vapidKey) })
    }

    @Test func vendorsThatNeedAKeyRefuseASubscriptionWithout() {
        let bench = WebPushBench()
        for vendor in [WebPushVendor.chrome, .safari, .edge] {
            #expect(bench.webPush.subscribe(browser: "laptop", vendor: vendor, applicationServerKey: nil, world: bench.world)
                    == .failure(.applicationServerKeyRequired))
        }
        #expect(bench.webPush.subscribe(browser: "laptop", vendor: .firefox, applicationServerKey: [4] + [UInt8](repeating: 1, count: 64),
                                        world: bench.world) == .failure(.invalidApplicationServerKey))
        var answer: HTTPResponse?
        bench.world.call(HTTPRequest(method: "POST", authority: WebPushService.name, path: WebPushChannel.subscribePath,
                                     body: WebPushSubscribeRequest(vendor: "opera", applicationServerKey: nil).body), from: "laptop") { answer = $0.response }
        bench.world.run()
        #expect(answer?.status == 400)
    }

    @Test func acceptedMessagesAre201InEachVendorsForm() {
        let bench = WebPushBench()
        let chrome = bench.send(bench.subscribe(.chrome, key: bench.vapidKey))
        #expect(chrome.status == 201 && chrome.body.isEmpty)
        #expect(chrome.headers["content-type"] == "text/html; charset=UTF-8")
        let location = chrome.headers["location"] ?? ""
        #expect(location.hasPrefix("https://fcm.googleapis.com/0:") && location.contains("%"))
        let firefox = bench.send(bench.subscribe(.firefox, key: bench.vapidKey), headers: [("TTL", "3600")])
        #expect(firefox.status == 201 && firefox.headers["ttl"] == "3600")
        #expect(firefox.headers["location"]?.hasPrefix("https://updates.push.services.mozilla.com/m/gAAAAAB") == true)
        let safari = bench.send(bench.subscribe(.safari, key: bench.vapidKey))
        #expect(safari.status == 201 && safari.headers["location"] == nil)
        #expect(safari.headers["apns-id"].map { $0.count == 36 && $0 == $0.uppercased() } == true)
        let edge = bench.send(bench.subscribe(.edge, key: bench.vapidKey))
        #expect(edge.status == 201 && edge.headers["X-WNS-Status"] == "received" && edge.headers["X-WNS-Msg-ID"]?.count == 16)
        #expect(bench.browser.pushes.count == 4)
        #expect(bench.world.events("webpush.accepted").count == 4 && bench.world.events("webpush.delivered").count == 4)
    }

    @Test func theBrowserGetsTheBodyUntouchedWithItsCoding() {
        let bench = WebPushBench()
        let endpoint = bench.subscribe(.firefox, key: bench.vapidKey)
        let body = WebPushBench.encryptedBody(Array("secret".utf8))
        #expect(bench.send(endpoint, body: body).status == 201)
        let push = bench.browser.pushes.first
        #expect(push?.body == body)
        #expect(push?.headers["Content-Encoding"] == "aes128gcm")
        #expect(push?.headers[DeviceChannel.handleHeader] == endpoint)
        #expect(push?.headers[DeviceChannel.appHeader] == "firefox")
    }

    @Test func unknownTokensAreEachVendorsNotFound() {
        let bench = WebPushBench()
        expectFCM(bench.send("https://fcm.googleapis.com/fcm/send/abc:APA91bnope"), 404, FCMWebPushRules.notFoundText)
        let firefox = bench.send("https://updates.push.services.mozilla.com/wpush/v2/gAAAAABnope")
        #expect(firefox.status == 404 && firefox.body.isEmpty)
        expectApple(bench.send("https://web.push.apple.com/Qnope"), 404, "BadPath")
        let edge = bench.send("https://wns2-par02p.notify.windows.com/w/?token=BQYAAAnope")
        #expect(edge.status == 404 && edge.headers["X-WNS-Error-Description"] == "The channel URI is not valid")
        // A Firefox v2 token under v1 is no token of autopush's either.
        let endpoint = bench.subscribe(.firefox, key: bench.vapidKey)
        #expect(bench.send(endpoint.replacing("/v2/", with: "/v1/")).status == 404)
    }

    @Test func afterUnsubscribeEachVendorAnswersGone() {
        let bench = WebPushBench()
        let endpoints = WebPushVendor.allCases.map { bench.subscribe($0, key: bench.vapidKey) }
        for endpoint in endpoints {
            var status: Int?
            bench.world.call(HTTPRequest(method: "POST", authority: WebPushService.name, path: WebPushChannel.unsubscribePath,
                                         body: WebPushEndpointBody(endpoint: endpoint).body()), from: "laptop") { status = $0.status }
            bench.world.run()
            #expect(status == 200)
        }
        expectFCM(bench.send(endpoints[0]), 410, "push subscription has unsubscribed or expired.")
        expectAutopush(bench.send(endpoints[1]), 410, errno: 106, "No such subscription")
        #expect(bench.send(endpoints[1]).headers["cache-control"] == "max-age=86400")
        expectApple(bench.send(endpoints[2]), 410, "Unregistered")
        #expect(bench.send(endpoints[3]).status == 410)
        #expect(bench.browser.pushes.isEmpty)
        #expect(bench.world.events("webpush.unsubscribed").count == 4)
    }

    @Test func onlyTheBrowserThatSubscribedMayUnsubscribe() {
        let bench = WebPushBench()
        let endpoint = bench.subscribe(.safari, key: bench.vapidKey)
        var status: Int?
        bench.world.call(HTTPRequest(method: "POST", authority: WebPushService.name, path: WebPushChannel.unsubscribePath,
                                     body: WebPushEndpointBody(endpoint: endpoint).body()), from: "app-server") { status = $0.status }
        bench.world.run()
        #expect(status == 404)
        #expect(bench.send(endpoint).status == 201)
    }

    @Test func otherMethodsAreRefusedAsEachVendorDoes() {
        let bench = WebPushBench()
        expectApple(bench.send(bench.subscribe(.safari, key: bench.vapidKey), method: "PUT"), 405, "MethodNotAllowed")
        #expect(bench.send(bench.subscribe(.firefox, key: bench.vapidKey), method: "GET").status == 405)
        #expect(bench.send(bench.subscribe(.edge, key: bench.vapidKey), method: "DELETE").status == 405)
    }

    @Test func chromesLegacyAndV1PathsStayFCMs() {
        let bench = WebPushBench()
        // The retired legacy send path and HTTP v1 are FCM's own; only /fcm/send/<token> and /wp/<token> are web push.
        let legacy = bench.server.roundTrip(HTTPRequest(method: "POST", authority: "fcm.googleapis.com", path: "/fcm/send"), in: bench.world)
        #expect(legacy.status == 404 && legacy.bodyText.contains("Deprecated endpoint"))
        let endpoint = bench.subscribe(.chrome, key: bench.vapidKey)
        let wp = endpoint.replacing("/fcm/send/", with: "/wp/")
        #expect(bench.send(wp, authorization: .some(bench.vapid(endpoint))).status == 201)
    }
}
