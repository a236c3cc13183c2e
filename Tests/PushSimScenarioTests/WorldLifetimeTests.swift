import Testing
import Foundation
import PushSimKernel
import PushSimNetwork
@testable import PushSimScenario

/// A finished run leaves nothing alive: the world, its hosts and its devices are freed once the
/// last outside reference goes. (Before: each device, backend, hub client and the operator console
/// held its world strongly while the world held them, so every run leaked its whole world, 31–56 KB
/// for the walkthrough, and a sweep of 100,000 seeds kept every one of them.)
@Suite("World lifetime")
struct WorldLifetimeTests {
    private func walkthrough() throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Scenarios/tutorial/walkthrough.scenario")
        return try ScenarioParser.parse(String(contentsOf: url, encoding: .utf8), path: url.path).get()
    }

    @Test func aRunFreesItsWorld() throws {
        let scenario = try walkthrough()
        weak var world: World?
        weak var simulation: Simulation?
        do {
            let report = try ScenarioRunner.run(scenario) { s in
                world = s.world
                simulation = s
            }.get()
            #expect(report.passed)
        }
        #expect(simulation == nil)
        #expect(world == nil)
    }

    @Test func aRunStoppedByItsTimeLimitWithStepsLeftFreesItsWorld() throws {
        let text = "scenario \"cut short\"\nlimit time 10s\ndevice bob ios user bob\nat 0s bob install\nat 1s bob login bob password bob\nat 1h bob logout\nat 2h operator send apple \"{}\"\n"
        let scenario = try ScenarioParser.parse(text, path: "t.scenario").get()
        weak var world: World?
        do {
            let report = try ScenarioRunner.run(scenario) { world = $0.world }.get()
            #expect(report.end.isLimit)
        }
        #expect(world == nil)
    }

    @Test func aHandBuiltSimulationWithPendingEventsIsFreed() {
        weak var world: World?
        do {
            let s = Simulation(seed: 7)
            world = s.world
            let phone = s.addDevice("bob-iphone", .ios, user: "bob")
            s.at(.zero + .seconds(1), "install") { phone.install() }
            // An event far beyond the end keeps a closure (and through it the device) in the queue.
            s.world.schedule(at: .zero + .days(1)) { _ = phone.name }
            s.world.limits.maxTime = .zero + .seconds(60)
            _ = s.run()
        }
        #expect(world == nil)
    }
}
