import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// Live Activity tokens at the fake APNs (Citations §1.14–§1.16).
@Suite("APNs Live Activity tokens (Citations §1.14–§1.16)")
struct APNsLiveActivityTests {
    static let topic = APNsBench.bundle + ".push-type.liveactivity"
    static let update = #"{"aps":{"timestamp":1767225600,"event":"update","content-state":{"home":1}}}"#

    /// Asks APNs for a Live Activity token from the bench's phone; `body` overrides the request.
    private func liveActivityToken(_ bench: APNsBench, kind: LiveActivityTokenRequest.Kind = .update, subject: String = "activity-1",
                                   generation: Int = 1, environment: String = "production", body: [UInt8]? = nil) -> (status: Int?, token: String?) {
        let ask = LiveActivityTokenRequest(app: APNsBench.bundle, install: 1, environment: environment, kind: kind, subject: subject, generation: generation)
        var answer: (Int?, String?) = (nil, nil)
        bench.world.call(HTTPRequest(method: "POST", authority: APNsService.deviceHost, path: LiveActivityTokenRequest.path, body: body ?? ask.body),
                         from: bench.phone.name) { result in
            answer = (result.status, result.response.flatMap { try? JSONParser.parse($0.body) }?["token"]?.stringValue)
        }
        bench.world.run()
        return answer
    }

    private func sendUpdate(_ bench: APNsBench, to token: String, pushType: String = "liveactivity", topic: String = Self.topic,
                            host: String = APNsService.productionHost) -> HTTPResponse {
        bench.send(to: token, topic: topic, headers: [("apns-push-type", pushType)], body: Self.update, host: host)
    }

    @Test func aPushToALiveActivityTokenIsAcceptedAndReachesThePhone() throws {
        let bench = APNsBench()
        let token = try #require(liveActivityToken(bench).token)
        #expect(token.utf8.count == 64 && token.isAllHexDigits)
        let r = sendUpdate(bench, to: token)
        #expect(r.status == 200)
        let push = try #require(bench.phone.pushes.last)
        #expect(push.headers["apns-push-type"] == "liveactivity")
        #expect(push.headers[DeviceChannel.handleHeader] == token)
        #expect(push.text == Self.update)
    }

    @Test func theSameRequestGetsTheSameTokenAndARotationANewOne() {
        let bench = APNsBench()
        let first = liveActivityToken(bench).token, again = liveActivityToken(bench).token
        let rotated = liveActivityToken(bench, generation: 2).token
        let start = liveActivityToken(bench, kind: .pushToStart, subject: "MatchAttributes").token
        #expect(first != nil && first == again)
        #expect(rotated != nil && rotated != first)
        #expect(start != nil && start != first && start != rotated)
        #expect(bench.world.events("apns.token-issued").count == 4) // the device token and three Live Activity tokens
    }

    @Test func aMalformedTokenRequestIs400() {
        let bench = APNsBench()
        #expect(liveActivityToken(bench, body: Array(#"{"app":"x","kind":"sometimes"}"#.utf8)).status == 400)
        #expect(liveActivityToken(bench, generation: 0).status == 400)
    }

    @Test func aLiveActivityPushToTheAppsDeviceTokenIsDeviceTokenNotForTopic() {
        let bench = APNsBench()
        let r = sendUpdate(bench, to: bench.token)
        #expect(r.status == 400)
        #expect(r.bodyText == #"{"reason":"DeviceTokenNotForTopic"}"#)
        #expect(bench.phone.pushes.isEmpty)
    }

    @Test func anAlertPushToALiveActivityTokenIsDeviceTokenNotForTopic() throws {
        let bench = APNsBench()
        let token = try #require(liveActivityToken(bench).token)
        let r = bench.send(to: token)
        #expect(r.status == 400)
        #expect(r.bodyText == #"{"reason":"DeviceTokenNotForTopic"}"#)
    }

    @Test func aLiveActivityTokenIsUnknownInTheOtherEnvironment() throws {
        let bench = APNsBench()
        let token = try #require(liveActivityToken(bench).token)
        let r = sendUpdate(bench, to: token, host: APNsService.sandboxHost)
        #expect(r.status == 400)
        #expect(r.bodyText == #"{"reason":"BadDeviceToken"}"#)
    }

    @Test func aTokenWhoseActivityIsGoneIsAnswered410ExpiredTokenOnceAPushFoundItGone() throws {
        let bench = APNsBench()
        let token = try #require(liveActivityToken(bench).token)
        bench.phone.uninstall()
        #expect(sendUpdate(bench, to: token).status == 200)   // APNs learns it from this delivery
        let learnt = try #require(bench.world.events("apns.token-invalidated").first).time
        let r = sendUpdate(bench, to: token)
        #expect(r.status == 410)
        #expect(r.bodyText == #"{"reason":"ExpiredToken","timestamp":\#(bench.world.anchor.unixMilliseconds(learnt))}"#)
        // The app's device token is another matter: APNs has not learnt anything about it.
        #expect(bench.apns.tokens[bench.token]?.invalidatedAt == nil)
    }

    /// A fault aimed at the phone or the app hits its Live Activity pushes as it hits its other
    /// pushes ("make APNs answer 503 for this phone"): before, a Live Activity token skipped the
    /// targeted faults and was answered 200.
    @Test func aFaultAimedAtThePhoneHitsItsLiveActivityPushes() throws {
        let bench = APNsBench()
        let token = try #require(liveActivityToken(bench).token)
        let window = bench.world.now..<(bench.world.now + .hours(1))
        bench.apns.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(30)), window: window, scope: .device(bench.phone.name))]
        let r = sendUpdate(bench, to: token)
        #expect(r.status == 503)
        #expect(r.bodyText == #"{"reason":"ServiceUnavailable"}"#)
        bench.apns.faults = [ServiceFault(effect: .refuse("Unregistered"), window: window, scope: .app(APNsBench.bundle))]
        #expect(sendUpdate(bench, to: token).status == 410)
    }
}
