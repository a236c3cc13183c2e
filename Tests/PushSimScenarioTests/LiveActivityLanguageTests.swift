import Testing
import PushSimKernel
import PushSimDevices
@testable import PushSimScenario

/// Live Activities in the scenario language: the iPhone's steps, the operator's APNs and FCM sends
/// with a Live Activity token, `expect <device> live activity …`, and positioned errors for misuse.
@Suite struct LiveActivityLanguageTests {
    private func diagnostics(_ body: String) -> [ScenarioDiagnostic] {
        scenarioDiagnostics("scenario \"t\"\ndevice ann-iphone ios os 18\ndevice old-iphone ios\ndevice ann-pixel android\ndevice mid-iphone ios os 16\n" + body)
    }

    @Test func theStatementsParse() throws {
        let text = """
            scenario "t"
            device ann-iphone ios os 18 firebase
            at 0s ann-iphone observe push-to-start "MatchAttributes"
            at 0s ann-iphone start live activity "T" "{\\"n\\":1}" attributes "{\\"a\\":2}" stale after 10m
            at 0s ann-iphone end live activity "T" dismiss after 5m
            at 0s ann-iphone rotate live activity token
            at 0s ann-iphone rotate push-to-start "MatchAttributes"
            at 0s ann-iphone disable live activities
            at 0s ann-iphone enable live activities
            at 0s operator send apns "{}" to live activity token of ann-iphone "T" header "apns-priority" "5"
            at 0s operator send apns "{}" to push-to-start token "MatchAttributes" of ann-iphone
            at 0s operator send fcm "{\\"message\\":{}}" to token of ann-iphone with live activity token of ann-iphone
            expect ann-iphone live activity "T" stale by 20m
            expect ann-iphone live activity content "n" "1"
            expect ann-iphone live activity alert "Goal"
            expect ann-iphone live activity none
            """
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        #expect(scenario.actions.map(\.kind) == [
            .device(.liveActivity(.observePushToStart(attributesType: "MatchAttributes"))),
            .device(.liveActivity(.start(attributesType: "T", contentState: #"{"n":1}"#, attributes: #"{"a":2}"#, staleAfter: .minutes(10), channel: nil))),
            .device(.liveActivity(.end(attributesType: "T", dismissAfter: .minutes(5)))),
            .device(.liveActivity(.rotateToken(attributesType: nil))),
            .device(.liveActivity(.rotatePushToStart(attributesType: "MatchAttributes"))),
            .device(.liveActivity(.enabled(false))),
            .device(.liveActivity(.enabled(true))),
            .operator(.apnsSend(payload: "{}", token: .update(device: "ann-iphone", attributesType: "T"), headers: [SendHeader("apns-priority", "5")])),
            .operator(.apnsSend(payload: "{}", token: .pushToStart(device: "ann-iphone", attributesType: "MatchAttributes"), headers: [])),
            .operator(.fcmLiveActivitySend(body: #"{"message":{}}"#, device: "ann-iphone", token: .update(device: "ann-iphone", attributesType: nil))),
        ])
        #expect(scenario.actions.map(\.kind.label).prefix(2) == ["observe push-to-start \"MatchAttributes\"", "start live activity \"T\""])
        #expect(scenario.expectations.map(\.kind) == [
            .liveActivity(device: "ann-iphone", attributesType: "T", check: .state(.stale)),
            .liveActivity(device: "ann-iphone", attributesType: nil, check: .content(field: "n", value: "1")),
            .liveActivity(device: "ann-iphone", attributesType: nil, check: .alert("Goal")),
            .liveActivity(device: "ann-iphone", attributesType: nil, check: .state(nil)),
        ])
    }

    @Test(arguments: [
        ("at 0s old-iphone start live activity \"T\" \"{}\"", 6, 18, "ios 12: Live Activities need iOS 16.1"),
        ("at 0s mid-iphone observe push-to-start \"T\"", 6, 18, "push-to-start needs iOS 17.2"),
        ("at 0s ann-pixel start live activity \"T\" \"{}\"", 6, 17, "android"),
        ("at 0s ann-iphone start live activity \"T\" \"score\"", 6, 42, "is not a JSON object"),
        ("at 0s ann-iphone start live activity \"\" \"{}\"", 6, 38, "an attributes type cannot be empty"),
        ("at 0s ann-iphone start live \"T\" \"{}\"", 6, 29, "\"activity\""),
        ("at 0s ann-iphone observe \"T\"", 6, 26, "\"push-to-start\""),
        ("at 0s operator send apns \"{}\" to token of ann-iphone", 6, 34, "live activity token of <device>"),
        ("at 0s operator send apns \"{}\" to push-to-start token \"T\" of mid-iphone", 6, 61, "push-to-start needs iOS 17.2"),
        ("at 0s operator send apns \"{}\" to live activity token of ann-iphone header \"x-wns-type\" \"a\"", 6, 75, "apns-*"),
        ("expect ann-iphone live activity fine", 6, 33, "unknown Live Activity check"),
        ("expect old-iphone live activity active", 6, 8, "Live Activities need iOS 16.1"),
    ])
    func misuseIsAnErrorWhereItIsWritten(line: String, row: Int, column: Int, says: String) {
        expectOneDiagnostic(diagnostics(line), row: row, column: column, says: says)
    }

    @Test func theActionHintNamesTheLiveActivityVerbs() {
        let found = diagnostics("at 0s ann-iphone shout")
        #expect(found.first?.hint?.contains("observe, start, end, rotate") == true, "\(found.first?.hint ?? "")")
    }
}
