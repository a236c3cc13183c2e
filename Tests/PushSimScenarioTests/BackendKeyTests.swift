import Testing
import PushSimHub
@testable import PushSimScenario

/// `backend key full|listen|policy "<name>"`: the hub policy whose key the built-in backends sign
/// their hub calls with, and the claims the hub then grants them (NH-SEC).
@Suite struct BackendKeyTests {
    /// Bob logs in (the backend registers his iPhone) and Alice sends him a message through the
    /// backend of `flavour`, whose key is `key` (nil: the default).
    private func run(key: String?, policies: String = "", flavour: String = "tutorial") throws -> ScenarioReport {
        let text = """
            scenario "backend keys"
            backend \(flavour)
            \(policies)
            \(key.map { "backend key \($0)" } ?? "")
            device bob-iphone ios user bob
            device alice-pixel android user alice
            at 0s bob-iphone install
            at 0s alice-pixel install
            at 1s bob-iphone login bob password bob
            at 1s alice-pixel login alice password alice
            at 5s alice-pixel send "Hi" to bob via apns
            expect bob-iphone register status every 200
            expect alice-pixel send status every 200
            expect bob-iphone shows "From alice: Hi"
            """
        return try ScenarioRunner.run(try ScenarioParser.parse(text, path: "k.scenario").get()).get()
    }

    private func rejections(_ report: ScenarioReport) -> [String] {
        report.trace.filter { $0.kind.name == "hub.rejected" }.map { $0[.detail]?.description ?? "" }
    }

    @Test func theFullKeyIsTheDefault() throws {
        #expect(try run(key: nil).results.map(\.passed) == [true, true, true])
        let full = try run(key: "full")
        #expect(full.results.map(\.passed) == [true, true, true])
        #expect(!full.settingsSummary.contains("backend key"))
    }

    /// A Listen key registers devices but its sends are 401: the tutorial's backend answers 500,
    /// the hardened one 503, and nothing reaches Bob. The run's header says which key.
    @Test func aListenKeyRegistersButCannotSend() throws {
        let tutorial = try run(key: "listen")
        #expect(tutorial.results.map(\.passed) == [true, false, false])
        #expect(tutorial.results[1].seen.hasPrefix("send answers: 500"), "\(tutorial.results[1].seen)")
        #expect(rejections(tutorial) == ["Send claim is required for this operation."])
        #expect(tutorial.text().contains("settings: epoch 2026-01-01T00:00:00Z; backend tutorial; backend key listen; devices:"), "\(tutorial.text())")
        let hardened = try run(key: "listen", flavour: "hardened")
        #expect(hardened.results.map(\.passed) == [true, false, false])
        #expect(hardened.results[1].seen.hasPrefix("send answers: 503"), "\(hardened.results[1].seen)")
    }

    /// A declared Send-only policy sends but may not register: Bob is never registered, so the
    /// send reaches no one.
    @Test func aSendOnlyPolicyCannotRegister() throws {
        let report = try run(key: "policy \"sender\"", policies: "hub policy \"sender\" send")
        #expect(report.results.map(\.passed) == [false, true, false])
        #expect(rejections(report).first == "Listen claim is required for this operation.")
        #expect(report.settingsSummary.contains("backend tutorial; backend key policy \"sender\"; hub policy \"sender\" send;"))
    }

    @Test func theSettingParses() throws {
        let s = try BobScenario.parse("""
            hub policy "ops" listen,send
            backend key listen
            backend key policy "ops"
            """).get()
        #expect(s.settings == [.hubPolicy(HubAccessPolicy(name: "ops", rights: [.listen, .send])), .backendKey(.listen), .backendKey(.policy("ops"))])
        #expect(ScenarioRunner.simulationOptions(for: s).backendHubKeyName == "ops")
    }

    @Test(arguments: [
        ("backend key admin", 13, "unknown key \"admin\""),
        ("backend key", 12, "expected full, listen or policy, found end of line"),
        ("backend key policy \"nope\"", 20, "no hub policy \"nope\" is declared"),
        ("backend key listen now", 20, "unexpected \"now\" after the end of the statement"),
    ])
    func misusedBackendKeysAreLocated(_ body: String, _ column: Int, _ message: String) throws {
        let d = try #require(BobScenario.firstError(body))
        #expect(d.location == SourceLocation(file: "t.scenario", line: 3, column: column))
        #expect(d.message == message)
        #expect(d.hint != nil)
    }
}
