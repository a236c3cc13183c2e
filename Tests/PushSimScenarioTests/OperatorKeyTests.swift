import Testing
import PushSimHub
@testable import PushSimScenario

/// `operator key full|listen|policy "<name>"` and `hub policy "<name>" <rights>`: the key the
/// operator's hub calls are signed with, and the claims the hub then grants.
@Suite struct OperatorKeyTests {
    /// Bob registers; the operator sends and lists all registrations with `key` (nil: the default).
    private func run(key: String?, policies: String = "") throws -> ScenarioReport {
        let text = """
            scenario "keys"
            \(policies)
            device bob-iphone ios user bob
            at 0s bob-iphone install
            at 1s bob-iphone login bob password bob
            \(key.map { "at 2s operator key \($0)" } ?? "")
            at 3s operator send apple "{\\"aps\\":{\\"alert\\":\\"Goal\\"}}" to "username:bob"
            at 3s operator list registrations
            expect operator send status 201
            expect operator list status 200
            expect bob-iphone shows "Goal"
            """
        return try ScenarioRunner.run(try ScenarioParser.parse(text, path: "k.scenario").get()).get()
    }

    @Test func theFullKeySendsAndListsAsTheDefaultDoes() throws {
        #expect(try run(key: nil).results.map(\.passed) == [true, true, true])
        #expect(try run(key: "full").results.map(\.passed) == [true, true, true])
    }

    /// The hub answers a Listen key's send and full listing with 401 naming the missing claim,
    /// the detail the live hub gives (NH-SEC); nothing reaches Bob.
    @Test func aListenKeyIsRefusedSendsAndTheFullListing() throws {
        let report = try run(key: "listen")
        #expect(report.results.map(\.passed) == [false, false, false])
        #expect(report.results.map(\.seen).prefix(2) == ["send answers: 401 at 0+00:00:03.020", "list answers: 401 at 0+00:00:03.020"])
        let details = report.trace.filter { $0.kind.name == "hub.rejected" }.map { $0[.detail]?.description ?? "" }
        #expect(details == ["Send claim is required for this operation.", "Manage claim is required for this operation."])
    }

    /// A declared Send-only policy sends but may not read every registration.
    @Test func aDeclaredPolicyGrantsItsRightsOnly() throws {
        let report = try run(key: "policy \"marketing\"", policies: "hub policy \"marketing\" send")
        #expect(report.results.map(\.passed) == [true, false, true])
        #expect(report.settingsSummary.contains("hub policy \"marketing\" send;"))
    }

    @Test func theStatementsParse() throws {
        let s = try BobScenario.parse("""
            hub policy "ops.team_1" listen,manage
            operator key listen
            operator key policy "ops.team_1"
            operator key full
            """).get()
        #expect(s.settings == [.hubPolicy(HubAccessPolicy(name: "ops.team_1", rights: [.listen, .manage]))])
        #expect(s.actions.map(\.kind) == [.operator(.useKey(.listen)), .operator(.useKey(.policy("ops.team_1"))), .operator(.useKey(.full))])
        #expect(s.actions[1].kind.label == "key policy \"ops.team_1\"")
    }

    @Test(arguments: [
        ("operator key admin", 3, 14, "unknown key \"admin\""),
        ("operator key policy \"nope\"", 3, 21, "no hub policy \"nope\" is declared"),
        ("operator key", 3, 13, "expected full, listen or policy, found end of line"),
        ("hub policy \"p\" read", 3, 16, "unknown right \"read\""),
        ("hub policy \"p\" send,send", 3, 21, "right \"send\" is listed twice"),
        ("hub policy \"p\"", 3, 15, "expected the policy's rights: listen, send or manage, found end of line"),
        ("hub policy \"a;b\" send", 3, 14, "a policy's name takes letters, digits, \".\", \"-\" and \"_\", not \";\""),
        ("hub policy \"DefaultListenSharedAccessSignature\" send", 3, 12, "the hub already has a policy named \"DefaultListenSharedAccessSignature\""),
    ])
    func misusedKeysAndPoliciesAreLocated(_ body: String, _ line: Int, _ column: Int, _ message: String) throws {
        let d = try #require(BobScenario.firstError(body))
        #expect(d.location == SourceLocation(file: "t.scenario", line: line, column: column))
        #expect(d.message == message)
        #expect(d.hint != nil)
    }
}
