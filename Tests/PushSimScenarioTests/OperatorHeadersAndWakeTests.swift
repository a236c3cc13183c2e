import Testing
@testable import PushSimScenario

/// Header options on operator sends, and expectations on badges and background wakes.
@Suite struct OperatorHeadersAndWakeTests {
    private func parse(_ body: String) -> Result<Scenario, ScenarioParseFailure> { BobScenario.parse(body) }
    private func firstError(_ body: String) -> ScenarioDiagnostic? { BobScenario.firstError(body) }

    @Test func headersFollowTheSendInOrder() throws {
        let s = try parse("""
            operator send apple "{}" to "username:bob" header "apns-push-type" "background" header "apns-priority" "5"
            operator test-send windows "<toast/>" header "X-WNS-TTL" "60"
            """).get()
        #expect(s.actions.map(\.kind) == [
            .operator(.send(format: "apple", payload: "{}", tagExpression: "username:bob",
                            headers: [SendHeader("apns-push-type", "background"), SendHeader("apns-priority", "5")])),
            .operator(.testSend(format: "windows", payload: "<toast/>", tagExpression: nil, headers: [SendHeader("X-WNS-TTL", "60")])),
        ])
    }

    @Test func headersTheHubWouldNotPassOnArePositionedErrors() throws {
        let wrongService = try #require(firstError("operator send apple \"{}\" header \"X-WNS-TTL\" \"60\""))
        #expect(wrongService.message == "the hub passes only apns-* headers to APNs, not the string \"X-WNS-TTL\"")
        #expect(wrongService.location.line == 3 && wrongService.location.column == 33)
        let fcm = try #require(firstError("operator send fcmv1 \"{}\" header \"apns-priority\" \"5\""))
        #expect(fcm.message == "an fcmv1 send takes no headers" && fcm.location.column == 26)
        let noValue = try #require(firstError("operator send apple \"{}\" header \"apns-priority\""))
        #expect(noValue.message.hasPrefix("expected the header's value in double quotes"))
    }

    @Test func registrationWritesParseWithTheirIfMatch() throws {
        let s = try parse("""
            operator update registration of bob-iphone if-match stale
            operator delete registration of bob-iphone if-match any
            operator update registration of bob-iphone
            """).get()
        #expect(s.actions.map(\.kind) == [.operator(.registration(device: "bob-iphone", delete: false, ifMatch: .stale)),
                                          .operator(.registration(device: "bob-iphone", delete: true, ifMatch: .any)),
                                          .operator(.registration(device: "bob-iphone", delete: false, ifMatch: .current))])
        let anyUpdate = try #require(firstError("operator update registration of bob-iphone if-match any"))
        #expect(anyUpdate.message == "an update names a version: if-match any is for delete" && anyUpdate.location.column == 53)
        let unknown = try #require(firstError("operator delete registration of carol-phone"))
        #expect(unknown.message.contains("carol-phone"))
        let badChoice = try #require(firstError("operator delete registration of bob-iphone if-match old"))
        #expect(badChoice.message == "unknown If-Match choice \"old\"")
    }

    /// The operator's update is recorded with the status the hub answered: 201 under `hub
    /// registration status 201` (it was recorded as 200 whatever the hub said).
    @Test func anUpdateIsRecordedWithTheStatusTheHubAnswered() throws {
        let scenario = try ScenarioParser.parse("""
            scenario "update status"
            seed 1
            hub registration status 201
            device bob-iphone ios user bob client recommended backend hardened
            at 0s bob-iphone install
            at 1s bob-iphone login bob password bob
            at 10s operator update registration of bob-iphone
            at 11s operator delete registration of bob-iphone
            expect operator register status 201
            expect operator register status 200
            expect operator unregister status 200
            """, path: "update-status.scenario").get()
        let report = try ScenarioRunner.run(scenario).get()
        #expect(report.results.map(\.passed) == [true, false, true])
    }

    @Test func badgeAndWakeExpectationsParse() throws {
        let s = try parse("expect bob-iphone badge 3\nexpect bob-iphone badge none\nexpect bob-iphone woke 2 times").get()
        #expect(s.expectations.map(\.kind) == [.badge(device: "bob-iphone", value: 3), .badge(device: "bob-iphone", value: nil),
                                               .woke(device: "bob-iphone", count: 2)])
        let noTimes = try #require(firstError("expect bob-iphone woke 2"))
        #expect(noTimes.message == "expected \"times\" after 2, found end of line")
    }

    @Test func aBackgroundPushWakesTheAppAndTheBadgeIsRead() throws {
        let scenario = try ScenarioParser.parse("""
            scenario "wake"
            seed 1
            device bob-iphone ios user bob client recommended backend hardened
            at 0s bob-iphone install
            at 1s bob-iphone login bob password bob
            at 5s operator send apple "{\\"aps\\":{\\"content-available\\":1}}" to "username:bob" header "apns-push-type" "background" header "apns-priority" "5"
            at 6s operator send apple "{\\"aps\\":{\\"badge\\":7}}" to "username:bob"
            expect bob-iphone woke 1 time
            expect bob-iphone woke 2 times
            expect bob-iphone badge 7
            expect bob-iphone badge 3
            expect bob-iphone shows nothing
            """, path: "wake.scenario").get()
        let report = try ScenarioRunner.run(scenario).get()
        #expect(report.results.map(\.passed) == [true, false, true, false, true])
        #expect(report.results[1].seen == "background pushes woke bob-iphone 1 time")
        #expect(report.results[3].seen == "bob-iphone's badge was 7")
    }
}
