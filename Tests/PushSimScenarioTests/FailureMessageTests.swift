import Testing
import PushSimKernel
import PushSimScenario

/// What a user reads when an expectation fails: what was there instead, in sentences.
@Suite struct FailureMessageTests {
    func run(_ body: String) throws -> ScenarioReport {
        let text = """
        scenario "messages"
        seed 3
        device bob-iphone ios user bob client recommended backend hardened
        device dee-pc windows user dee client recommended backend hardened
        at 0s bob-iphone install
        at 0s dee-pc install
        at 1s bob-iphone login bob password bob
        at 1s dee-pc login dee password dee
        """ + "\n" + body + "\n"
        let scenario = try ScenarioParser.parse(text, path: "messages.scenario").get()
        return try #require(try? ScenarioRunner.run(scenario).get())
    }

    /// A header expectation that fails says which values the requests carried. (Before: only that
    /// none matched, with the statuses.)
    @Test func aFailedHeaderExpectationPrintsTheValuesSeen() throws {
        let report = try run("""
        at 5s operator send apple "{\\"aps\\":{\\"alert\\":\\"hi\\"}}" to "username:bob" header "apns-priority" "5"
        expect apns received 1 request with request header "apns-priority" "10"
        expect apns received 1 request with answer header "apns-unknown"
        """)
        let seen = report.results.map(\.seen)
        #expect(report.results.allSatisfy { !$0.passed })
        #expect(seen[0].contains(#"request header "apns-priority": "5" ×1"#), "\(seen[0])")
        #expect(seen[1].contains(#"answer header "apns-unknown": absent ×1"#), "\(seen[1])")
    }

    /// An SDK refusal reads as a sentence saying what was refused and why. (Before: the Swift
    /// dump of the result, `failure(HubError(kind: …))`.)
    @Test func anSDKRefusalIsASentence() throws {
        let report = try run("""
        at 5s operator send windows "just text" to "username:dee"
        expect operator send status 201
        """)
        let seen = try #require(report.results.first?.seen)
        #expect(seen.contains("the SDK refused the send before it reached the hub (ArgumentException): "), "\(seen)")
        #expect(!seen.contains("failure("))
    }
}
