import Testing
@testable import PushSimScenario

/// An installation template's headers and expiry in the language: `template "<name>" body
/// "<body>" [header "<name>" "<value>"]… [expiry "<value>"] [tags …]` (NH-REST, NH-REG, NH-DOTNET).
@Suite struct TemplateHeaderLanguageTests {
    @Test func headersAndExpiryParseInAnyOrderAfterTheBody() throws {
        let s = try BobScenario.parse(#"""
            operator put installation of bob-iphone template "a" body "{}" header "apns-priority" "5" expiry "0" tags x
            operator patch installation of bob-iphone add template "b" body "{}" tags y expiry "$(until)" header "apns-push-type" "background" header "apns-priority" "5"
            """#).get()
        let a = NamedTemplate(name: "a", body: "{}", tags: ["x"], headers: [SendHeader("apns-priority", "5")], expiry: "0")
        let b = NamedTemplate(name: "b", body: "{}", tags: ["y"], headers: [SendHeader("apns-push-type", "background"), SendHeader("apns-priority", "5")],
                              expiry: "$(until)")
        #expect(s.actions.map(\.kind) == [
            .operator(.installation(device: "bob-iphone", change: .put(tags: [], userID: nil, templates: [a]))),
            .operator(.installation(device: "bob-iphone", change: .addTemplate(b))),
        ])
        #expect(s.actions[0].kind.label == #"put installation of bob-iphone template "a" body … header "apns-priority" "5" expiry "0" tags x"#)
    }

    /// A template added by a PATCH carries its headers and expiry to APNs as one put does.
    @Test func aPatchedTemplatesHeadersAndExpiryReachAPNs() throws {
        let text = #"""
            scenario "patched"
            device bob-iphone ios user bob
            at 0s bob-iphone install
            at 1s operator put installation of bob-iphone with tags news
            at 2s operator patch installation of bob-iphone add template "t" body "{\"aps\":{\"alert\":\"$(message)\"}}" header "apns-priority" "$(p)" expiry "$(until)"
            at 3s operator send template "{\"message\":\"Goal\",\"p\":\"5\",\"until\":\"2026-01-01T00:01:00Z\"}" to "news"
            expect apns received 1 request with status 200 and request header "apns-priority" "5" and request header "apns-expiration" "1767225660"
            expect bob-iphone shows "Goal"
            """#
        let report = try ScenarioRunner.run(try ScenarioParser.parse(text, path: "p.scenario").get()).get()
        #expect(report.results.map(\.passed) == [true, true], "\(report.text())")
    }

    @Test(arguments: [
        (#"header "x-apns-priority" "5""#, 71, #"the hub sends a template's apns-* and X-WNS-* headers, not "x-apns-priority""#),
        (#"header "apns-priority""#, 86, "expected the header's value in double quotes, e.g. \"wns/raw\" or \"$(priority)\", found end of line"),
        (#"header "apns priority" "5""#, 76, "a header's name takes letters, digits and !#$%&'*+-.^_`|~, not \" \""),
        (#"header "apns-priority" "5" header "APNS-PRIORITY" "10""#, 98, #"header "APNS-PRIORITY" is given twice in this template"#),
        (#"header"#, 70, "expected the header's name in double quotes, e.g. \"X-WNS-Type\", found end of line"),
        (#"expiry """#, 71, "a template's expiry cannot be empty"),
        (#"expiry "0" expiry "1""#, 75, "the template's expiry is given twice"),
        (#"tags x tags y"#, 71, "the template's tags are given twice"),
        (#"header "X-WNS-Type" "wns/raw""#, 71, #"bob-iphone's template goes to APNs, which takes apns-* headers, not "X-WNS-Type""#),
    ])
    func misusedTemplatePartsAreLocated(_ tail: String, _ column: Int, _ message: String) throws {
        let d = try #require(BobScenario.firstError(#"operator put installation of bob-iphone template "a" body "{}" "# + tail))
        #expect(d.location == SourceLocation(file: "t.scenario", line: 3, column: column))
        #expect(d.message == message)
        #expect(d.hint != nil)
    }

    /// FCM v1 takes neither template headers nor an expiry, WNS no expiry: checked once the whole
    /// file is read, so a device declared after the line is known.
    @Test(arguments: [
        ("carol-pixel", "android", #"expiry "0""#, 65, "carol-pixel's template goes to FCM: an expiry is for APNs templates only"),
        ("carol-pixel", "android", #"header "apns-priority" "5""#, 72, "carol-pixel's template goes to FCM, which takes no template headers"),
        ("dee-pc", "windows", #"expiry "0""#, 60, "dee-pc's template goes to WNS: an expiry is for APNs templates only"),
        ("dee-pc", "windows", #"header "X-WNS-Type" "wns/raw""#, 0, ""),
    ])
    func aTemplatesPartsMustSuitTheDevicesService(_ device: String, _ platform: String, _ tail: String, _ column: Int, _ message: String) throws {
        let body = "operator put installation of \(device) template \"a\" body \"{}\" \(tail)\ndevice \(device) \(platform)"
        guard column > 0 else { return #expect(BobScenario.firstError(body) == nil) }
        let d = try #require(BobScenario.firstError(body))
        #expect(d.location == SourceLocation(file: "t.scenario", line: 3, column: column))
        #expect(d.message == message)
        #expect(d.hint != nil)
    }
}
