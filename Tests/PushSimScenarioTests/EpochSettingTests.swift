import PushSimKernel
import Testing
@testable import PushSimScenario

/// `epoch <RFC 3339 UTC time>`: the calendar instant of virtual time zero, in the run's header and
/// in every wall-clock value the fakes make.
@Suite struct EpochSettingTests {
    private func run(_ text: String) throws -> (ScenarioReport, CalendarAnchor?) {
        let scenario = try ScenarioParser.parse(text, path: "e.scenario").get()
        var anchor: CalendarAnchor?
        let report = try ScenarioRunner.run(scenario, prepare: { anchor = $0.world.anchor }).get()
        return (report, anchor)
    }

    @Test func theHeaderPrintsTheDefaultEpoch() throws {
        let (report, anchor) = try run("scenario \"e\"\nseed 4\n")
        #expect(report.text().hasPrefix("scenario e.scenario \"e\" seed 4\n  settings: epoch 2026-01-01T00:00:00Z; backend tutorial; devices: none\n"))
        #expect(anchor == CalendarAnchor(unixSecondsAtZero: 1_767_225_600))
    }

    /// A send scheduled two hours in is due at 02:00:10 on the epoch's day, as the hub records it.
    @Test func theEpochMovesTheFakesWallClock() throws {
        let (report, anchor) = try run("""
            scenario "e"
            epoch 2027-03-01T00:00:00Z
            at 10s operator schedule apple "{}" at +2h
            """)
        #expect(anchor == CalendarAnchor(unixSecondsAtZero: 1_803_859_200))
        #expect(report.text().contains("\n  settings: epoch 2027-03-01T00:00:00Z; backend tutorial; devices: none\n"))
        let scheduled = try #require(report.trace.first { $0.kind.name == "hub.scheduled" })
        #expect(scheduled[.at]?.description == "2027-03-01T02:00:10Z")
        #expect(!report.settingsSummary.contains("epoch"))
    }

    @Test func aQuotedEpochAndALeapDayAreAccepted() throws {
        let s = try ScenarioParser.parse("scenario \"e\"\nepoch \"2028-02-29T23:59:59Z\"\n", path: "e.scenario").get()
        #expect(s.epoch.iso8601(.zero) == "2028-02-29T23:59:59Z")
    }

    @Test(arguments: [
        ("2027-02-29T00:00:00Z", 15, "day 29 does not exist in month 2 of 2027, which has 28 days"),
        ("2026-13-01T00:00:00Z", 12, "month 13 does not exist"),
        ("2026-01-01T24:00:00Z", 18, "hour 24 is out of range: hours are 00 to 23"),
        ("2026-01-01T00:60:00Z", 21, "minute 60 is out of range: minutes are 00 to 59"),
        ("2026-01-01T00:00:60Z", 24, "second 60 is out of range: seconds are 00 to 59 (Unix time has no leap seconds)"),
        ("0000-01-01T00:00:00Z", 7, "year 0000 is out of range: years are 0001 to 9999"),
        ("2026-01-01T00:00:00+01:00", 26, "the epoch is in UTC: end it with Z, not an offset"),
        ("2026-01-01T00:00:00.5Z", 26, "the epoch is whole seconds: drop the fraction"),
        ("2026-01-01t00:00:00Z", 17, "expected an RFC 3339 UTC time such as 2026-01-01T00:00:00Z, found \"2026-01-01t00:00:00Z\""),
        ("2026-01-01", 17, "expected an RFC 3339 UTC time such as 2026-01-01T00:00:00Z, found \"2026-01-01\""),
        ("2026-1-01T00:00:00Z", 13, "expected an RFC 3339 UTC time such as 2026-01-01T00:00:00Z, found \"2026-1-01T00:00:00Z\""),
    ])
    func aMalformedEpochIsRefusedAtItsField(_ text: String, _ column: Int, _ message: String) throws {
        guard case .failure(let failure) = ScenarioParser.parse("scenario \"e\"\nepoch \(text)\n", path: "e.scenario") else {
            Issue.record("epoch \(text) was accepted"); return
        }
        let d = try #require(failure.diagnostics.first)
        #expect(d.location == SourceLocation(file: "e.scenario", line: 2, column: column))
        #expect(d.message == message)
        #expect(d.hint?.contains("epoch 2026-01-01T00:00:00Z") == true)
    }

    @Test func anEpochNeedsAValue() throws {
        guard case .failure(let failure) = ScenarioParser.parse("scenario \"e\"\nepoch\n", path: "e.scenario") else {
            Issue.record("a bare epoch was accepted"); return
        }
        #expect(failure.diagnostics.first?.location.line == 2)
    }
}
