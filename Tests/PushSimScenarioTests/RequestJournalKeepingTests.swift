import Testing
import PushSimKernel
@testable import PushSimScenario

/// The request journal is kept only when an `expect <host> received` reads it.
@Suite("Scenario runner: the request journal")
struct RequestJournalKeepingTests {
    private static let story = """
        scenario "journal"
        device phone ios user alice
        at 0s phone install
        at 1s phone login alice password alice
        at 5s phone send "hi" to alice via apns
        expect phone shows "From alice: hi"

        """

    private func journalEntries(_ text: String) throws -> Int {
        var entries = -1
        let scenario = try ScenarioParser.parse(text, path: "journal.scenario").get()
        let report = try ScenarioRunner.run(scenario, prepare: { simulation in
            simulation.world.schedule(at: VirtualTime(microseconds: 60_000_000)) { entries = simulation.world.journal.entries.count }
        }).get()
        #expect(report.passed)
        return entries
    }

    @Test func keptOnlyWhenAnExpectationReadsIt() throws {
        #expect(try journalEntries(Self.story) == 0)
        #expect(try journalEntries(Self.story + "expect apns received 1 request\n") > 0)
    }
}
