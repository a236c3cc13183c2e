import PushSimKernel
@testable import PushSimNetwork
import Testing

/// `World.unixSeconds(judging:)`: the outside clock for callers that are not hosts of the world.
@Suite("The outside clock")
struct OutsideClockTests {
    final class Quiet: Host { func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {} }

    @Test func callersOutsideAreJudgedByTheLaggingClockHostsByTheWorlds() {
        let world = World(seed: 1, anchor: CalendarAnchor(unixSecondsAtZero: 1_000_000))
        world.register(Quiet(), name: "backend")
        world.schedule(at: .zero + .seconds(100)) {}
        world.run()
        #expect(world.unixSeconds(judging: "sdk#3") == 1_000_100)
        world.outsideClockLag = .days(91)
        #expect(world.unixSeconds(judging: "backend") == 1_000_100)
        #expect(world.unixSeconds(judging: "sdk#3") == 1_000_100 - 91 * 86_400)
        #expect(world.unixSeconds(judging: "sdk") == 1_000_100 - 91 * 86_400)
    }
}
