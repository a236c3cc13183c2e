import Dispatch
import Foundation

/// A condition variable whose waits end at a monotonic deadline (`DispatchTime`, the uptime clock),
/// never at a calendar `Date`: setting the system clock, or a leap of NTP, cannot wake a waiter
/// early or keep it asleep. Used the way `NSCondition` is: `lock()`, test the predicate, `wait`
/// while it does not hold, `unlock()`; `broadcast()` (lock held) wakes every waiter.
///
/// Each waiter sleeps on a semaphore of its own, registered under the lock before the lock is
/// released, so a broadcast between its look and its sleep is not lost.
///
/// `@unchecked Sendable`: `sleepers` is touched only with `mutex` held.
final class MonotonicCondition: @unchecked Sendable {
    private let mutex = NSLock()
    private var sleepers: [DispatchSemaphore] = []

    func lock() { mutex.lock() }
    func unlock() { mutex.unlock() }

    /// Runs `body` with the lock held.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }

    /// With the lock held: releases it, sleeps until a ``broadcast()`` or `deadline`, takes the
    /// lock again. Returns false when the deadline passed first.
    @discardableResult
    func wait(until deadline: DispatchTime) -> Bool {
        let sleeper = DispatchSemaphore(value: 0)
        sleepers.append(sleeper)
        mutex.unlock()
        let woken = sleeper.wait(timeout: deadline) == .success
        mutex.lock()
        if !woken { sleepers.removeAll { $0 === sleeper } }
        return woken
    }

    /// With the lock held: releases it, sleeps until a ``broadcast()``, takes the lock again.
    func wait() { wait(until: .distantFuture) }

    /// With the lock held: wakes every waiter.
    func broadcast() {
        for sleeper in sleepers { sleeper.signal() }
        sleepers.removeAll()
    }
}
