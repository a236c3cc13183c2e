import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// `GET /_pushsim/page`: the served session as a teaching page, made by replaying it into a world
/// that keeps its trace.
@Suite struct ServePageTests {
    let identity = SimulationIdentity()

    func ask(_ bridge: WorldBridge, _ method: String, _ target: String, headers: [(name: String, value: String)] = [],
             body: String = "") -> HTTPResponse {
        bridge.answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: 1)
    }

    func push(_ bridge: WorldBridge, _ handle: String, _ text: String) -> HTTPResponse {
        let token = JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string(identity.apnsKeyID))]),
                                      claims: .object([("iss", .string(identity.apnsTeamID)), ("iat", .number(JSONNumber(testAnchor.unixSecondsAtZero)))]),
                                      signingKey: identity.apnsSigningKey)
        return ask(bridge, "POST", "/3/device/\(handle)", headers: [("authorization", "bearer \(token)"), ("apns-topic", identity.app.bundleID)],
                   body: #"{"aps":{"alert":"\#(text)"}}"#)
    }

    @Test func thePageShowsTheSessionsExchangesAndWhatThePhoneShowed() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 3), clock: .manual, anchor: testAnchor)
        let created = try JSONParser.parse(ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"cy-iphone","platform":"ios"}"#).body)
        let handle = try #require(created["handle"]?.stringValue)
        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"outage","count":1}"#)
        #expect(push(bridge, handle, "First try").status == 503)
        #expect(push(bridge, handle, "Second try").status == 200)
        _ = ask(bridge, "GET", "/_pushsim/devices/cy-iphone/notifications?settle=1s")
        let page = ask(bridge, "GET", "/_pushsim/page")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("cy-iphone"))
        #expect(html.contains("Second try"))
        #expect(html.contains("ServiceUnavailable") || html.contains("503"))
        // The page is the same whenever it is asked (the world is not changed by asking).
        #expect(ask(bridge, "GET", "/_pushsim/page").body == page.body)
    }

    @Test func aResetStartsANewSessionAndAnOverlongOneIs413() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 3), clock: .manual, anchor: testAnchor)
        _ = ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"old-iphone","platform":"ios"}"#)
        _ = ask(bridge, "POST", "/_pushsim/reset")
        _ = ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"new-iphone","platform":"ios"}"#)
        let html = String(decoding: ask(bridge, "GET", "/_pushsim/page").body, as: UTF8.self)
        #expect(html.contains("new-iphone"))
        #expect(!html.contains("old-iphone"))
        for _ in 0..<10_001 { _ = ask(bridge, "GET", "/_pushsim/clock") }
        #expect(ask(bridge, "GET", "/_pushsim/page").status == 413)
    }
}
