import Testing
@testable import PushSimScenario

/// Issue 41 through the scenario language: `header "X-WNS-Type" "wns/raw"` on an operator send,
/// schedule or test-send sends the body raw (it went as `wns/badge`, or was refused when not XML),
/// and `expect <device> badge` reads Windows glyphs and `none` (a cleared badge included).
@Suite struct WindowsRawAndBadgeTests {
    private static let head = """
        scenario "t"
        seed 1
        device dee-pc windows user dee
        device bob-iphone ios user bob
        at 0s dee-pc install
        at 0s bob-iphone install
        at 1s dee-pc login dee password dee
        at 1s bob-iphone login bob password bob

        """

    private func run(_ body: String) throws -> ScenarioReport {
        let scenario = try ScenarioParser.parse(Self.head + body, path: "t.scenario").get()
        return try ScenarioRunner.run(scenario).get()
    }

    @Test func rawSendsScheduledSendsAndTestSendsGoRaw() throws {
        let report = try run(#"""
            at 5s operator send windows "<badge value=\"5\"/>" to "username:dee"
            at 6s operator send windows "<badge value=\"9\"/>" to "username:dee" header "X-WNS-Type" "wns/raw"
            at 7s operator send windows "count=3" to "username:dee" header "X-WNS-Type" "wns/raw"
            at 8s operator schedule windows "sync=1" at +1m to "username:dee" header "X-WNS-Type" "wns/raw"
            at 9s operator test-send windows "ping" to "username:dee" header "X-WNS-Type" "wns/raw"
            expect dee-pc badge 5
            expect dee-pc shows nothing
            expect wns received 4 requests with request header "X-WNS-Type" "wns/raw" and request header "Content-Type" "application/octet-stream"
            expect wns received 1 request with request header "X-WNS-Type" "wns/badge"
            expect hub received 4 requests with request header "X-WNS-Type" "wns/raw" and request header "Content-Type" "application/octet-stream"
            expect operator send status 4xx
            expect operator test-send results 1
            """#)
        #expect(report.results.map(\.passed) == [true, true, true, true, true, false, true], "\(report.results.map(\.seen))")
    }

    @Test func badgeGlyphsNoneAndAClearedIOSBadgeAreRead() throws {
        let report = try run(#"""
            at 5s operator send windows "<badge value=\"7\"/>" to "username:dee"
            at 5s operator send apple "{\"aps\":{\"alert\":\"3 new\",\"badge\":3}}" to "username:bob"
            at 6s operator send windows "<badge value=\"alert\"/>" to "username:dee"
            at 6s operator send apple "{\"aps\":{\"badge\":0}}" to "username:bob"
            at 7s operator send windows "<badge value=\"none\"/>" to "username:dee"
            expect dee-pc badge 7 by 5500ms
            expect dee-pc badge alert by 6500ms
            expect dee-pc badge none
            expect dee-pc badge 0
            expect dee-pc badge newMessage by 6500ms
            expect bob-iphone badge 3 by 5500ms
            expect bob-iphone badge none
            """#)
        #expect(report.results.map(\.passed) == [true, true, true, true, false, true, true], "\(report.results.map(\.seen))")
        #expect(report.results[4].seen == "dee-pc's badge was alert")
    }

    @Test func anUnknownGlyphIsAPositionedErrorListingTheGlyphs() throws {
        let error = try #require(BobScenario.firstError("expect bob-iphone badge blinking"))
        #expect(error.message == "unknown badge \"blinking\"")
        #expect(error.location.line == 3 && error.location.column == 25)
        #expect(error.hint == "a badge is a number, none, or a Windows glyph: activity, alert, alarm, available, away, busy, "
                + "newMessage, paused, playing, unavailable, error, attention")
        let missing = try #require(BobScenario.firstError("expect bob-iphone badge"))
        #expect(missing.message == "expected a badge: a number, a glyph or none, found end of line")
    }
}
