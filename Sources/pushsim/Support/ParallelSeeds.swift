import Foundation

/// Runs independent seeds on every core: the only place where `pushsim` uses threads for
/// simulations. Each seed builds and runs its own world on one thread, so a seed's result never
/// depends on the others, on their order or on the number of threads; results come back sorted by
/// seed. With a deadline (wall clock, outside every simulation), seeds not started by then are
/// skipped and reported as such.
enum ParallelSeeds {
    /// What a sweep did.
    struct Sweep<T: Sendable>: Sendable {
        /// `(seed, result)` for every seed run, in seed order.
        var results: [(UInt64, T)]
        /// Seeds left out because the time budget ran out.
        var skipped: Int
    }

    /// Runs `body` once per seed of `seeds` on `jobs` threads (at most one per seed), starting no
    /// seed once the uptime clock reaches `deadline` (nanoseconds, `DispatchTime` uptime).
    static func run<T: Sendable>(_ seeds: [UInt64], jobs: Int, deadline: UInt64? = nil,
                                 _ body: @escaping @Sendable (UInt64) -> T) -> Sweep<T> {
        let box = Box<T>()
        let workers = max(1, min(jobs, seeds.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let seed = box.take(seeds, deadline: deadline) {
                let result = body(seed)
                box.put(seed, result)
            }
        }
        return Sweep(results: box.results.sorted { $0.0 < $1.0 }, skipped: seeds.count - box.results.count)
    }

    /// The shared state of a sweep, behind a lock (`@unchecked Sendable`: every access to its
    /// fields goes through `lock`).
    private final class Box<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        /// The index in the seeds of the next seed to hand out.
        private var next = 0
        /// `(seed, result)` for every seed finished, in the order they finished.
        private(set) var results: [(UInt64, T)] = []

        /// The next seed to run, or nil when every seed is handed out or `deadline` has passed
        /// (then no seed is handed out any more).
        func take(_ seeds: [UInt64], deadline: UInt64?) -> UInt64? {
            lock.lock(); defer { lock.unlock() }
            guard next < seeds.count else { return nil }
            if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { next = seeds.count; return nil }
            next += 1
            return seeds[next - 1]
        }

        /// Records `result` as the result of `seed`.
        func put(_ seed: UInt64, _ result: T) {
            lock.lock(); defer { lock.unlock() }
            results.append((seed, result))
        }
    }

    /// The number of cores, for `--jobs` by default.
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }
}
