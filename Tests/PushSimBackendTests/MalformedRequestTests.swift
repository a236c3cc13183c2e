import Testing
@testable import PushSimBackend
import PushSimKernel
import PushSimNetwork
import PushSimDevices
import PushSimScenario

/// Malformed requests to either backend (bad JSON, missing fields, unknown pns, odd methods and
/// paths, huge bodies) never crash the simulation: each gets an HTTP answer, the tutorial one what
/// its code would give (including its 500s), the hardened one never a 5xx, and the world still
/// works afterwards.
@Suite("Backends: malformed requests")
struct MalformedRequestTests {
    static let fragments = ["{", "}", "[", "]", "\"", ":", ",", "null", "true", "1e999", "\"Platform\"", "\"apns\"", "\"fcm\"",
                            "\"wns\"", "\"gcm\"", "\"Handle\"", "\"AB12\"", "\"Tags\"", "\"username:bob\"", "\\u0000", "<toast>", "&", "é", " "]
    static let paths = ["/api/register", "/api/register/reg-000001", "/api/register/", "/api/notifications", "/api", "/",
                        "/api/register/reg-000001/extra", "/API/REGISTER", "/api/notifications/x"]
    static let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
    static let queries: [[(String, String)]] = [[], [("handle", "AB12")], [("handle", "")], [("pns", "apns"), ("to_tag", "bob")],
                                                [("pns", "gcm"), ("to_tag", "bob")], [("pns", "mpns")], [("pns", ""), ("to_tag", "")],
                                                [("to_tag", "username:bob || x")]]
    static let auths = ["", "Basic Ym9iOmJvYg==", "Basic !!!", "Bearer x", "Basic " + Base64.encode(Array("bob:wrong".utf8)),
                        "Basic " + Base64.encode(Array("nocolon".utf8))]

    @Test(arguments: [UInt64(1), 2, 3])
    func randomRequestsAlwaysGetAnAnswerAndTheWorldGoesOn(seed: UInt64) throws {
        let sim = Simulation(seed: seed)
        let bob = sim.addDevice("bob-iphone", .ios, user: "bob")
        let alice = sim.addDevice("alice-pixel", .android, user: "alice")
        var random = SeededRandom(seed: seed).fork("malformed")
        var answers: [(backend: String, status: Int?)] = []
        for i in 0..<300 {
            let hardened = i % 2 == 1
            var body = ""
            for _ in 0..<random.int(below: 12) { body += random.pick(Self.fragments)! }
            if random.chance(Ratio(1, 50)) { body = String(repeating: "x", count: 70_000) }
            var headers = HTTPHeaders()
            let auth = random.pick(Self.auths)!
            if !auth.isEmpty { headers.add("Authorization", auth) }
            let request = HTTPRequest(method: random.pick(Self.methods)!,
                                      authority: hardened ? "pushsim-backend-hardened.azurewebsites.net" : "pushsim-backend.azurewebsites.net",
                                      path: random.pick(Self.paths)!, query: random.pick(Self.queries)!, headers: headers, body: Array(body.utf8))
            sim.world.schedule(at: .zero + .milliseconds(Int64(i) * 7)) {
                sim.world.call(request, from: "fuzzer") { answers.append((hardened ? "hardened" : "tutorial", $0.status)) }
            }
        }
        sim.at(.zero + .seconds(10)) { bob.install(); alice.install() }
        sim.at(.zero + .seconds(11)) { bob.login(user: "bob", password: "bob"); alice.login(user: "alice", password: "alice") }
        sim.at(.zero + .seconds(15)) { alice.send("still working", to: "bob", via: [.apns]) }
        let end = sim.run()
        #expect(end == .quiescent)
        #expect(answers.count == 300)
        #expect(answers.allSatisfy { $0.status != nil }, "every request gets an HTTP answer")
        #expect(answers.filter { $0.backend == "hardened" }.allSatisfy { ($0.status ?? 500) < 500 }, "the hardened backend answers 4xx, never 5xx")
        #expect(answers.contains { $0.backend == "tutorial" && $0.status == 500 }, "the tutorial backend's defects do give 500s")
        #expect(bob.inbox.map(\.text) == ["From alice: still working"])
    }

    @Test func hugeBodiesAreRefusedByBothBackends() {
        let sim = Simulation(seed: 1)
        sim.addDevice("bob-iphone", .ios, user: "bob")   // gives bob an account on the hardened backend
        var statuses: [String: Int] = [:]
        let huge = Array(repeating: UInt8(ascii: "x"), count: 5_000_000)
        for (name, host) in [("tutorial", "pushsim-backend.azurewebsites.net"), ("hardened", "pushsim-backend-hardened.azurewebsites.net")] {
            let request = HTTPRequest(method: "POST", authority: host, path: "/api/notifications", query: [("pns", "apns"), ("to_tag", "bob")],
                                      headers: ["Authorization": "Basic Ym9iOmJvYg=="], body: huge)
            sim.world.call(request, from: "fuzzer") { statuses[name] = $0.status }
        }
        sim.run()
        #expect(statuses["tutorial"] == 500)   // ASP.NET: Maximum request length exceeded
        #expect(statuses["hardened"] == 413)
        #expect(sim.world.trace.events.contains { $0.kind.name == "backend.exception" && $0[.exception]?.description.contains("Maximum request length") == true })
    }

    /// The hardened backend's handle check reads bytes for ASCII handles and scalars otherwise,
    /// and refuses what the Character-based check refused.
    @Test func handlesThatCouldBreakOutOfTheFilterQuotes() {
        for handle in ["a'b", "a b", "a\tb", "a\nb", "a\u{A0}b", "a\u{2028}b", "é'", "\u{3000}"] {
            #expect(HardenedBackend.couldBreakOutOfQuotes(handle), "\(handle.debugDescription)")
            #expect(handle.contains { $0 == "'" || $0.isWhitespace })
        }
        for handle in ["0123abcdef", "https://cloud.notify.windows.com/?token=AwYAAAB%2B", "bk3RNwTe3H0:CI2k_HHwgIpoDKCIZvvDMExUdFQ3P1", "é"] {
            #expect(!HardenedBackend.couldBreakOutOfQuotes(handle), "\(handle)")
        }
    }
}
