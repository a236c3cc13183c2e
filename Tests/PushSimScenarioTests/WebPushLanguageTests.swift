import Testing
import PushSimKernel
@testable import PushSimDevices
@testable import PushSimScenario

/// Browsers and application servers in the scenario language: declarations, steps,
/// expectations, and positioned errors for each misuse.
@Suite struct WebPushLanguageTests {
    static let head = "scenario \"t\"\napp-server shop\nbrowser bob-chrome chrome\ndevice ann-pixel android\n"

    private func diagnostics(_ body: String) -> [ScenarioDiagnostic] {
        guard case .failure(let failure) = ScenarioParser.parse(Self.head + body, path: "t.scenario") else { return [] }
        return failure.diagnostics
    }

    @Test func theStatementsParse() throws {
        let text = """
            scenario "t"
            app-server shop subject "mailto:ops@shop.example"
            browser bob-chrome chrome permission default prompt deny
            browser bob-safari safari permission granted
            expect bob-chrome shows "Sale: 20% off" by 10s
            at 1s bob-chrome subscribe push for shop
            at 2s shop push "hi" to bob-chrome ttl 0 topic "score" urgency high forged
            at 3s bob-chrome unsubscribe push
            bob-chrome clear-profile
            bob-safari offline
            bob-safari online
            expect shop push status last 410
            expect bob-safari shows nothing
            """
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        #expect(scenario.applicationServers.map(\.subject) == ["mailto:ops@shop.example"])
        #expect(scenario.browsers.map(\.vendor) == [.chrome, .safari])
        #expect(scenario.browsers.map(\.permission) == [.default, .granted])
        #expect(scenario.browsers.map(\.promptAnswer) == [.deny, .allow])
        let options = WebPushApplicationServer.MessageOptions(ttlSeconds: 0, topic: "score", urgency: "high", forged: true)
        #expect(scenario.actions.map(\.kind) == [.webPush(.subscribe(server: "shop")), .webPush(.push(text: "hi", to: "bob-chrome", options: options)),
                                                 .webPush(.unsubscribe), .webPush(.clearProfile), .webPush(.offline), .webPush(.online)])
        #expect(scenario.expectations.map(\.kind) == [.shows(device: "bob-chrome", text: "Sale: 20% off"),
                                                      .status(device: "shop", operation: .push, code: StatusPattern([.code(410)]), quantifier: .last),
                                                      .showsNothing(device: "bob-safari")])
    }

    @Test(arguments: [
        ("browser bob-chrome firefox", 5, 9, "already declared on line 3"),
        ("browser expect chrome", 5, 9, "is a statement keyword"),
        ("browser webpush chrome", 5, 9, "is a host of the world"),
        ("browser operator chrome", 5, 9, "cannot name a browser"),
        ("browser carol-opera opera", 5, 21, "unknown browser \"opera\""),
        ("browser carol chrome permission maybe", 5, 33, "unknown permission \"maybe\""),
        ("browser carol chrome prompt allow prompt deny", 5, 35, "prompt is given twice in one browser declaration"),
        ("browser carol chrome fast", 5, 22, "unexpected \"fast\""),
        ("app-server shop", 5, 12, "already declared on line 2"),
        ("app-server news subject \"ops@news.example\"", 5, 25, "a VAPID subject is a mailto: or https: URL"),
        ("at 1s bob-chrome subscribe push for nobody", 5, 37, "no application server \"nobody\" is declared"),
        ("at 1s bob-chrome subscribe for shop", 5, 28, "\"push\""),
        ("at 1s bob-chrome install", 5, 18, "is not a browser's step"),
        ("at 1s bob-chrome unsubscribe", 5, 29, "\"push\""),
        ("at 1s ann-pixel subscribe push for shop", 5, 17, "is a phone or PC; subscribe push is a browser's step"),
        ("at 1s shop send \"x\" to bob-chrome", 5, 12, "is not an application server's step"),
        ("at 1s shop push hi to bob-chrome", 5, 17, "the message in double quotes"),
        ("at 1s shop push \"x\" to ann-pixel", 5, 24, "is not a declared browser"),
        ("at 1s shop push \"x\" to bob-chrome ttl soon", 5, 39, "a TTL in seconds"),
        ("at 1s shop push \"x\" to bob-chrome topic \"a b\"", 5, 41, "is not 1 to 32 base64url characters"),
        ("at 1s shop push \"x\" to bob-chrome urgency now", 5, 43, "unknown urgency \"now\""),
        ("at 1s shop push \"x\" to bob-chrome forged forged", 5, 42, "forged is given twice in one push"),
        ("expect shop shows \"x\"", 5, 13, "is an application server: it shows nothing"),
        ("expect bob-chrome badge 1", 5, 19, "is a browser: it has no \"badge\" to check"),
        ("expect ann-pixel push status 201", 5, 18, "only an application server makes push calls"),
    ])
    func misuseIsAnErrorWhereItIsWritten(line: String, row: Int, column: Int, says: String) {
        expectOneDiagnostic(diagnostics(line), row: row, column: column, says: says)
    }

    /// End to end: each expectation holds, and its negation fails — the browser shows what was
    /// sent once decrypted, the denied browser shows nothing, the forged push is refused.
    @Test func expectationsFollowTheBehaviour() throws {
        let text = """
            scenario "t"
            app-server shop
            browser bob-chrome chrome
            browser ann-firefox firefox prompt deny
            at 1s bob-chrome subscribe push for shop
            at 1s ann-firefox subscribe push for shop
            at 2s shop push "{\\"title\\":\\"Hi\\",\\"body\\":\\"there\\"}" to bob-chrome
            at 3s shop push "forged" to bob-chrome forged
            at 4s shop push "to ann" to ann-firefox
            expect bob-chrome shows "Hi: there"
            expect bob-chrome shows "forged"
            expect bob-chrome shows 1 notification
            expect ann-firefox shows nothing
            expect shop push status first 201
            expect shop push status every 201
            expect shop push status 403
            """
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, false, true, true, true, false, true])
    }
}
