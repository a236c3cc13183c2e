import Testing
@testable import PushSimScenario

/// Installation templates in the language: `operator put installation … template "<name>" body
/// "<body>" [tags …]`, `operator patch installation … add|remove template …`, and the template
/// send that fills them, `operator send template "<properties>"`.
@Suite struct InstallationTemplateTests {
    /// Bob's iPhone gets an APNs template when its installation is put; Carol's Pixel one added by
    /// a PATCH, then removed. Two template sends to "news": the first reaches both, the second Bob only.
    private let story = #"""
        scenario "templates"
        device bob-iphone ios user bob
        device carol-pixel android user carol
        at 0s bob-iphone install
        at 0s carol-pixel install
        at 1s operator put installation of bob-iphone with tags news template "alert" body "{\"aps\":{\"alert\":\"$(message)\"}}" tags en
        at 1s operator put installation of carol-pixel with tags news
        at 2s operator patch installation of carol-pixel add template "note" body "{\"message\":{\"notification\":{\"body\":\"{$(message) + ' for ' + $(user)}\"}}}"
        at 3s operator send template "{\"message\":\"Goal\",\"user\":\"carol\"}" to "news"
        at 4s operator patch installation of carol-pixel remove template "note"
        at 5s operator send template "{\"message\":\"Again\"}" to "news"
        expect bob-iphone shows "Goal" then "Again"
        expect carol-pixel shows "Goal for carol"
        expect carol-pixel shows 1 notification
        expect operator installation status every 200
        expect operator send status every 201

        """#

    @Test func templatesArePutPatchedAndFilledBySends() throws {
        let report = try ScenarioRunner.run(try ScenarioParser.parse(story, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, true, true, true, true], "\(report.text())")
    }

    /// The hub checks a template's expressions: text beside an expression needs `{… + …}` (NH-TPL),
    /// and the PATCH is refused with 400 and the hub's reason.
    @Test func theHubRefusesAMalformedTemplate() throws {
        let text = story.replacingOccurrences(of: "{$(message) + ' for ' + $(user)}", with: "$(message) for $(user)")
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, false, false, false, true])
        let rejected = report.trace.first { $0.kind.name == "hub.rejected" }
        #expect(rejected?[.detail]?.description.hasPrefix("The template 'note' is invalid") == true)
    }

    @Test func theStatementsParse() throws {
        let s = try BobScenario.parse(#"""
            operator put installation of bob-iphone user bob template "a" body "{}" template "b" body "<toast/>" tags x,y
            operator patch installation of bob-iphone add template "c" body "{}" tags z
            operator patch installation of bob-iphone remove template "a"
            operator send template "{ \"message\" : \"Hi\" }" to "x"
            operator test-send template "{}"
            """#).get()
        #expect(s.actions.map(\.kind) == [
            .operator(.installation(device: "bob-iphone", change: .put(tags: [], userID: "bob", templates: [
                NamedTemplate(name: "a", body: "{}"), NamedTemplate(name: "b", body: "<toast/>", tags: ["x", "y"])]))),
            .operator(.installation(device: "bob-iphone", change: .addTemplate(NamedTemplate(name: "c", body: "{}", tags: ["z"])))),
            .operator(.installation(device: "bob-iphone", change: .removeTemplate("a"))),
            .operator(.send(format: "template", payload: #"{"message":"Hi"}"#, tagExpression: "x")),   // as the SDK writes it
            .operator(.testSend(format: "template", payload: "{}", tagExpression: nil)),
        ])
        #expect(s.actions[0].kind.label == #"put installation of bob-iphone user bob template "a" body … template "b" body … tags x,y"#)
    }

    @Test(arguments: [
        (#"operator send template "[1]""#, 24, "a template send's properties must be a JSON object"),
        (#"operator send template "{\"n\":1}""#, 24, "template property \"n\" is not a string"),
        (#"operator send template "{}" header "apns-priority" "5""#, 29, "a template send takes no headers"),
        (#"operator put installation of bob-iphone template "a""#, 53, "expected \"body\", found end of line"),
        (#"operator put installation of bob-iphone template "a" body "x" template "a" body "y""#, 72, "template \"a\" is given twice"),
        (#"operator patch installation of bob-iphone add template "" body "{}""#, 56, "a template's name cannot be empty"),
        (#"operator patch installation of bob-iphone add templates"#, 47, "expected \"tag\", found \"templates\""),
    ])
    func misusedTemplatesAreLocated(_ body: String, _ column: Int, _ message: String) throws {
        let d = try #require(BobScenario.firstError(body))
        #expect(d.location == SourceLocation(file: "t.scenario", line: 3, column: column))
        #expect(d.message == message)
        #expect(d.hint != nil)
    }
}
