import Testing
import PushSimKernel
@testable import PushSimScenario
import PushSimDevices
import PushSimBackend

/// Feeds hand-made trace events to a ``CrossUserDeliveryChecker``, as the trace would.
private final class Feed {
    let checker: CrossUserDeliveryChecker
    private var sequence = 0

    init(enforced: Bool = true) { checker = CrossUserDeliveryChecker(enforced: enforced) }

    func event(_ kind: String, _ host: String, correlation: String = "", at seconds: Int64 = 1, _ fields: [TraceEvent.Field] = []) {
        checker.observe(TraceEvent(sequence: sequence, time: .zero + .seconds(seconds), layer: "device", host: host, kind: TraceKind(kind),
                                   correlation: correlation, fields: fields))
        sequence += 1
    }

    func login(_ device: String, _ user: String) { event("app.login", device, [.init(.user, .string(user))]) }
    func logout(_ device: String) { event("app.logout", device, [.init(.user, "")]) }
    func uninstall(_ device: String) { event("device.uninstall", device) }
    func send(_ device: String, to recipient: String, _ correlation: String) {
        event("app.send", device, correlation: correlation,
              [.init(.pns, "apns"), .init(.to, .string(recipient)), .init(.message, "hi")])
    }
    func shown(_ device: String, _ correlation: String, _ text: String = "From alice: hi") {
        event("notification.shown", device, correlation: correlation, at: 2, [.init(.service, "apns"), .init(.text, .string(text))])
    }

    var result: InvariantResult { checker.result(leftovers: []) }
}

@Suite("Invariant: no cross-user delivery")
struct InvariantTests {
    @Test func notificationShownToItsRecipientIsFine() {
        let f = Feed()
        f.login("bob-iphone", "bob")
        f.login("alice-pixel", "alice")
        f.send("alice-pixel", to: "bob", "c0003")
        f.shown("bob-iphone", "c0003")
        #expect(f.result.holds)
        #expect(f.result.violations.isEmpty)
        #expect(f.result.name == "no cross-user delivery")
        #expect(f.result.enforced)
    }

    @Test func notificationShownToAnotherLoggedInUserIsAViolation() {
        let f = Feed()
        f.login("bob-iphone", "bob")
        f.login("mallory-pixel", "mallory")
        f.send("alice-pixel", to: "bob", "c0007")
        f.shown("bob-iphone", "c0007", "From alice: Meet at 6")
        f.shown("mallory-pixel", "c0007", "From alice: Meet at 6")
        #expect(!f.result.holds)
        #expect(f.result.violations.count == 1)
        let line = f.result.violations.first ?? ""
        for part in ["mallory-pixel", "user mallory", "sent to bob", "[c0007]", "From alice: Meet at 6"] {
            #expect(line.contains(part), "\(part) in \(line)")
        }
    }

    @Test func everyViolationIsReported() {
        let f = Feed()
        f.login("mallory-pixel", "mallory")
        f.login("eve-pc", "eve")
        f.send("alice-pixel", to: "bob", "c0001")
        f.send("carol-iphone", to: "dave", "c0002")
        f.shown("mallory-pixel", "c0001")
        f.shown("eve-pc", "c0002")
        f.shown("mallory-pixel", "c0002")
        #expect(f.result.violations.count == 3)
        #expect(f.result.violations.map { $0.contains("[c0002]") } == [false, true, true])
    }

    @Test func logoutForgetsTheUser() {
        let f = Feed()
        f.login("shared-ipad", "bob")
        f.send("alice-pixel", to: "alice", "c0001")
        f.logout("shared-ipad")
        // Nobody is logged in: the device is no longer bob's.
        f.shown("shared-ipad", "c0001")
        #expect(f.result.holds)
        f.login("shared-ipad", "carol")
        f.shown("shared-ipad", "c0001")
        #expect(f.result.violations.count == 1)
        #expect(f.result.violations.first?.contains("user carol") == true)
    }

    @Test func uninstallForgetsTheUser() {
        let f = Feed()
        f.login("bob-iphone", "bob")
        f.send("alice-pixel", to: "alice", "c0001")
        f.uninstall("bob-iphone")
        f.shown("bob-iphone", "c0001")
        #expect(f.result.holds)
    }

    @Test func loginAsAnotherUserReplacesTheUser() {
        let f = Feed()
        f.login("shared-ipad", "bob")
        f.login("shared-ipad", "carol")
        f.send("alice-pixel", to: "bob", "c0001")
        f.shown("shared-ipad", "c0001")
        #expect(f.result.violations.count == 1)
        #expect(f.result.violations.first?.contains("user carol") == true)
    }

    @Test func unknownCorrelationIsIgnored() {
        let f = Feed()
        f.login("bob-iphone", "bob")
        f.send("alice-pixel", to: "alice", "c0001")
        // Not the chain of any send (a notification sent by hand, or by another tool).
        f.shown("bob-iphone", "c0042")
        f.shown("bob-iphone", "")
        #expect(f.result.holds)
    }

    @Test func otherEventsAreIgnored() {
        let f = Feed()
        f.login("mallory-pixel", "mallory")
        f.send("alice-pixel", to: "bob", "c0001")
        f.event("notification.dropped", "mallory-pixel", correlation: "c0001", [.init(.reason, "device discarded it")])
        f.event("app.woken", "mallory-pixel", correlation: "c0001")
        #expect(f.result.holds)
    }

    @Test(arguments: [true, false])
    func enforcedIsWhatTheRunnerSaid(enforced: Bool) {
        #expect(Feed(enforced: enforced).result.enforced == enforced)
    }
}

/// The checker as the runner wires it: observing whole runs of the tag-injection story.
@Suite("Invariant: no cross-user delivery, end to end")
struct InvariantRunTests {
    /// Mallory asks for bob's tag, then alice sends to bob. `backends` sets each device's backend
    /// (a missing entry: the file's default, `backend` when given).
    private func tagInjection(backend: BackendFlavour? = nil, backends: [String: BackendFlavour] = [:],
                              expectations: String) throws -> ScenarioReport {
        func device(_ name: String, _ platform: String, _ user: String) -> String {
            "device \(name) \(platform) user \(user)" + (backends[name].map { " backend \($0.rawValue)" } ?? "")
        }
        let text = """
            scenario "tag injection"
            seed 29
            \(backend.map { "backend \($0.rawValue)" } ?? "")
            \(device("bob-pixel", "android", "bob"))
            \(device("mallory-pixel", "android", "mallory"))
            \(device("alice-pixel", "android", "alice"))
            at 0s bob-pixel install
            at 0s mallory-pixel install
            at 0s alice-pixel install
            at 1s bob-pixel login bob password bob
            at 1s mallory-pixel login mallory password mallory
            at 1s alice-pixel login alice password alice
            at 2s mallory-pixel register with tags username:bob
            at 5s alice-pixel send "Meet at 6" to bob via fcm
            expect bob-pixel shows "From alice: Meet at 6"
            \(expectations)
            """
        let scenario = try ScenarioParser.parse(text, path: "tag-injection.scenario").get()
        return try ScenarioRunner.run(scenario).get()
    }

    private func crossUser(_ report: ScenarioReport) -> InvariantResult? {
        report.invariants.first { $0.name == "no cross-user delivery" }
    }

    @Test func tutorialWorldReportsTheViolationWithoutFailing() throws {
        let report = try tagInjection(expectations: "expect mallory-pixel shows \"From alice: Meet at 6\"")
        let invariant = try #require(crossUser(report))
        #expect(invariant.enforced == false)
        #expect(invariant.violations.count == 1)
        let line = invariant.violations.first ?? ""
        for part in ["mallory-pixel", "user mallory", "sent to bob", "From alice: Meet at 6"] {
            #expect(line.contains(part), "\(part)")
        }
        // The story's own expectations hold, so the run passes; the text still notes the breach.
        #expect(report.results.allSatisfy { $0.passed })
        #expect(report.passed)
        #expect(report.text().contains("note  invariant \"no cross-user delivery\" broken 1 time(s) (not enforced"))
        #expect(!report.text().contains("replay:"))
    }

    @Test func hardenedWorldKeepsAndEnforcesTheInvariant() throws {
        let report = try tagInjection(backend: .hardened, expectations: """
            expect mallory-pixel register status 403
            expect mallory-pixel shows nothing
            """)
        let invariant = try #require(crossUser(report))
        #expect(invariant.enforced)
        #expect(invariant.holds)
        #expect(report.results.count == 3)
        #expect(report.results.allSatisfy { $0.passed })
        #expect(report.passed)
        #expect(!report.text().contains("invariant"))
    }

    @Test func everyDeviceChoosingHardenedIsEnforcedToo() throws {
        let all: [String: BackendFlavour] = ["bob-pixel": .hardened, "mallory-pixel": .hardened, "alice-pixel": .hardened]
        let report = try tagInjection(backends: all, expectations: "expect mallory-pixel shows nothing")
        #expect(crossUser(report)?.enforced == true)
        #expect(crossUser(report)?.holds == true)
    }

    @Test func oneTutorialDeviceMeansNotEnforced() throws {
        // Everyone on the hardened backend but mallory, whose tag request the tutorial backend accepts.
        let report = try tagInjection(backend: .hardened, backends: ["mallory-pixel": .tutorial],
                                      expectations: "expect mallory-pixel shows \"From alice: Meet at 6\"")
        let invariant = try #require(crossUser(report))
        #expect(invariant.enforced == false)
        #expect(invariant.violations.count == 1)
        #expect(report.passed)
    }

    @Test func brokenEnforcedInvariantFailsTheReport() throws {
        let scenario = try ScenarioParser.parse("scenario \"by hand\"\n", path: "by-hand.scenario").get()
        func report(enforced: Bool, violations: [String]) -> ScenarioReport {
            let invariant = InvariantResult(id: "cross-user-delivery", name: "no cross-user delivery", statement: "s",
                                            enforced: enforced, violations: violations)
            return ScenarioReport(scenario: scenario, seed: 3, results: [], invariants: [invariant], end: .quiescent,
                                  finalTime: .zero, events: 0, leftovers: [], trace: [])
        }
        let violation = "1s mallory-pixel (user mallory) showed a notification sent to bob [c0007]: From alice: hi"
        let broken = report(enforced: true, violations: [violation])
        #expect(!broken.passed)
        #expect(broken.text().contains("FAIL  invariant \"no cross-user delivery\" broken 1 time(s)\n"))
        #expect(broken.text().contains(violation))
        #expect(broken.text().contains("replay: swift run pushsim run by-hand.scenario --seed 3"))
        #expect(report(enforced: false, violations: [violation]).passed)
        let held = report(enforced: true, violations: [])
        #expect(held.passed)
        #expect(!held.text().contains("invariant"))
    }
}
