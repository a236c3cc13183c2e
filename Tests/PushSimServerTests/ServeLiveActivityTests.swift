import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// An iPhone's Live Activities through the control API (`ControlAPI+LiveActivities.swift`): the
/// steps, the tokens in the device's JSON, an ActivityKit push from a test as a backend sends it,
/// and the refusals.
@Suite struct ServeLiveActivityTests {
    let identity = SimulationIdentity()

    func ask(_ bridge: WorldBridge, _ method: String, _ target: String, headers: [(name: String, value: String)] = [],
             body: String = "") -> HTTPResponse {
        bridge.answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: 1)
    }

    func json(_ response: HTTPResponse) -> JSONValue { (try? JSONParser.parse(response.body)) ?? .null }

    func push(_ bridge: WorldBridge, _ token: String, _ aps: String) -> HTTPResponse {
        let jwt = JSONWebToken.apnsProviderToken(keyID: identity.apnsKeyID, teamID: identity.apnsTeamID,
                                                 issuedAt: testAnchor.unixSecondsAtZero, signingKey: identity.apnsSigningKey)
        return ask(bridge, "POST", "/3/device/\(token)", headers: [("authorization", "bearer \(jwt)"), ("apns-push-type", "liveactivity"),
                                                                   ("apns-topic", identity.app.bundleID + ".push-type.liveactivity")],
                   body: #"{"aps":{"# + aps + "}}")
    }

    @Test func aPushToStartTokenFromTheDevicesJSONStartsAnActivity() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 4), clock: .manual, anchor: testAnchor)
        #expect(ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"ann-iphone","platform":"ios","os":18}"#).status == 201)
        let observed = json(ask(bridge, "POST", "/_pushsim/devices/ann-iphone/observe-push-to-start", body: #"{"attributesType":"MatchAttributes"}"#))
        let token = try #require(observed["pushToStartTokens"]?["MatchAttributes"]?.stringValue)
        let start = #""timestamp":\#(testAnchor.unixSecondsAtZero),"event":"start","content-state":{"home":0},"attributes-type":"MatchAttributes","attributes":{}"#
        #expect(push(bridge, token, start).status == 200)
        _ = ask(bridge, "POST", "/_pushsim/clock/advance", body: #"{"by":"1s"}"#)
        let phone = json(ask(bridge, "GET", "/_pushsim/devices/ann-iphone"))
        let activity = try #require(phone["liveActivities"]?.arrayValue?.first)
        #expect(activity["state"]?.stringValue == "active")
        #expect(activity["contentState"]?["home"]?.int64Value == 0)
        #expect(activity["updateToken"]?.stringValue != nil)
    }

    @Test func theAppStartsAndEndsOneAndBadBodiesAre400() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 4), clock: .manual, anchor: testAnchor)
        _ = ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"bob-iphone","platform":"ios","os":17}"#)
        let started = ask(bridge, "POST", "/_pushsim/devices/bob-iphone/start-live-activity",
                          body: #"{"attributesType":"T","contentState":{"eta":"12:30"},"staleAfter":"10m"}"#)
        #expect(started.status == 200)
        #expect(json(started)["liveActivities"]?.arrayValue?.count == 1)
        let ended = json(ask(bridge, "POST", "/_pushsim/devices/bob-iphone/end-live-activity", body: #"{"dismissAfter":"5m"}"#))
        #expect(ended["liveActivities"]?.arrayValue?.first?["state"]?.stringValue == "ended")
        #expect(ask(bridge, "POST", "/_pushsim/devices/bob-iphone/start-live-activity", body: #"{"attributesType":"T","contentState":1}"#).status == 400)
        #expect(ask(bridge, "POST", "/_pushsim/devices/bob-iphone/observe-push-to-start", body: "{}").status == 400)
        #expect(ask(bridge, "POST", "/_pushsim/devices/bob-iphone/end-live-activity", body: #"{"dismissAfter":"soon"}"#).status == 400)
        #expect(ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"x","platform":"ios","os":"18"}"#).status == 400)
        #expect(String(decoding: ask(bridge, "POST", "/_pushsim/devices/bob-iphone/mute").body, as: UTF8.self).contains("start-live-activity"))
    }
}
