import Testing
import PushSimKernel
import PushSimHub
@testable import PushSimDevices
@testable import PushSimScenario

/// A browser registering with the hub through the hardened backend (`<browser> login <user>
/// password <password> [template "<body>"]`) and a device sending `via browser`: the step parses,
/// each misuse is an error where it is written, and the run does what the step says.
@Suite struct HubBrowserLanguageTests {
    static let head = "scenario \"t\"\nbrowser bob-chrome chrome\ndevice ann-pixel android user ann client recommended backend hardened\n"

    private func diagnostics(_ body: String) -> [ScenarioDiagnostic] {
        guard case .failure(let failure) = ScenarioParser.parse(Self.head + body, path: "t.scenario") else { return [] }
        return failure.diagnostics
    }

    @Test func theStepsParse() throws {
        let text = Self.head + """
            at 1s bob-chrome login bob password secret
            at 2s bob-chrome login bob password secret template "{\\"body\\":\\"$(message)\\"}"
            at 3s ann-pixel send "hi" to bob via apns,browser
            expect bob-chrome shows nothing
            """
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        #expect(scenario.actions.map(\.kind) == [
            .webPush(.login(user: "bob", password: "secret", template: nil)),
            .webPush(.login(user: "bob", password: "secret", template: #"{"body":"$(message)"}"#)),
            .device(.send(message: "hi", to: "bob", via: [.apns, .browser])),
        ])
    }

    @Test(arguments: [
        ("at 1s bob-chrome login bob", 4, 27, "\"password\""),
        ("at 1s bob-chrome login bob password", 4, 36, "the user's password"),
        ("at 1s bob-chrome login bob password b template \"plain\"", 4, 48, "a browser template must be a JSON object"),
        ("at 1s bob-chrome login bob password b fast", 4, 39, "unexpected \"fast\""),
        ("at 1s ann-pixel send \"x\" to bob via pigeon", 4, 37, "pigeon"),
    ])
    func misuseIsAnErrorWhereItIsWritten(line: String, row: Int, column: Int, says: String) {
        expectOneDiagnostic(diagnostics(line), row: row, column: column, says: says)
    }

    /// End to end: the browser that signed in shows the message sent `via browser` (decrypted
    /// from the hub's copy) and has a browser registration on the hub; its negation fails.
    @Test func aSignedInBrowserShowsWhatTheHubSends() throws {
        let text = Self.head + """
            browser cy-firefox firefox
            at 0s ann-pixel install
            at 1s ann-pixel login ann password ann
            at 1s bob-chrome login bob password bob
            at 5s ann-pixel send "hello" to bob via browser
            at 6s ann-pixel send "to cy" to cy via browser
            expect bob-chrome shows "From ann: hello" by 6s
            expect bob-chrome shows nothing
            expect cy-firefox shows nothing
            expect hub has 1 registration for "username:bob"
            expect ann-pixel send status every 200
            """
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, false, true, true, true])
        #expect(report.invariants.filter { !$0.holds }.map(\.name) == [])
    }
}
