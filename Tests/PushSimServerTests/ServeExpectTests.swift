import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// `POST /_pushsim/expect`: an expectation in the scenario language, judged on the served world by
/// the scenario runner's own evaluator.
@Suite struct ServeExpectTests {
    let identity = SimulationIdentity()

    func ask(_ bridge: WorldBridge, _ method: String, _ target: String, headers: [(name: String, value: String)] = [],
             body: String = "") -> HTTPResponse {
        bridge.answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: 1)
    }

    func json(_ response: HTTPResponse) -> JSONValue { (try? JSONParser.parse(response.body)) ?? .null }

    func expect(_ bridge: WorldBridge, _ text: String) -> (status: Int, value: JSONValue) {
        let body = JSONValue.object(["expect": .string(text)]).serialized()
        let r = ask(bridge, "POST", "/_pushsim/expect", body: body)
        return (r.status, json(r))
    }

    func phoneWithAPush(clock: ClockPolicy) throws -> WorldBridge {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 4), clock: clock, anchor: testAnchor)
        let handle = try #require(json(ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"bob-iphone","platform":"ios"}"#))["handle"]?.stringValue)
        let token = JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string(identity.apnsKeyID))]),
                                      claims: .object([("iss", .string(identity.apnsTeamID)), ("iat", .number(JSONNumber(testAnchor.unixSecondsAtZero)))]),
                                      signingKey: identity.apnsSigningKey)
        let sent = ask(bridge, "POST", "/3/device/\(handle)", headers: [("authorization", "bearer \(token)"), ("apns-topic", identity.app.bundleID)],
                       body: #"{"aps":{"alert":"Hi"}}"#)
        #expect(sent.status == 200)
        return bridge
    }

    /// Right after a send straight to APNs the phone has not shown it yet (the delivery takes
    /// 10 ms of the world's time); `by +1s` waits for it.
    @Test func anExpectationIsJudgedNowOrWaitedForWithBy() throws {
        let bridge = try phoneWithAPush(clock: .manual)
        let now = expect(bridge, #"bob-iphone shows "Hi""#)
        #expect(now.status == 200)
        #expect(now.value["holds"] == .bool(false))
        #expect(now.value["seen"]?.stringValue == "bob-iphone showed nothing")
        #expect(now.value["verdict"]?.stringValue?.hasPrefix("FAIL  expect bob-iphone shows") == true)
        let waited = expect(bridge, #"expect bob-iphone shows "Hi" by +1s"#)
        #expect(waited.value["holds"] == .bool(true), "\(waited.value)")
        #expect(expect(bridge, "apns received 1 request with status 200").value["holds"] == .bool(true))
        #expect(expect(bridge, "invariant cross-user-delivery holds").value["holds"] == .bool(true))
        #expect(expect(bridge, "bob-iphone shows 2 notifications").value["holds"] == .bool(false))
    }

    /// Under `wall` a `by` waits for the wall clock to bring the world there.
    @Test func underWallByWaitsForTheWorld() throws {
        let bridge = try phoneWithAPush(clock: .wall)
        let waited = expect(bridge, #"bob-iphone shows "Hi" by +2s"#)
        #expect(waited.value["holds"] == .bool(true), "\(waited.value)")
        let missed = expect(bridge, #"bob-iphone shows "Bye" by +100ms"#)
        #expect(missed.value["holds"] == .bool(false))
    }

    @Test(arguments: [
        (#"{"expect":"bob-iphone shouts \"Hi\""}"#, "column 12"),
        (#"{"expect":"expect bob-iphone shouts \"Hi\""}"#, "column 19"),
        (#"{"expect":"nobody shows nothing"}"#, "never declared"),
        (#"{"expect":"bob-iphone shows nothing\nbob-iphone shows nothing"}"#, "one line"),
        (#"{"expect":"bob-iphone install"}"#, "column"),
        (#"{"expect":3}"#, "expect"),
        (#"{"expect":"bob-iphone shows nothing","by":"5s"}"#, "\"by\""),
        ("nonsense", "JSON"),
    ])
    func expectationsThatCannotBeReadAre400(body: String, says: String) throws {
        let bridge = try phoneWithAPush(clock: .manual)
        let r = ask(bridge, "POST", "/_pushsim/expect", body: body)
        #expect(r.status == 400)
        let message = json(r)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(says), "\(body): \(message)")
    }
}
