import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimScenario
@testable import PushSimServer
import Testing

/// A backend outside the world, for the tests: a second server whose door plays the app backend.
/// It answers the register calls itself, and on `POST /api/register` first asks the hub, through
/// the scenario's loopback, how many registrations it holds (so each test sees both directions).
final class StandInBackend: ServerDoor, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []   // guarded by lock
    private var hubAnswers: [String] = []   // guarded by lock
    var hubBase = ""                   // set before the run starts
    let delaySeconds: UInt32

    init(delaySeconds: UInt32 = 0) { self.delaySeconds = delaySeconds }

    var requests: [String] { lock.withLock { seen } }
    /// The status of each hub call it made, in order.
    var hubStatuses: [String] { lock.withLock { hubAnswers } }

    func answer(_ request: WireRequest, connection: Int) -> HTTPResponse {
        lock.withLock { seen.append("\(request.method) \(request.target) auth=\(request.header("Authorization") ?? "-")") }
        if delaySeconds > 0 { sleep(delaySeconds) }   // a slow backend (test tooling, outside the world)
        switch (request.method, request.path) {
        case ("POST", "/api/register"):
            let identity = SimulationIdentity()
            let resource = hubBase + "/" + identity.hubName
            let sas = SharedAccessSignature.token(resource: resource, keyName: "DefaultFullSharedAccessSignature",
                                                  key: identity.hubFullKey, expiresAtUnixSeconds: 4_000_000_000)
            let hubRequest = HTTPRequest(method: "GET", authority: "hub", path: "/\(identity.hubName)/registrations/",
                                         query: [("api-version", "2015-01")], headers: ["Authorization": sas])
            let port = Int(hubBase.split(separator: ":").last!)!
            let hub = LoopbackHTTPClient.send(hubRequest, to: "127.0.0.1", port: port, hostHeader: "127.0.0.1:\(port)", timeoutSeconds: 5)
            let status = (try? hub.get().status).map(String.init) ?? "none"
            lock.withLock { hubAnswers.append(status) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "X-Hub-Status": status, "Date": "Tue, 24 Nov 2026 23:00:00 GMT"],
                                text: "\"reg-outside-1\"")
        default:
            return HTTPResponse(status: 200)
        }
    }
    func recordRefused(_ request: WireRequest, _ response: HTTPResponse) {}
    func configure(baseURL: String, keyFiles: ClientKeyFiles) {}
    func close() {}
}

@Suite("External backends over loopback", .serialized)
struct ExternalBackendTests {
    /// The loopback server (the hub's side) and the stand-in backend, each on a free port.
    private func servers(backend: StandInBackend, timeoutSeconds: Int = 5) throws -> (loopback: ScenarioLoopback, hub: HTTPServer, backend: HTTPServer) {
        let loopback = ScenarioLoopback(timeoutSeconds: timeoutSeconds)
        let hub = HTTPServer(bridge: loopback)
        try hub.start()
        backend.hubBase = hub.baseURL
        let backendServer = HTTPServer(bridge: backend)
        try backendServer.start()
        return (loopback, hub, backendServer)
    }

    private func scenario(_ backendPort: Int, _ body: String) throws -> Scenario {
        try ScenarioParser.parse("scenario \"external\"\nbackend external \"http://127.0.0.1:\(backendPort)\"\n" + body, path: "t.scenario").get()
    }

    @Test func phonesReachTheBackendAndTheBackendReachesTheHubInTheSameChain() throws {
        let backend = StandInBackend()
        let (loopback, hub, server) = try servers(backend: backend)
        defer { hub.stop(); server.stop() }
        let s = try scenario(server.port, "device bob ios user bob\nat 0s bob install\nat 1s bob login bob password bob\nexpect bob register status 200\n")
        let report = try ScenarioRunner.run(s, externalBackends: loopback).get()
        #expect(report.passed, "\(report.results.filter { !$0.passed })")
        #expect(backend.requests.count == 2)
        #expect(backend.requests[0].hasPrefix("POST /api/register?handle="))
        #expect(backend.requests[1].hasPrefix("PUT /api/register/reg-outside-1 auth=Basic "))
        // The backend's hub call entered the world from its host, in the phone's causal chain.
        let hubCall = try #require(report.trace.first { $0.kind.name == "http.request" && $0.host == "external-backend" })
        let phoneCall = try #require(report.trace.first { $0.kind.name == "http.request" && $0.host == "bob" && $0[.to]?.description == "external-backend" })
        #expect(hubCall.correlation == phoneCall.correlation)
        #expect(report.trace.contains { $0.kind.name == "http.response" && $0.host == "hub" && $0[.to]?.description == "external-backend" && $0[.status]?.description == "200" })
    }

    @Test func theSameRunTwiceGivesTheSameTrace() throws {
        let backend = StandInBackend()
        let (loopback, hub, server) = try servers(backend: backend)
        defer { hub.stop(); server.stop() }
        let s = try scenario(server.port, "device bob ios user bob\ndevice alice android user alice\nat 0s bob install\nat 0s alice install\n"
                                + "at 1s bob login bob password bob\nat 1s alice login alice password alice\n")
        let first = try ScenarioRunner.run(s, externalBackends: loopback).get()
        let second = try ScenarioRunner.run(s, externalBackends: loopback).get()
        #expect(first.trace == second.trace)
        #expect(!first.trace.contains { $0.fields.contains { $0.value.description.contains("GMT") } })
    }

    /// Three phones ask at the same instant: the world, waiting for the first answer, delivers the
    /// second request meanwhile, and the backend's hub calls for both are served by nested runs.
    /// (Before: a nested run stopped at whichever answer came first, and the other hub call was
    /// answered 504.)
    @Test func requestsThatArriveWhileTheWorldWaitsAreEachAnswered() throws {
        let backend = StandInBackend()
        let (loopback, hub, server) = try servers(backend: backend)
        defer { hub.stop(); server.stop() }
        let s = try scenario(server.port, "network latency 1ms..40ms\ndevices crowd 6 ios,android,windows\nat 0s crowd install\n"
                                + "at 1s crowd login x password x\n")
        let report = try ScenarioRunner.run(s, seed: 3, externalBackends: loopback).get()
        #expect(backend.hubStatuses.count == 6)
        #expect(backend.hubStatuses.allSatisfy { $0 == "200" }, "\(backend.hubStatuses)")
        #expect(report.trace.filter { $0.kind.name == "app.registered" }.count == 6)
    }

    @Test func aBackendThatIsNotThereFailsTheCallAsUnreachable() throws {
        let loopback = ScenarioLoopback(timeoutSeconds: 2)
        let hub = HTTPServer(bridge: loopback)
        try hub.start()
        defer { hub.stop() }
        let unused = try Socket.listen(host: "127.0.0.1", port: 0)   // a port nothing will accept on
        let port = Socket.localPort(unused)
        close(unused)
        let s = try scenario(port, "device bob ios user bob\nat 0s bob install\nat 1s bob login bob password bob\nexpect bob create-id status 200\n")
        let report = try ScenarioRunner.run(s, externalBackends: loopback).get()
        #expect(!report.passed)
        let failed = try #require(report.trace.first { $0.kind.name == "external.failed" })
        #expect(failed[.reason]?.description.hasPrefix("cannot reach http://127.0.0.1:\(port)") == true)
        #expect(report.trace.contains { $0.kind.name == "http.failure" && $0.host == "bob" && $0[.error]?.description == "host unreachable" })
    }

    @Test func aBackendSlowerThanTheTimeoutFailsTheCallAsTimedOut() throws {
        let backend = StandInBackend(delaySeconds: 3)
        let (loopback, hub, server) = try servers(backend: backend, timeoutSeconds: 1)
        defer { hub.stop(); server.stop() }
        let s = try scenario(server.port, "device bob ios user bob\nat 0s bob install\nat 1s bob login bob password bob\n")
        let report = try ScenarioRunner.run(s, externalBackends: loopback).get()
        #expect(report.trace.contains { $0.kind.name == "external.failed" && $0[.reason]?.description == "no answer within 1 s (wall clock)" })
        #expect(report.trace.contains { $0.kind.name == "http.failure" && $0.host == "bob" && $0[.error]?.description == "timed out" })
        // Virtual time did not run on while the world waited.
        let failure = try #require(report.trace.first { $0.kind.name == "http.failure" && $0.host == "bob" })
        #expect(failure.time < .zero + .seconds(2))
    }

    @Test func withoutAConnectorTheScenarioIsRefusedWhereItNamesTheBackend() throws {
        let s = try ScenarioParser.parse("scenario \"x\"\ndevice bob ios user bob backend external \"http://127.0.0.1:9\"\n", path: "t.scenario").get()
        guard case .failure(let failure) = ScenarioRunner.run(s) else { Issue.record("ran without a connector"); return }
        #expect(failure.diagnostics[0].location.line == 2)
        #expect(failure.diagnostics[0].message.contains("http://127.0.0.1:9"))
    }

    @Test func requestsOutsideAnExternalCallAreAnswered503AndInfoIsServed() throws {
        let loopback = ScenarioLoopback()
        let hub = HTTPServer(bridge: loopback)
        try hub.start()
        defer { hub.stop() }
        let port = hub.port
        let outside = LoopbackHTTPClient.send(HTTPRequest(method: "GET", authority: "x", path: "/notifyusers/registrations/"),
                                              to: "127.0.0.1", port: port, hostHeader: "127.0.0.1", timeoutSeconds: 5)
        #expect((try? outside.get().status) == 503)
        let info = try LoopbackHTTPClient.send(HTTPRequest(method: "GET", authority: "x", path: "/_pushsim/info"),
                                               to: "127.0.0.1", port: port, hostHeader: "127.0.0.1", timeoutSeconds: 5).get()
        #expect(info.status == 200)
        #expect(info.bodyText.contains("notifyusers"))
    }
}
