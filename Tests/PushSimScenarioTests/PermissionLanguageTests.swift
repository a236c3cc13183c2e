import Testing
import PushSimKernel
import PushSimDevices
@testable import PushSimScenario

/// Notification permission in the scenario language: `deny|allow notifications [provisionally]`,
/// `disable|enable channel "<id>"`, `expect <device> suppressed …`, and positioned errors for misuse.
@Suite struct PermissionLanguageTests {
    private func diagnostics(_ body: String) -> [ScenarioDiagnostic] {
        scenarioDiagnostics("scenario \"t\"\ndevice ann-pixel android\ndevice bob-iphone ios\ndevice old-iphone ios os 11\n" + body)
    }

    @Test func theStatementsParse() throws {
        let text = """
            scenario "t"
            device ann-pixel android
            device bob-iphone ios
            devices fans 2 android
            at 0s ann-pixel deny notifications
            at 0s ann-pixel allow notifications
            at 0s bob-iphone allow notifications provisionally
            at 0s ann-pixel disable channel "promotions"
            at 0s ann-pixel enable channel "promotions"
            at 0s fans deny notifications
            expect ann-pixel suppressed "Hi"
            expect ann-pixel suppressed nothing
            expect bob-iphone suppressed 2 notifications by 5s
            """
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        #expect(scenario.actions.prefix(5).map(\.kind) == [.device(.permission(.denied)), .device(.permission(.authorized)),
                                                          .device(.permission(.provisional)), .device(.channel("promotions", enabled: false)),
                                                          .device(.channel("promotions", enabled: true))])
        #expect(scenario.actions.prefix(5).map(\.kind.label) == ["deny notifications", "allow notifications", "allow notifications provisionally",
                                                                "disable channel \"promotions\"", "enable channel \"promotions\""])
        #expect(scenario.expectations.map(\.kind) == [.suppressed(device: "ann-pixel", text: "Hi"), .suppressedCount(device: "ann-pixel", count: 0),
                                                      .suppressedCount(device: "bob-iphone", count: 2)])
    }

    @Test(arguments: [
        ("at 0s ann-pixel deny", 5, 21, "\"notifications\""),
        ("at 0s ann-pixel allow notification", 5, 23, "\"notifications\""),
        ("at 0s ann-pixel allow notifications provisionally", 5, 37, "provisional authorization is iOS 12's and later's"),
        ("at 0s old-iphone allow notifications provisionally", 5, 38, "ios 11: provisional authorization"),
        ("at 0s bob-iphone disable channel \"x\"", 5, 18, "notification channels are Android 8's and later's"),
        ("at 0s ann-pixel disable \"x\"", 5, 25, "\"channel\""),
        ("at 0s ann-pixel disable channel x", 5, 33, "a channel id in double quotes"),
        ("at 0s ann-pixel disable channel \"\"", 5, 33, "a channel id cannot be empty"),
        ("at 0s ann-pixel deny notifications now", 5, 36, "now"),
        ("expect ann-pixel suppressed", 5, 28, "after suppressed"),
        ("expect ann-pixel suppressed everything", 5, 29, "after suppressed"),
        ("expect ann-pixel suppressed 2 toasts", 5, 31, "\"notifications\" after 2"),
    ])
    func misuseIsAnErrorWhereItIsWritten(line: String, row: Int, column: Int, says: String) {
        expectOneDiagnostic(diagnostics(line), row: row, column: column, says: says)
    }

    @Test func theActionHintNamesThePermissionVerbs() {
        let found = diagnostics("at 0s ann-pixel shout")
        #expect(found.first?.hint?.contains("deny, allow, disable, enable") == true, "\(found.first?.hint ?? "")")
    }

    /// End to end: a denied phone's expectations hold, and the ones that say it showed fail.
    @Test func aDeniedPhoneSuppressesAndTheExpectationsSaySo() throws {
        let text = """
            scenario "t"
            device ann-pixel android
            at 0s ann-pixel install
            at 1s ann-pixel subscribe to topic "news"
            at 1s ann-pixel deny notifications
            at 2s operator send fcm "{\\"message\\":{\\"notification\\":{\\"body\\":\\"Hi\\"}}}" to topic "news"
            expect ann-pixel suppressed "Hi"
            expect ann-pixel suppressed 1 notification
            expect ann-pixel shows nothing
            expect ann-pixel shows "Hi"
            expect ann-pixel suppressed nothing
            """
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, true, true, false, false])
        #expect(report.results[4].seen.contains("POST_NOTIFICATIONS: denied"), "\(report.results[4].seen)")
    }

    /// The convergence check (`expect user … shows … once on every device`) counts a display the
    /// user's settings suppressed: a denied phone is not expected to show. Failed before it did.
    @Test func convergenceCountsASuppressedDisplay() throws {
        let text = """
            scenario "t"
            device bob-iphone ios user bob client recommended backend hardened
            device bob-pixel android user bob client recommended backend hardened
            at 0s bob-iphone install
            at 0s bob-pixel install
            at 1s bob-iphone login bob password bob
            at 1s bob-pixel login bob password bob
            at 2s bob-pixel deny notifications
            at 5s operator send apple "{\\"aps\\":{\\"alert\\":\\"final\\"}}" to "username:bob"
            at 5s operator send fcmv1 "{\\"message\\":{\\"notification\\":{\\"body\\":\\"final\\"}}}" to "username:bob"
            expect user bob shows "final" once on every device by +60s
            expect user bob shows "never sent" on every device
            """
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, false])
        #expect(report.results[1].seen.contains("bob-pixel showed it 0 times"), "\(report.results[1].seen)")
    }

    /// `explore` turns notifications off on some devices, and its convergence check still holds
    /// on the hardened flavour's seeds that do.
    @Test func exploreGeneratesPermissionChangesAndStillConverges() {
        let options = ExploreOptions(flavour: .hardened, faults: false)
        let outcomes = (UInt64(1)...30).map { Explorer.explore(seed: $0, options: options) }
        let denying = outcomes.filter { $0.scenario.contains("deny notifications") }
        #expect(!denying.isEmpty)
        for outcome in denying { #expect(!outcome.verdict.fails("convergence"), "seed \(outcome.seed): \(outcome.verdict.failures)") }
    }
}
