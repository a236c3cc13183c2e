import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimScenario
@testable import PushSimServer
import Testing

/// Raw bytes on the socket: limits, garbage, pipelining, clients that vanish, and the promise that
/// a request over the wire gets the same answer as the same request inside the world.
@Suite(.serialized) struct WireRobustnessTests {
    @Test func oversizedAndMalformedRequestsGetTheirStatus() throws {
        let s = try TestServer()
        let tooLarge = try RawClient(port: s.server.port)
        tooLarge.send("POST /_pushsim/devices HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n")
        let a413 = tooLarge.readAll()
        #expect(statusOf(a413) == 413)
        #expect(a413.contains("Connection: close"))
        tooLarge.close()

        let bigHeaders = try RawClient(port: s.server.port)
        bigHeaders.send("GET /_pushsim/clock HTTP/1.1\r\nX-Big: " + String(repeating: "h", count: 70_000) + "\r\n\r\n")
        #expect(statusOf(bigHeaders.readAll()) == 431)
        bigHeaders.close()

        let garbage = try RawClient(port: s.server.port)
        garbage.send("\u{1}\u{2} this is not http\r\n\r\n")
        let a400 = garbage.readAll()
        #expect(statusOf(a400) == 400)
        #expect(a400.contains(#"{"error":{"status":400"#))
        garbage.close()
    }

    @Test func aClientLeavingMidBodyHarmsNoOtherClient() async throws {
        let s = try TestServer()
        let leaver = try RawClient(port: s.server.port)
        leaver.send("POST /_pushsim/devices HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"name\":")
        let other = try RawClient(port: s.server.port)   // connected while the first is half-way
        leaver.close()
        other.send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(statusOf(other.readResponses(1).first ?? "") == 200)
        other.close()
        // Nothing of the half request reached the world, and the server still takes new clients.
        let devices = try await s.json("GET", "/_pushsim/devices")
        #expect(devices.value["devices"] == .array([]))
    }

    /// A thousand clients at once: the first 256 are served, the rest are told 503 and closed, the
    /// server stays up, and a client that comes afterwards is served as usual.
    @Test func aThousandConnectionsAtOnce() async throws {
        let s = try TestServer()
        let clients = try (0..<1_000).map { _ in try RawClient(port: s.server.port) }
        for c in clients { c.send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }
        let statuses = clients.map { statusOf($0.readAll()) }
        clients.forEach { $0.close() }
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(Set(statuses))")
        #expect(statuses.filter { $0 == 200 }.count >= 256)
        let after = try await s.json("GET", "/_pushsim/clock")
        #expect(after.status == 200)
    }

    @Test func pipelinedRequestsAreAnsweredInOrderOnOneConnection() throws {
        let s = try TestServer()
        let c = try RawClient(port: s.server.port)
        c.send("GET /_pushsim/devices/none HTTP/1.1\r\nHost: x\r\n\r\nGET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n"
               + "POST /_pushsim/clock/advance HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n{\"by\":\"1\r\n3\r\ns\"}\r\n0\r\n\r\n")
        let answers = c.readResponses(3)
        #expect(answers.map { statusOf($0) } == [404, 200, 200])
        #expect(answers.last?.contains("\"advancedMicroseconds\":1000000") == true)
        c.close()
    }

    /// The same APNs request, once over the wire and once from a scenario's world built the same
    /// way: the same fake gives the same status, header fields and body.
    @Test func theWireAndTheWorldGiveTheSameAnswer() async throws {
        let s = try TestServer(seed: 11)
        let created = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"eve-iphone","platform":"ios"}"#)
        let handle = try #require(created.value["handle"]?.stringValue)
        let token = s.apnsToken(unixNow: testAnchor.unixSecondsAtZero + 5)
        let body = #"{"aps":{"alert":"same everywhere"}}"#
        let raw = try RawClient(port: s.server.port)
        raw.send("POST /3/device/\(handle) HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: bearer \(token)\r\n"
                 + "apns-topic: \(s.identity.app.bundleID)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let wire = try #require(raw.readResponses(1).first)
        raw.close()

        // In the world: a simulation with the same seed and anchor, the device installed the same way.
        var options = Simulation.Options()
        options.anchor = testAnchor
        let simulation = Simulation(seed: 11, options: options)
        let device = simulation.addDevice("eve-iphone", .ios)
        simulation.world.newCorrelation()
        device.install()
        simulation.run(until: simulation.world.now + .seconds(2))
        #expect(device.handle == handle)
        var result: CallResult?
        simulation.world.call(HTTPRequest(method: "POST", authority: "api.push.apple.com", path: "/3/device/\(handle)",
                                          headers: HTTPHeaders([("authorization", "bearer \(token)"), ("apns-topic", s.identity.app.bundleID)]),
                                          body: Array(body.utf8)), from: "sdk") { result = $0 }
        simulation.run(until: simulation.world.now + .seconds(1))
        let inWorld = try #require(result?.response)

        let expected = HTTPResponseWriter.bytes(inWorld, keepAlive: true)
        #expect(wire == String(decoding: expected, as: UTF8.self))
        #expect(statusOf(wire) == 200)
    }

    /// A server runs for days: its world keeps the journal (the control API reads it) but not the
    /// trace, which nothing served reads and which grew by every event of every request (a bug).
    @Test func theServedWorldKeepsNoTrace() async throws {
        let s = try TestServer(seed: 12)
        _ = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"pixel","platform":"android"}"#)
        _ = try await s.request("GET", "/_pushsim/journal")
        let bridge = try #require(s.server.bridge as? WorldBridge)
        let (events, entries) = bridge.withSimulation { ($0.world.trace.events.count, $0.world.journal.entries.count) }
        #expect(events == 0)
        #expect(entries > 0)
    }

    @Test func theRecordHoldsEveryExchangeInOrder() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-record-\(getpid()).jsonl").path
        let bridge = try WorldBridge(setup: WorldSetup(seed: 3), clock: .manual, anchor: testAnchor, recordPath: path)
        let server = HTTPServer(bridge: bridge)
        try server.start()
        let c = try RawClient(port: server.port)
        c.send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        _ = c.readAll()
        c.close()
        server.stop()
        let all = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONParser.parse(String($0)) }
        // The first line is the header `pushsim replay` rebuilds the world from.
        #expect(all.first?["pushsimRecord"]?.int64Value == 1)
        #expect(all.first?["seed"]?.int64Value == 3)
        let lines = Array(all.dropFirst())
        #expect(lines.count == 2)
        #expect(lines.map { $0["seq"]?.int64Value } == [1, 2])
        #expect(lines.map { $0["route"]?.stringValue } == ["control", "none"])
        #expect(lines[1]["response"]?["status"]?.int64Value == 404)
        #expect(lines[0]["request"]?["headers"] == .array([.array(["Host", "x"])]))
        try? FileManager.default.removeItem(atPath: path)
    }
}
