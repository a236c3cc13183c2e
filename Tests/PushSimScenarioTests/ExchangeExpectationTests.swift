import PushSimKernel
import Testing
@testable import PushSimScenario

/// Expectations on exchanges themselves (status classes and alternatives, reasons, headers and
/// JSON fields of a request or an answer, with counts) and compound durations.
@Suite struct ExchangeExpectationTests {
    private func parse(_ body: String) -> Result<Scenario, ScenarioParseFailure> { BobScenario.parse(body) }
    private func firstError(_ body: String) -> ScenarioDiagnostic? { BobScenario.firstError(body) }

    /// Bob uninstalls the app; Alice's next send reaches APNs, which learns from the phone that the
    /// token is dead, and answers the one after with 410 Unregistered and a timestamp.
    private let story = """
        scenario "exchanges"
        seed 3
        device bob-iphone ios user bob client recommended backend hardened
        device alice-pixel android user alice client recommended backend hardened
        at 0s bob-iphone install
        at 0s alice-pixel install
        at 1s bob-iphone login bob password bob
        at 1s alice-pixel login alice password alice
        at 5s alice-pixel send "Hi" to bob via apns
        at 1m bob-iphone uninstall
        at 2m alice-pixel send "Hello?" to bob via apns
        at 1h1m1s alice-pixel send "Still there?" to bob via apns

        """

    private func run(_ expectations: String) throws -> ScenarioReport {
        let scenario = try ScenarioParser.parse(story + expectations, path: "exchanges.scenario").get()
        return try ScenarioRunner.run(scenario).get()
    }

    @Test func compoundDurationsAddUpLargestUnitFirst() {
        #expect(VirtualDuration.parse("2h59s") == .seconds(2 * 3600 + 59))
        #expect(VirtualDuration.parse("1d12h") == .hours(36))
        #expect(VirtualDuration.parse("1m30s500ms") == .milliseconds(90_500))
        #expect(VirtualDuration.parse("250ms") == .milliseconds(250))
        #expect(VirtualDuration.parse("30s1m") == nil)        // smaller unit first
        #expect(VirtualDuration.parse("1s1s") == nil)         // a unit twice
        #expect(VirtualDuration.parse("1h30") == nil)         // a part without a unit
        #expect(VirtualDuration.scan("99999999999999999999d1s") == .overflow)
        #expect(VirtualDuration.scan("") == .malformed)
    }

    @Test func compoundDurationsInAScenarioAndTheirMistakes() throws {
        let s = try parse("at 2h59s bob-iphone install\nat +1m30s bob-iphone launch").get()
        #expect(s.actions.map(\.time) == [.zero + .seconds(7_259), .zero + .seconds(7_349)])
        let wrongOrder = try #require(firstError("at 30s1m bob-iphone install"))
        #expect(wrongOrder.location.line == 3 && wrongOrder.location.column == 4)
        #expect(wrongOrder.hint?.contains("largest first") == true)
        let tooLong = try #require(firstError("advance 36500d1s"))
        #expect(tooLong.message.contains("longer than"))
    }

    @Test func statusClassesAndAlternativesParse() throws {
        let s = try parse("""
            expect bob-iphone register status 4xx
            expect bob-iphone send status 401 or 403
            expect apns received at least 1 request with status 2xx or 410
            """).get()
        #expect(s.expectations.map(\.kind) == [
            .status(device: "bob-iphone", operation: .register, code: StatusPattern([.statusClass(4)])),
            .status(device: "bob-iphone", operation: .send, code: StatusPattern([.code(401), .code(403)])),
            .received(host: "apns", count: .atLeast(1), conditions: [.status(StatusPattern([.statusClass(2), .code(410)]))]),
        ])
        #expect(StatusPattern([.statusClass(4), .code(503)]).description == "4xx or 503")
        #expect(StatusPattern([.statusClass(4)]).matches(404) && !StatusPattern([.statusClass(4)]).matches(500))
    }

    @Test func misusedConditionsArePositioned() throws {
        let badClass = try #require(firstError("expect bob-iphone register status 7xx"))
        #expect(badClass.message == "status class \"7xx\" does not exist" && badClass.location.column == 35)
        let reasonOnHub = try #require(firstError("expect hub received 1 request with reason \"Gone\""))
        #expect(reasonOnHub.message == "reason applies to apns and fcm, not hub" && reasonOnHub.location.column == 36)
        let noSide = try #require(firstError("expect apns received 1 request with header \"apns-id\""))
        #expect(noSide.message == "unknown condition \"header\"" && noSide.hint?.contains("request|answer header") == true)
        let badAt = try #require(firstError("expect apns received at 2 requests"))
        #expect(badAt.location.column == 25)
        let emptyPath = try #require(firstError("expect fcm received 1 request with answer field \"\""))
        #expect(emptyPath.message == "the field name is empty")
    }

    @Test func apnsAnswersAreCheckedDownToTheReasonHeaderAndBody() throws {
        let report = try run("""
            expect apns received 3 requests
            expect apns received 2 requests with status 200 and answer header "apns-id"
            expect apns received 1 request with status 410 and reason "Unregistered" and answer field "timestamp"
            expect apns received 1 request with status 4xx and request header "apns-push-type" "alert"
            expect apns received 3 requests with request field "aps.alert"
            expect apns received at most 0 requests with status 5xx
            expect apns received at least 1 request with status 200 or 410
            expect fcm received 0 requests
            expect hub received at least 4 requests with status 2xx
            """)
        for r in report.results { #expect(r.passed, "\(r.expectation.source): \(r.seen)") }
    }

    @Test func aFailedExchangeExpectationSaysWhatWasAnswered() throws {
        let report = try run("""
            expect apns received 1 request with reason "BadDeviceToken"
            """)
        let result = try #require(report.results.first)
        #expect(!result.passed)
        #expect(result.seen == "apns received 0 such request(s); answers: 200 ×2, 410 Unregistered ×1")
    }
}

extension ExchangeExpectationTests {
    /// `path "<prefix>"` names an endpoint: with it a push service's token endpoint counts (the
    /// hub's OAuth request to FCM here), and `reason` reads an OAuth `error` string.
    @Test func aPathConditionCountsAnotherEndpoint() throws {
        let story = """
            scenario "token endpoint"
            hub credentials fcm wrong
            device bob-pixel android user bob
            at 0s bob-pixel install
            at 1s bob-pixel login bob password bob
            at 5s bob-pixel send "Hi" to bob via fcm
            expect fcm received 1 request with path "/token" and status 400 and reason "invalid_grant"
            expect fcm received 1 request with path "/to"
            expect fcm received 0 requests with path "/v1/"
            expect fcm received 0 requests

            """
        let scenario = try ScenarioParser.parse(story, path: "token.scenario").get()
        #expect(scenario.expectations.first?.kind == .received(host: "fcm", count: .exactly(1),
                                                               conditions: [.path("/token"), .status(400), .reason("invalid_grant")]))
        let report = try ScenarioRunner.run(scenario).get()
        for r in report.results { #expect(r.passed, "\(r.expectation.source): \(r.seen)") }
        let relative = try #require(firstError("expect fcm received 1 request with path \"token\""))
        #expect(relative.message == "a path starts with /, not \"token\"")
    }
}
