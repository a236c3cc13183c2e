import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// APNs broadcast channels through `pushsim serve` (Citations §1.20): the channel management API
/// and broadcasts reached by path on the one port, and a Live Activity started through the
/// control API on an iPhone created with `"os":18`.
@Suite struct ServeBroadcastTests {
    let identity = SimulationIdentity()

    func ask(_ bridge: WorldBridge, _ method: String, _ target: String, headers: [(name: String, value: String)] = [],
             body: String = "") -> HTTPResponse {
        bridge.answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: 1)
    }

    func json(_ response: HTTPResponse) -> JSONValue { (try? JSONParser.parse(response.body)) ?? .null }

    var authorization: (name: String, value: String) {
        let token = JSONWebToken.apnsProviderToken(keyID: identity.apnsKeyID, teamID: identity.apnsTeamID,
                                                   issuedAt: testAnchor.unixSecondsAtZero, signingKey: identity.apnsSigningKey)
        return ("authorization", "bearer \(token)")
    }

    @Test func aBroadcastThroughTheServerUpdatesTheActivity() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 4), clock: .manual, anchor: testAnchor)
        let bundle = identity.app.bundleID
        let created = ask(bridge, "POST", "/1/apps/\(bundle)/channels", headers: [authorization],
                          body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        #expect(created.status == 201)
        let channel = try #require(created.headers["apns-channel-id"])
        let phone = ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"ann-iphone","platform":"ios","os":18}"#)
        #expect(phone.status == 201)
        let started = ask(bridge, "POST", "/_pushsim/devices/ann-iphone/start-live-activity",
                          body: #"{"attributesType":"MatchAttributes","channel":"\#(channel)","contentState":{"score":"0-0"}}"#)
        #expect(started.status == 200)
        let shown = json(started)["liveActivities"]?.arrayValue?.first
        #expect(shown?["contentState"] == .object([("score", .string("0-0"))]))
        #expect(shown?["channel"] == .string(channel) && shown?["updateToken"] == .null)
        let sent = ask(bridge, "POST", "/4/broadcasts/apps/\(bundle)",
                       headers: [authorization, ("apns-channel-id", channel), ("apns-push-type", "liveactivity"), ("apns-expiration", "0")],
                       body: #"{"aps":{"timestamp":\#(testAnchor.unixSecondsAtZero + 10),"event":"update","content-state":{"score":"1-0"}}}"#)
        #expect(sent.status == 200 && sent.headers["apns-request-id"] != nil)
        _ = ask(bridge, "POST", "/_pushsim/clock/advance", body: #"{"by":"1s"}"#)
        let activity = json(ask(bridge, "GET", "/_pushsim/devices/ann-iphone"))["liveActivities"]?.arrayValue?.first
        #expect(activity?["contentState"] == .object([("score", .string("1-0"))]))
        #expect(activity?["updates"] == .number(JSONNumber(1)))
        let list = ask(bridge, "GET", "/1/apps/\(bundle)/all-channels", headers: [authorization])
        #expect(json(list) == .object([("channels", .array([.string(channel)]))]))
    }

    @Test func theBroadcastCapabilityIsSwitchedThroughTheControlAPI() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 4), clock: .manual, anchor: testAnchor)
        let create = { ask(bridge, "POST", "/1/apps/\(identity.app.bundleID)/channels", headers: [authorization],
                           body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#) }
        #expect(json(ask(bridge, "GET", "/_pushsim/apns/broadcast")) == .object([("enabled", .bool(true))]))
        #expect(ask(bridge, "POST", "/_pushsim/apns/broadcast", body: #"{"enabled":"no"}"#).status == 400)
        #expect(json(ask(bridge, "POST", "/_pushsim/apns/broadcast", body: #"{"enabled":false}"#)) == .object([("enabled", .bool(false))]))
        let refused = create()
        #expect(refused.status == 400 && json(refused) == .object([("reason", .string("FeatureNotEnabled"))]))
        _ = ask(bridge, "POST", "/_pushsim/apns/broadcast", body: #"{"enabled":true}"#)
        #expect(create().status == 201)
    }

    @Test func theControlAPIRefusesABadActivityOrOS() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 4), clock: .manual, anchor: testAnchor)
        #expect(ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"old","platform":"ios","os":"eighteen"}"#).status == 400)
        _ = ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"ann-iphone","platform":"ios","os":18}"#)
        let start = "/_pushsim/devices/ann-iphone/start-live-activity"
        #expect(ask(bridge, "POST", start, body: #"{"attributesType":"T","contentState":{},"channel":""}"#).status == 400)
        #expect(ask(bridge, "POST", start, body: #"{"attributesType":"T","contentState":{},"channel":7}"#).status == 400)
        // A channel APNs does not know: the subscription fails and no activity is started.
        let unknown = ask(bridge, "POST", start, body: #"{"attributesType":"T","contentState":{},"channel":"QUJD"}"#)
        #expect(unknown.status == 200)
        #expect(json(unknown)["liveActivities"] == .array([]))
        // The first form of the step is gone: its path is no device action.
        #expect(ask(bridge, "POST", "/_pushsim/devices/ann-iphone/start-activity", body: #"{"channel":"QUJD"}"#).status == 404)
    }
}
