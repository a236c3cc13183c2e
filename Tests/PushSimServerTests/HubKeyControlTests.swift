import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// `GET|POST /_pushsim/hub/key`: the key the served world's backends call the hub with. The
/// bridge driven directly (no sockets).
@Suite struct HubKeyControlTests {
    private func ask(_ bridge: WorldBridge, _ method: String, _ target: String, headers: [(name: String, value: String)] = [],
                     body: String = "") -> HTTPResponse {
        bridge.answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: 1)
    }

    private func json(_ response: HTTPResponse) -> JSONValue { (try? JSONParser.parse(response.body)) ?? .null }

    /// Bob's app asks the tutorial backend to notify Alice; the statuses the hub answered the
    /// backend's sends, from the journal.
    private func hubStatusesOfASend(_ bridge: WorldBridge) -> [Int64] {
        let basic = "Basic " + Base64.encode(Array("bob:bob".utf8))
        _ = ask(bridge, "POST", "/api/notifications?pns=apns&to_tag=alice", headers: [("Authorization", basic), ("Content-Type", "application/json")],
                body: "\"Hi\"")
        let journal = json(ask(bridge, "GET", "/_pushsim/journal?host=backend&path=/notifyusers/messages"))
        return journal["entries"]?.arrayValue?.compactMap { $0["status"]?.int64Value } ?? []
    }

    @Test func aListenKeyIsRefusedTheBackendsSendsAndFullRestoresThem() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 3), clock: .manual, anchor: testAnchor)
        #expect(json(ask(bridge, "GET", "/_pushsim/hub/key"))["key"] == "DefaultFullSharedAccessSignature")
        #expect(hubStatusesOfASend(bridge) == [201])

        let listen = ask(bridge, "POST", "/_pushsim/hub/key", body: #"{"key":"listen"}"#)
        #expect(listen.status == 200)
        #expect(json(listen)["key"] == "DefaultListenSharedAccessSignature")
        #expect(hubStatusesOfASend(bridge) == [201, 401])

        #expect(ask(bridge, "POST", "/_pushsim/hub/key", body: #"{"key":"full"}"#).status == 200)
        #expect(hubStatusesOfASend(bridge) == [201, 401, 201])

        _ = ask(bridge, "POST", "/_pushsim/hub/key", body: #"{"key":"listen"}"#)
        _ = ask(bridge, "POST", "/_pushsim/reset")
        #expect(json(ask(bridge, "GET", "/_pushsim/hub/key"))["key"] == "DefaultFullSharedAccessSignature")
    }

    @Test func anUnknownKeyIsRefusedAndNothingChanges() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 3), clock: .manual, anchor: testAnchor)
        let bad = ask(bridge, "POST", "/_pushsim/hub/key", body: #"{"key":"admin"}"#)
        #expect(bad.status == 400)
        #expect(json(bad)["error"]?["message"]?.stringValue?.hasPrefix("The hub has no policy 'admin'.") == true)
        #expect(ask(bridge, "POST", "/_pushsim/hub/key", body: #"{"kee":"listen"}"#).status == 400)
        #expect(ask(bridge, "PUT", "/_pushsim/hub/key").status == 405)
        #expect(json(ask(bridge, "GET", "/_pushsim/hub/key"))["key"] == "DefaultFullSharedAccessSignature")
    }
}
