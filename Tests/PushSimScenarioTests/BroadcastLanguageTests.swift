import Testing
import PushSimKernel
import PushSimServices
@testable import PushSimScenario

/// APNs broadcast channels in the scenario language (Citations §1.20): the operator's channel
/// management and broadcasts, a device starting a Live Activity on a channel (`start live activity … on channel`), the expectations
/// on what the activity shows and on the channel list, and positioned errors for misuse.
@Suite struct BroadcastLanguageTests {
    private func diagnostics(_ body: String) -> [ScenarioDiagnostic] {
        scenarioDiagnostics("scenario \"t\"\ndevice ann-iphone ios os 18\ndevice old-iphone ios\n" + body)
    }

    @Test func theStatementsParse() throws {
        let text = """
            scenario "t"
            device ann-iphone ios os 18
            at 0s operator create channel "final" storage most-recent
            at 1s ann-iphone start live activity "MatchAttributes" "{ \\"score\\" : \\"0-0\\" }" on channel "final"
            at 2s operator broadcast "{}" on channel "final" header "apns-expiration" "0"
            at 3s operator broadcast "{}" without channel-id
            at 4s operator delete channel "final"
            expect ann-iphone activity "final" shows "{\\"score\\":\\"0-0\\"}"
            expect apns has 0 channels by 5s
            expect operator channel status 201
            """
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        #expect(scenario.actions.map(\.kind) == [
            .operator(.createChannel(name: "final", policy: .mostRecentMessageStored)),
            .device(.liveActivity(.start(attributesType: "MatchAttributes", contentState: #"{ "score" : "0-0" }"#, attributes: "{}", staleAfter: nil,
                                         channel: "final"))),
            .operator(.broadcast(payload: "{}", channel: "final", headers: [SendHeader("apns-expiration", "0")])),
            .operator(.broadcast(payload: "{}", channel: nil)),
            .operator(.deleteChannel(name: "final")),
        ])
        #expect(scenario.expectations.map(\.kind) == [
            .activityShows(device: "ann-iphone", channel: "final", contentState: #"{"score":"0-0"}"#),
            .broadcastChannels(count: 0),
            .status(device: "operator", operation: .channel, code: 201),
        ])
    }

    @Test(arguments: [
        ("at 0s operator create channel final storage none", 4, 31, "a channel name in double quotes"),
        ("at 0s operator create channel \"c\"", 4, 34, "\"storage\""),
        ("at 0s operator create channel \"c\" storage all", 4, 43, "unknown storage policy \"all\""),
        ("at 0s operator delete channel \"c\"", 4, 31, "no channel \"c\" is created above"),
        ("at 0s operator broadcast \"{}\" on channel \"c\"", 4, 42, "no channel \"c\" is created above"),
        ("at 0s operator broadcast \"{}\"", 4, 30, "\"on\""),
        ("at 0s ann-iphone start live activity \"T\" \"{}\" on channel \"c\"", 4, 58, "no channel \"c\" is created above"),
        ("at 0s ann-iphone start live activity \"T\" \"{}\" on \"c\"", 4, 50, "\"channel\""),
        ("at 0s ann-iphone start activity on channel \"c\"", 4, 18, "is now a Live Activity step"),
        ("expect ann-iphone activity \"c\" shows \"{}\"", 4, 28, "no channel \"c\" is created above"),
        ("expect apns has two channels", 4, 17, "a number of channels"),
        ("expect apns has 2 topics", 4, 19, "\"channels\" after 2"),
    ])
    func misuseIsAnErrorWhereItIsWritten(line: String, row: Int, column: Int, says: String) {
        expectOneDiagnostic(diagnostics(line), row: row, column: column, says: says)
    }

    @Test(arguments: [
        ("at 1s old-iphone start live activity \"T\" \"{}\" on channel \"c\"", 5, 18, "needs iOS 18 or later"),
        ("at 1s operator create channel \"c\" storage none", 5, 31, "channel \"c\" is created twice"),
        ("expect ann-iphone activity \"c\" shows \"{}\" by 5s", 5, 43, "checked at the end of the run"),
        ("at 1s operator broadcast \"{}\" on channel \"c\" header \"X-WNS-TTL\" \"5\"", 5, 53, "the hub passes only apns-* headers"),
    ])
    func misuseAfterACreatedChannelIsAnErrorWhereItIsWritten(line: String, row: Int, column: Int, says: String) {
        expectOneDiagnostic(diagnostics("at 0s operator create channel \"c\" storage none\n" + line), row: row, column: column, says: says)
    }

    /// A broadcast scenario end to end: what each phone's activity shows, and an expectation that
    /// names the wrong state fails.
    @Test func theBroadcastCapabilitySettingParsesAndMisuseIsPositioned() throws {
        let scenario = try ScenarioParser.parse("scenario \"t\"\napns broadcast disabled\n", path: "t.scenario").get()
        #expect(scenario.settings == [.apnsBroadcast(enabled: false)])
        expectOneDiagnostic(scenarioDiagnostics("scenario \"t\"\napns broadcast off\n"), row: 2, column: 16, says: "expected enabled or disabled")
        expectOneDiagnostic(scenarioDiagnostics("scenario \"t\"\napns channels\n"), row: 2, column: 6, says: "\"broadcast\"")
    }

    @Test func aBroadcastUpdatesEverySubscribedActivity() throws {
        let text = """
            scenario "t"
            device ann-iphone ios os 18
            device bob-iphone ios os 18
            at 0s ann-iphone install
            at 0s bob-iphone install
            at 1s operator create channel "final" storage none
            at 2s ann-iphone start live activity "MatchAttributes" "{\\"score\\":\\"0-0\\"}" on channel "final"
            at 2s bob-iphone start live activity "MatchAttributes" "{\\"score\\":\\"0-0\\"}" on channel "final"
            at 3s operator broadcast "{\\"aps\\":{\\"timestamp\\":1767225603,\\"event\\":\\"update\\",\\"content-state\\":{\\"score\\":\\"1-0\\"}}}" on channel "final"
            expect ann-iphone activity "final" shows "{\\"score\\":\\"1-0\\"}"
            expect bob-iphone activity "final" shows "{\\"score\\":\\"1-0\\"}"
            expect bob-iphone activity "final" shows "{\\"score\\":\\"0-0\\"}"
            expect apns has 1 channel
            expect operator broadcast status 200
            """
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, true, false, true, true])
    }
}
