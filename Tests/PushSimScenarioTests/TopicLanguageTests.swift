import Testing
import PushSimKernel
@testable import PushSimScenario

/// FCM topics in the scenario language: device subscriptions, the operator's sends straight to
/// FCM, `expect fcm topic … has <n> subscribers`, and positioned errors for misuse.
@Suite struct TopicLanguageTests {
    private func diagnostics(_ body: String) -> [ScenarioDiagnostic] {
        scenarioDiagnostics("scenario \"t\"\ndevice ann-pixel android\ndevice bob-iphone ios\n" + body)
    }

    @Test func theStatementsParse() throws {
        let text = """
            scenario "t"
            device ann-pixel android
            devices fans 3 android
            at 0s ann-pixel subscribe to topic "news"
            at 0s ann-pixel unsubscribe from topic "/topics/news"
            at 0s fans subscribe to topic "team-{n}"
            at 1s operator send fcm "{\\"message\\":{}}" to topic "news"
            at 1s operator send fcm "{\\"message\\":{}}" to condition "'a' in topics"
            expect fcm topic "news" has 0 subscribers by 2s
            expect fcm topic "news" has 1 subscriber
            """
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        let kinds = scenario.actions.map(\.kind)
        #expect(kinds.prefix(2) == [.device(.topic("news", unsubscribe: false)), .device(.topic("/topics/news", unsubscribe: true))])
        #expect(kinds.contains(.operator(.fcmSend(body: #"{"message":{}}"#, target: .condition("'a' in topics")))))
        #expect(scenario.expectations.map(\.kind) == [.topicSubscribers(topic: "news", count: 0), .topicSubscribers(topic: "news", count: 1)])
    }

    @Test(arguments: [
        ("at 0s ann-pixel subscribe topic \"news\"", 4, 27, "\"to\""),
        ("at 0s ann-pixel unsubscribe to topic \"news\"", 4, 29, "\"from\""),
        ("at 0s ann-pixel subscribe to topic news", 4, 36, "a topic name in double quotes"),
        ("at 0s ann-pixel subscribe to topic \"bad name\"", 4, 36, "is not an FCM topic name"),
        ("at 0s bob-iphone subscribe to topic \"news\"", 4, 18, "is an iOS device: topics are FCM's"),
        ("at 0s operator send fcm \"{}\" to topic \"news\"", 4, 25, "is not an FCM v1 request body"),
        ("at 0s operator send fcm \"{\\\"message\\\":{}}\" to \"username:ann\"", 4, 47, "topic, condition or token of <device> after to"),
        ("at 0s operator send fcm \"{\\\"message\\\":{}}\"", 4, 43, "\"to\""),
        ("at 0s operator send fcmv1 \"{\\\"message\\\":{}}\" to topic \"news\"", 4, 49, "the hub sends to tag expressions, not to FCM topics"),
        ("expect fcm topic \"news\" has two subscribers", 4, 29, "a number of subscribers"),
        ("expect fcm topic \"news\" has 2 devices", 4, 31, "\"subscribers\" after 2"),
    ])
    func misuseIsAnErrorWhereItIsWritten(line: String, row: Int, column: Int, says: String) {
        expectOneDiagnostic(diagnostics(line), row: row, column: column, says: says)
    }

    /// The library's topic scenario end to end: each expectation holds, and one that names a
    /// phone that is not subscribed fails.
    @Test func aTopicSendReachesOnlyTheSubscribedPhone() throws {
        let text = """
            scenario "t"
            device ann-pixel android
            device bob-pixel android
            at 0s ann-pixel install
            at 0s bob-pixel install
            at 1s ann-pixel subscribe to topic "news"
            at 2s operator send fcm "{\\"message\\":{\\"data\\":{\\"message\\":\\"Hi\\"}}}" to topic "news"
            expect ann-pixel shows "Hi"
            expect bob-pixel shows nothing
            expect bob-pixel shows "Hi"
            expect fcm topic "news" has 1 subscriber
            expect invariant accounting holds
            """
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, true, false, true, true])
    }
}
