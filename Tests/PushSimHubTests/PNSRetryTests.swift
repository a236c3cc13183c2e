import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Outages, throttling and stale credentials between the hub and a PNS (Citations §4.9:
/// exponential back-off, drop after 30 minutes; A-JWT and F-MIG for credentials). The PNS is a
/// scripted stand-in registered under the real host names in a world without the fake services.
@Suite("Hub PNS retries and credentials")
struct PNSRetryTests {
    static let token = "AB12"

    /// A hub with one apple registration and a scripted APNs.
    private func appleHub(_ answer: @escaping (HTTPRequest, Int) -> HTTPResponse) -> (HubWorld, ScriptedPNS, String) {
        let w = HubWorld(services: false)
        let apns = ScriptedPNS(w.world, name: "apns", aliases: [APNsService.productionHost], answer: answer)
        let id = w.register(.apple, Self.token)
        return (w, apns, id)
    }

    private func retryDelays(_ w: HubWorld) -> [String] { w.events("hub.pns-retry").map { $0[.dueIn]?.description ?? "" } }
    private func hubDrops(_ w: HubWorld) -> [TraceEvent] { w.events("notification.dropped").filter { $0.layer == "hub" } }

    @Test func unavailablePNSIsRetriedWithDoublingDelays() {
        let (w, apns, id) = appleHub { _, i in i < 3 ? ScriptedPNS.apns(503, "ServiceUnavailable") : HTTPResponse(status: 200) }
        let sentAt = w.world.now
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)
        #expect(apns.requests.count == 4)
        #expect(retryDelays(w) == ["1s", "2s", "4s"])
        #expect(w.events("hub.pns-retry").first?[.reason] == "APNs 503 ServiceUnavailable")
        // Each attempt reaches the PNS one round trip plus the delay after the previous one.
        let gaps = zip(apns.requests.dropFirst(), apns.requests).map { $0.time - $1.time }
        #expect(gaps == [.milliseconds(1_020), .milliseconds(2_020), .milliseconds(4_020)])
        #expect(apns.requests.first?.time == sentAt + .milliseconds(20))
        #expect(w.events("hub.pns-accepted").count == 1)
        #expect(hubDrops(w).isEmpty)
        #expect(w.exists(id)) // an outage is not feedback
        #expect(w.events("hub.pns-request").map { $0[.attempt]?.description } == ["1", "2", "3", "4"])
    }

    @Test func retryForARegistrationDeletedMeanwhileIsDroppedWithAReason() {
        let (w, apns, id) = appleHub { _, _ in ScriptedPNS.apns(503, "ServiceUnavailable") }
        let delete = HTTPRequest(method: "DELETE", authority: TestIdentity.hubHost, path: w.path("registrations/\(id)"),
                                 query: [("api-version", "2015-01")], headers: HTTPHeaders([("Authorization", w.sas(TestIdentity.full))]))
        // The registration goes away while the hub waits to retry after the first 503.
        w.world.schedule(after: .milliseconds(500)) { w.world.call(delete, from: HubWorld.caller) { _ in } }
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(apns.requests.count == 1)
        #expect(!w.exists(id))
        let reason = hubDrops(w).first?[.reason]?.description ?? ""
        #expect(reason.contains("the registration was deleted, expired or changed handle before the retry"))
    }

    @Test func retryAfterIsHonoured() {
        let (w, apns, _) = appleHub { _, i in
            i == 0 ? ScriptedPNS.apns(429, "TooManyRequests", headers: [("Retry-After", "7")]) : HTTPResponse(status: 200)
        }
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(retryDelays(w) == ["7s"])
        #expect(apns.requests.count == 2)
        #expect(apns.requests[1].time - apns.requests[0].time == .milliseconds(7_020))
    }

    @Test func unreachablePNSIsRetried() {
        let (w, apns, _) = appleHub { _, _ in HTTPResponse(status: 200) }
        w.world.setOnline("apns", false)
        w.world.schedule(after: .seconds(2)) { w.world.setOnline("apns", true) }
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(w.events("hub.pns-retry").first?[.reason] == "PNS not reached: host unreachable")
        #expect(retryDelays(w) == ["1s", "2s"])
        #expect(apns.requests.count == 1)
        #expect(w.events("hub.pns-accepted").count == 1)
    }

    @Test func notificationIsDroppedWhenNotHandedOverWithinThirtyMinutes() throws {
        let (w, apns, id) = appleHub { _, _ in ScriptedPNS.apns(503, "ServiceUnavailable") }
        let sentAt = w.world.now
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)
        let drop = try #require(hubDrops(w).first)
        #expect(hubDrops(w).count == 1)
        #expect(drop[.reason] == "APNs 503 ServiceUnavailable; not handed to the PNS within 30 minutes")
        #expect(drop[.registration]?.description == id)
        // 1 + 2 + … + 512 s of back-off: eleven attempts; the next delay (1024 s) would pass the deadline.
        #expect(apns.requests.count == 11)
        #expect(retryDelays(w) == ["1s", "2s", "4s", "8s", "16s", "32s", "64s", "128s", "256s", "512s"])
        #expect(drop.time < sentAt + .minutes(30))
        #expect(apns.requests.allSatisfy { $0.time < sentAt + .minutes(30) })
        #expect(w.exists(id))
        #expect(w.world.leftovers().isEmpty)
    }

    @Test func pendingRetriesAreLeftovers() {
        let (w, _, id) = appleHub { _, _ in ScriptedPNS.apns(503, "ServiceUnavailable") }
        // Send without running to the end, and stop in the middle of the first back-off.
        w.world.call(HTTPRequest(method: "POST", authority: TestIdentity.hubHost, path: w.path("messages/"),
                                 query: [("api-version", "2015-01")],
                                 headers: HTTPHeaders([("Authorization", w.sas()), ("ServiceBusNotification-Format", "apple")]),
                                 body: Array(Payload.apple.utf8)), from: HubWorld.caller) { _ in }
        w.advance(.milliseconds(500))
        #expect(w.world.leftovers().map(\.line) == [
            "network: 1 timer(s) not yet fired",
            "hub: notification \(w.ntf(1)) for registration \(id) waiting to retry (APNs 503 ServiceUnavailable)",
        ])
        // While the PNS request itself is in flight, the hub says so too.
        w.advance(.milliseconds(540)) // the retry leaves at 1.030 s and is answered at 1.050 s
        #expect(w.world.leftovers().map(\.line).contains("hub: notification \(w.ntf(1)) for registration \(id) not yet accepted by its PNS (attempt 2)"))
    }

    @Test func refusedNotificationIsNotRetried() {
        let (w, apns, id) = appleHub { _, _ in ScriptedPNS.apns(400, "BadTopic") }
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(apns.requests.count == 1)
        #expect(hubDrops(w).map { $0[.reason]?.description } == ["APNs 400 BadTopic"])
        #expect(w.exists(id))
    }

    // MARK: APNs provider token

    @Test func expiredProviderTokenIsRenewedAndRetriedOnce() throws {
        let (w, apns, _) = appleHub { _, i in i == 1 ? ScriptedPNS.apns(403, "ExpiredProviderToken") : HTTPResponse(status: 200) }
        _ = w.send(format: "apple", body: Payload.apple) // mints and caches a provider token at time ~0
        w.advance(.minutes(40))                            // still inside the hub's 50-minute renewal period
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(apns.requests.count == 3)
        let tokens = apns.requests.map { $0.request.headers["authorization"] ?? "" }
        #expect(tokens[0] == tokens[1]) // the cached token was reused ...
        #expect(tokens[2] != tokens[1]) // ... and renewed after ExpiredProviderToken
        let jwt = try #require(JSONWebToken.parse(String(tokens[2].dropFirst("bearer ".count))))
        #expect(jwt.claims["iat"]?.int64Value == w.world.anchor.unixSeconds(apns.requests[2].time))
        #expect(jwt.header["kid"]?.stringValue == TestIdentity.apnsKey.keyID)
        #expect(jwt.hasValidES256Signature(by: TestIdentity.apnsKey.publicKey, acceptingDER: false))
        #expect(w.events("hub.pns-accepted").count == 2)
        #expect(w.events("hub.pns-request").map { $0[.attempt]?.description } == ["1", "1", "2"])
    }

    @Test func secondExpiredProviderTokenDropsTheNotification() {
        let (w, apns, id) = appleHub { _, _ in ScriptedPNS.apns(403, "ExpiredProviderToken") }
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(apns.requests.count == 2)
        #expect(hubDrops(w).map { $0[.reason]?.description } == ["APNs 403 ExpiredProviderToken, again after renewing credentials"])
        #expect(w.exists(id))
    }

    @Test func expiredProviderTokenAfterAnOutageIsStillRenewedOnce() {
        // 503, then the token has expired, then fine: the renewal is this notification's first.
        let (w, apns, _) = appleHub { _, i in
            [ScriptedPNS.apns(503, "ServiceUnavailable"), ScriptedPNS.apns(403, "ExpiredProviderToken")].dropFirst(i).first
                ?? HTTPResponse(status: 200)
        }
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(apns.requests.count == 3)
        #expect(hubDrops(w).isEmpty)
        #expect(w.events("hub.pns-accepted").count == 1)
    }

    @Test func providerTokenIsRenewedEveryFiftyMinutes() {
        let (w, apns, _) = appleHub { _, _ in HTTPResponse(status: 200) }
        for _ in 0..<4 {
            _ = w.send(format: "apple", body: Payload.apple)
            w.advance(.minutes(20))
        }
        // Sends at 0, 20, 40 and 60 minutes: a new token only for the last one.
        let tokens = apns.requests.map { $0.request.headers["authorization"] ?? "" }
        #expect(tokens.count == 4)
        #expect(Set(tokens.prefix(3)).count == 1)
        #expect(tokens[3] != tokens[0])
    }

    // MARK: FCM OAuth

    @Test func fcmAccessTokenIsFetchedOnceSharedAndRefreshedAfterExpiry() {
        let w = HubWorld()
        let phones = (1...3).map { TestDevice.android(w, "android\($0)") }
        for p in phones { w.register(.fcmV1, p.handle ?? "") }
        func tokenFetches() -> Int { w.hubRequests(authority: "oauth2.googleapis.com").count }
        // Three registrations in one send wait for one token request.
        #expect(w.send(format: "fcmv1", body: Payload.fcm)?.status == 201)
        #expect(tokenFetches() == 1)
        #expect(phones.allSatisfy { $0.pushes.count == 1 })
        // Reused while valid (an hour, renewed 5 minutes early) ...
        w.advance(.minutes(50))
        #expect(w.send(format: "fcmv1", body: Payload.fcm)?.status == 201)
        #expect(tokenFetches() == 1)
        // ... and fetched again once it is due.
        w.advance(.minutes(6))
        #expect(w.send(format: "fcmv1", body: Payload.fcm)?.status == 201)
        #expect(tokenFetches() == 2)
        #expect(phones.allSatisfy { $0.pushes.count == 3 })
        #expect(w.events("fcm.rejected").isEmpty)
        #expect(w.events("fcm.access-token-issued").count == 2)
        let bearers = w.hubRequests(authority: "fcm.googleapis.com").map { $0.request.headers["Authorization"] ?? "" }
        #expect(Set(bearers.prefix(6)).count == 1)
        #expect(bearers[6] != bearers[0])
    }

    @Test func fcm401RenewsTheAccessTokenAndRetriesOnce() {
        let w = HubWorld(services: false)
        var issued = 0
        let fcm = ScriptedPNS(w.world, name: "fcm", aliases: [FCMService.apiHost, FCMService.oauthHost]) { request, _ in
            if request.authority == FCMService.oauthHost {
                issued += 1
                return HTTPResponse(status: 200, text: #"{"access_token":"tok-\#(issued)","expires_in":3599,"token_type":"Bearer"}"#)
            }
            if request.headers["Authorization"] == "Bearer tok-1" { return FCMError.invalidCredentials.response }
            return HTTPResponse(status: 200, text: #"{"name":"projects/example-notify/messages/1"}"#)
        }
        w.register(.fcmV1, "x:APA91bTOKEN")
        _ = w.send(format: "fcmv1", body: Payload.fcm)
        let sends = fcm.requests.filter { $0.request.authority == FCMService.apiHost }
        #expect(sends.map { $0.request.headers["Authorization"] } == ["Bearer tok-1", "Bearer tok-2"])
        #expect(issued == 2)
        #expect(w.events("hub.pns-accepted").count == 1)
    }

    @Test func unreachableTokenEndpointIsRetriedLikeAnOutage() {
        let w = HubWorld()
        let phone = TestDevice.android(w, "android")
        w.register(.fcmV1, phone.handle ?? "")
        // Google's token endpoint (the fcm host) is down for the first few seconds of the send.
        w.world.setOnline("fcm", false)
        w.world.schedule(after: .seconds(5)) { w.world.setOnline("fcm", true) }
        #expect(w.send(format: "fcmv1", body: Payload.fcm)?.status == 201)
        #expect(hubDrops(w).isEmpty)
        #expect(w.events("hub.pns-retry").first?[.reason]?.description.hasPrefix("the PNS token endpoint could not be reached") == true)
        #expect(phone.pushes.count == 1)
        #expect(w.hubRequests(authority: "oauth2.googleapis.com").filter { $0.result?.status == 200 }.count == 1)
    }

    @Test func tokenEndpointThatStaysDownDropsAfterThirtyMinutes() {
        let w = HubWorld(services: false)
        let oauth = ScriptedPNS(w.world, name: "fcm", aliases: [FCMService.apiHost, FCMService.oauthHost]) { _, _ in
            HTTPResponse(status: 503)
        }
        w.register(.fcmV1, "x:APA91bTOKEN")
        _ = w.send(format: "fcmv1", body: Payload.fcm)
        #expect(hubDrops(w).map { $0[.reason]?.description } == ["the PNS token endpoint could not be reached (503); not handed to the PNS within 30 minutes"])
        #expect(oauth.requests.count == 11)
        #expect(oauth.requests.allSatisfy { $0.request.authority == FCMService.oauthHost })
    }

    @Test func refusedFcmCredentialsDropTheNotification() {
        var bad = TestIdentity.fcmCredential
        bad.privateKey = TestIdentity.otherServiceAccountKey
        let w = HubWorld(configuration: TestIdentity.configuration(fcm: bad))
        let phone = TestDevice.android(w, "android")
        w.register(.fcmV1, phone.handle ?? "")
        _ = w.send(format: "fcmv1", body: Payload.fcm)
        #expect(w.events("hub.pns-auth-failed").map { $0[.endpoint]?.description } == ["oauth2.googleapis.com"])
        #expect(hubDrops(w).map { $0[.reason]?.description } == ["the PNS token endpoint refused the hub's credentials"])
        #expect(w.hubRequests(authority: "fcm.googleapis.com").isEmpty)
        #expect(phone.pushes.isEmpty)
    }

    @Test func wnsAccessTokenIsFetchedOnceForManyChannels() {
        let w = HubWorld()
        let pcs = (1...2).map { TestDevice.windows(w, "pc\($0)") }
        for p in pcs { w.register(.windows, p.handle ?? "") }
        _ = w.send(format: "windows", body: Payload.toast, headers: [("X-WNS-Type", "wns/toast")])
        _ = w.send(format: "windows", body: Payload.toast, headers: [("X-WNS-Type", "wns/toast")])
        #expect(w.hubRequests(authority: "login.live.com").count == 1)
        #expect(pcs.allSatisfy { $0.pushes.count == 2 })
    }
}
