import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// The user's notification settings through the control API: the same steps as the scenario
/// language's, a push APNs accepts and the phone keeps off screen, and the refusals.
@Suite struct ServePermissionTests {
    let identity = SimulationIdentity()

    func ask(_ bridge: WorldBridge, _ method: String, _ target: String, headers: [(name: String, value: String)] = [],
             body: String = "") -> HTTPResponse {
        bridge.answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: 1)
    }

    func json(_ response: HTTPResponse) -> JSONValue { (try? JSONParser.parse(response.body)) ?? .null }

    func push(_ bridge: WorldBridge, _ handle: String, _ alert: String) -> Int {
        let token = JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string(identity.apnsKeyID))]),
                                      claims: .object([("iss", .string(identity.apnsTeamID)), ("iat", .number(JSONNumber(testAnchor.unixSecondsAtZero)))]),
                                      signingKey: identity.apnsSigningKey)
        return ask(bridge, "POST", "/3/device/\(handle)", headers: [("authorization", "bearer \(token)"), ("apns-topic", identity.app.bundleID)],
                   body: #"{"aps":{"alert":"\#(alert)"}}"#).status
    }

    @Test func aDeniedPhoneKeepsThePushOffScreenUntilAllowed() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 4), clock: .manual, anchor: testAnchor)
        let created = json(ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"bob-iphone","platform":"ios"}"#))
        #expect(created["permission"]?.stringValue == "authorized")
        let handle = try #require(created["handle"]?.stringValue)
        let denied = ask(bridge, "POST", "/_pushsim/devices/bob-iphone/deny-notifications")
        #expect(denied.status == 200)
        #expect(json(denied)["permission"]?.stringValue == "denied")
        #expect(push(bridge, handle, "Hi") == 200)
        _ = ask(bridge, "POST", "/_pushsim/clock/advance", body: #"{"by":"1s"}"#)
        let phone = json(ask(bridge, "GET", "/_pushsim/devices/bob-iphone"))
        #expect(phone["notifications"] == .number(JSONNumber(0)))
        #expect(phone["suppressed"] == .number(JSONNumber(1)))
        let verdict = json(ask(bridge, "POST", "/_pushsim/expect", body: JSONValue.object(["expect": .string(#"bob-iphone suppressed "Hi""#)]).serialized()))
        #expect(verdict["holds"] == .bool(true), "\(verdict)")
        #expect(ask(bridge, "POST", "/_pushsim/devices/bob-iphone/allow-notifications").status == 200)
        #expect(push(bridge, handle, "Again") == 200)
        _ = ask(bridge, "POST", "/_pushsim/clock/advance", body: #"{"by":"1s"}"#)
        #expect(json(ask(bridge, "GET", "/_pushsim/devices/bob-iphone"))["notifications"] == .number(JSONNumber(1)))
    }

    @Test func aChannelIsNamedInTheBody() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 4), clock: .manual, anchor: testAnchor)
        _ = ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"ann-pixel","platform":"android"}"#)
        let off = ask(bridge, "POST", "/_pushsim/devices/ann-pixel/disable-channel", body: #"{"channel":"promotions"}"#)
        #expect(off.status == 200)
        #expect(json(off)["disabledChannels"] == .array([.string("promotions")]))
        let missing = ask(bridge, "POST", "/_pushsim/devices/ann-pixel/disable-channel", body: "{}")
        #expect(missing.status == 400)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("channel"))
        #expect(ask(bridge, "POST", "/_pushsim/devices/ann-pixel/disable-channel", body: "not json").status == 400)
        let on = ask(bridge, "POST", "/_pushsim/devices/ann-pixel/enable-channel", body: #"{"channel":"promotions"}"#)
        #expect(json(on)["disabledChannels"] == .array([]))
        let unknown = ask(bridge, "POST", "/_pushsim/devices/ann-pixel/mute")
        #expect(unknown.status == 404)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("deny-notifications"))
    }
}
