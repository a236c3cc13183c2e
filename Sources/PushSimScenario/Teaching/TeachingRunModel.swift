import PushSimKernel

/// A run analysed for the page: lanes, exchanges, chains, steps with their table changes, and verdicts.
struct TeachingRunModel {
    let title: String
    let report: ScenarioReport
    let deviceNames: Set<String>
    let exchanges: [TeachingExchange]
    let chains: [TeachingChain]
    let lanes: [TeachingLane]
    let initialRows: [TeachingRowChange]
    let steps: [TeachingStep]
    let totalSteps: Int
    let badges: [TeachingBadge]

    init(_ run: TeachingPage.Run, limits: TeachingPage.Limits) {
        title = run.title
        report = run.report
        deviceNames = Set(report.scenario.devices.map(\.name))
        exchanges = TeachingExchange.all(in: report.trace)
        chains = TeachingChain.all(in: report.trace)
        lanes = TeachingLane.all(report, exchanges: exchanges, maxDevices: limits.deviceLanes)
        let walked = TeachingStep.all(report, exchanges: exchanges, maxRows: limits.tableRows, limit: limits.steps)
        initialRows = walked.initial
        steps = walked.steps
        totalSteps = walked.total
        badges = TeachingBadge.all(report, steps: steps, expectationsFromAnotherRun: run.expectationsFromAnotherRun)
    }
}
