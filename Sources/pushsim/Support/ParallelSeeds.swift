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
        private var next = 0
        private(set) var results: [(UInt64, T)] = []

        func take(_ seeds: [UInt64], deadline: UInt64?) -> UInt64? {
            lock.lock(); defer { lock.unlock() }
            guard next < seeds.count else { return nil }
            if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { next = seeds.count; return nil }
            next += 1
            return seeds[next - 1]
        }

        func put(_ seed: UInt64, _ result: T) {
            lock.lock(); defer { lock.unlock() }
            results.append((seed, result))
        }
    }

    /// The number of cores, for `--jobs` by default.
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }
}
