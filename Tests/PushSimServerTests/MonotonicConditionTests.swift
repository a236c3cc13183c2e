import Dispatch
import Foundation
@testable import PushSimServer
import Testing

/// `MonotonicCondition`: the server's waits end at a broadcast or at a `DispatchTime` deadline.
@Suite("Monotonic condition")
struct MonotonicConditionTests {
    @Test func aWaitEndsAtItsDeadlineWhenNobodyBroadcasts() {
        let condition = MonotonicCondition()
        let start = DispatchTime.now()
        condition.lock()
        let woken = condition.wait(until: start + .milliseconds(50))
        condition.unlock()
        let waited = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
        #expect(!woken)
        #expect(waited >= 50_000_000, "woke after \(waited) ns, before its deadline")
    }

    @Test func aBroadcastWakesEveryWaiter() {
        let condition = MonotonicCondition()
        nonisolated(unsafe) var ready = false
        let group = DispatchGroup()
        let woken = Counter()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                condition.lock()
                while !ready { if !condition.wait(until: .now() + .seconds(10)) { break } }
                if ready { woken.add() }
                condition.unlock()
            }
        }
        Thread.sleep(forTimeInterval: 0.05)
        condition.withLock { ready = true; condition.broadcast() }
        #expect(group.wait(timeout: .now() + .seconds(5)) == .success)
        #expect(woken.value == 3)
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
