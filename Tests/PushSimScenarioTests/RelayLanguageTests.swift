import Testing
import PushSimKernel
@testable import PushSimScenario

/// The FCM → APNs relay in the scenario language: `device … ios firebase`, `fcm apns key …`,
/// `operator send fcm … to token of <device>`, and positioned errors for misuse.
@Suite struct RelayLanguageTests {
    private func diagnostics(_ body: String) -> [ScenarioDiagnostic] {
        let text = "scenario \"t\"\ndevice ann-pixel android\ndevice bob-iphone ios\ndevice cal-iphone ios firebase\n" + body
        guard case .failure(let failure) = ScenarioParser.parse(text, path: "t.scenario") else { return [] }
        return failure.diagnostics
    }

    @Test func theStatementsParse() throws {
        let text = """
            scenario "t"
            fcm apns key wrong-team
            device cal-iphone ios user cal firebase
            device ann-pixel android
            at 1s operator send fcm "{\\"message\\":{}}" to token of cal-iphone
            at 1s operator send fcm "{\\"message\\":{}}" to token of ann-pixel
            """
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        #expect(scenario.settings.contains(.fcmAPNsKey(.wrongTeam)))
        #expect(scenario.devices.map(\.firebase) == [true, false])
        #expect(scenario.actions.map(\.kind) == [.operator(.fcmSend(body: #"{"message":{}}"#, target: .tokenOf("cal-iphone"))),
                                                 .operator(.fcmSend(body: #"{"message":{}}"#, target: .tokenOf("ann-pixel")))])
        #expect(Simulation.Options().fcmAPNsKey == .uploaded)
    }

    @Test(arguments: [
        ("device dee-pixel android firebase", 5, 26, "firebase is for an iOS device"),
        ("device dee-iphone ios firebase firebase", 5, 32, "firebase is given twice"),
        ("fcm apns key lost", 5, 14, "unknown APNs key state \"lost\""),
        ("fcm apns keys uploaded", 5, 10, "\"key\""),
        ("fcm key uploaded", 5, 5, "\"apns\""),
        ("fcm apns key uploaded now", 5, 23, "unexpected \"now\""),
        ("at 0s operator send fcm \"{\\\"message\\\":{}}\" to token bob-iphone", 5, 53, "\"of\""),
        ("at 0s operator send fcm \"{\\\"message\\\":{}}\" to token of bob-iphone", 5, 56, "\"bob-iphone\" has no FCM token: its app has no Firebase SDK"),
        ("at 0s operator send fcm \"{\\\"message\\\":{}}\" to token of nobody", 5, 56, "nobody"),
    ])
    func misuseIsAnErrorWhereItIsWritten(line: String, row: Int, column: Int, says: String) {
        let found = diagnostics(line)
        #expect(found.count == 1)
        #expect(found.first?.location.line == row && found.first?.location.column == column, "\(found.first.map { "\($0.location)" } ?? "none")")
        #expect(found.first?.message.contains(says) == true, "\(found.first?.message ?? "")")
        #expect(found.first?.hint?.isEmpty == false)
    }

    /// The relay end to end: each expectation holds with the key, and fails without it.
    @Test(arguments: [("uploaded", [true, true, false]), ("missing", [false, false, true]), ("wrong-team", [false, false, true])])
    func theRelayDependsOnTheKey(key: String, passes: [Bool]) throws {
        let text = """
            scenario "t"
            fcm apns key \(key)
            device cal-iphone ios firebase
            at 0s cal-iphone install
            at 2s operator send fcm "{\\"message\\":{\\"notification\\":{\\"title\\":\\"Hi\\"}}}" to token of cal-iphone
            expect cal-iphone shows "Hi"
            expect operator send status 200
            expect fcm received 1 request with status 401 and reason "THIRD_PARTY_AUTH_ERROR"
            """
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == passes)
    }
}
