import PushSimKernel
@testable import PushSimNetwork
import Testing

/// `World.requestStop()`: a driver (pushsim serve) runs the world until one answer is back.
@Suite("World: stopping a run from inside")
struct WorldStopTests {
    @Test func aRunStopsRightAfterTheEventThatAskedAndResumesLater() {
        let world = World(seed: 1)
        var fired: [Int64] = []
        for s: Int64 in [1, 2, 3] {
            world.schedule(at: .zero + .seconds(s)) {
                fired.append(s)
                if s == 2 { world.requestStop() }
            }
        }
        #expect(world.run() == .stoppedAt(.zero + .seconds(2)))
        #expect(fired == [1, 2])
        #expect(world.run() == .quiescent)
        #expect(fired == [1, 2, 3])
    }
}
