// kernel-bench: the classic "hold model" benchmark of PushSimKernel's EventQueue.
//
// Fill the queue with `--pending` events at random times, then `--ops` times pop the earliest
// event and push a new one at (popped time + uniform 1...1_000_000 µs). One "event" = one
// pop + push. Times are measured with the monotonic wall clock (this tool is outside the
// simulation, so the wall clock is fine here). One warm-up run, then `--reps` timed runs.
//
//   swift run --scratch-path .build-kernel -c release kernel-bench [--pending N] [--ops N] [--reps N]
import PushSimKernel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Options {
    var pending = 1_000_000
    var ops = 10_000_000
    var reps = 3
    var seed: UInt64 = 0x5eed_2026
}

func usage(_ message: String) -> Never {
    let text = "kernel-bench: \(message)\nusage: kernel-bench [--pending N] [--ops N] [--reps N] [--seed N]\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(2)
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    while let flag = args.popFirst() {
        if flag == "-h" || flag == "--help" { usage("hold-model benchmark of EventQueue") }
        guard let text = args.popFirst() else { usage("\(flag) needs a value") }
        let digits = text.replacingOccurrences(of: "_", with: "")
        guard let n = Int(digits), n >= 0 else { usage("\(flag) needs a non-negative integer, got '\(text)'") }
        switch flag {
        case "--pending": o.pending = n
        case "--ops": o.ops = n
        case "--reps": o.reps = max(1, n)
        case "--seed": o.seed = UInt64(n)
        default: usage("unknown option \(flag)")
        }
    }
    if o.pending == 0 && o.ops > 0 { usage("--pending must be at least 1 when --ops > 0") }
    return o
}

extension String {
    func replacingOccurrences(of a: String, with b: String) -> String {
        split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b)
    }
}

struct RunResult {
    var seconds: Double
    var checksum: UInt64
}

let maxIncrement: Int64 = 1_000_000

/// Builds the queue (untimed), then times `ops` hold operations.
@inline(never)
func holdRun(_ o: Options) -> RunResult {
    var rng = SeededRandom(seed: o.seed)
    var queue = EventQueue<UInt64>(reservingCapacity: o.pending + 1)
    for i in 0..<o.pending {
        queue.push(UInt64(i), at: VirtualTime(microseconds: rng.int(in: 1...maxIncrement)))
    }
    var checksum: UInt64 = 0
    var last = VirtualTime.zero, outOfOrder = 0
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<o.ops {
        let e = queue.pop().unsafelyUnwrapped
        if e.time < last { outOfOrder += 1 }   // every push is later than the pop, so never
        last = e.time
        checksum = checksum &* 31 &+ UInt64(bitPattern: e.time.microseconds) ^ e.payload
        queue.push(e.payload, at: e.time + .microseconds(rng.int(in: 1...maxIncrement)))
    }
    let elapsed = start.duration(to: clock.now)
    precondition(queue.count == o.pending && outOfOrder == 0, "queue popped \(outOfOrder) events out of order")
    return RunResult(seconds: seconds(elapsed), checksum: checksum)
}

/// The same loop with the queue left out: the cost of drawing the random increments.
@inline(never)
func rngOnlyRun(_ o: Options) -> RunResult {
    var rng = SeededRandom(seed: o.seed)
    var checksum: UInt64 = 0
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<o.ops { checksum = checksum &* 31 &+ UInt64(bitPattern: rng.int(in: 1...maxIncrement)) }
    return RunResult(seconds: seconds(start.duration(to: clock.now)), checksum: checksum)
}

func seconds(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) + Double(c.attoseconds) * 1e-18
}

func rate(_ ops: Int, _ s: Double) -> String {
    s > 0 ? fmt(Double(ops) / s / 1e6, 2) + "M events/s" : "n/a"
}

func fmt(_ x: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let v = (x * scale).rounded() / scale
    var s = String(v)
    if let dot = s.firstIndex(of: ".") {
        let have = s.distance(from: dot, to: s.endIndex) - 1
        if have < decimals { s += String(repeating: "0", count: decimals - have) }
    }
    return s
}

let o = parseOptions()
print("kernel-bench: hold model, EventQueue<UInt64>, pending \(o.pending), ops \(o.ops), reps \(o.reps), seed \(o.seed)")
let warm = holdRun(o)
print("warm-up: \(fmt(warm.seconds, 3)) s (\(rate(o.ops, warm.seconds)))")
var results: [RunResult] = []
for r in 1...o.reps {
    let res = holdRun(o)
    results.append(res)
    print("rep \(r): \(fmt(res.seconds, 3)) s (\(rate(o.ops, res.seconds)))")
}
let times = results.map(\.seconds).sorted()
let best = times[0], median = times[times.count / 2]
let sums = Set(results.map(\.checksum) + [warm.checksum])
let rngBase = rngOnlyRun(o)
print("best:   \(rate(o.ops, best))")
print("median: \(rate(o.ops, median))")
print("rng-only baseline (increments, no queue): \(rate(o.ops, rngBase.seconds)) (sink 0x\(String(rngBase.checksum, radix: 16)))")
print("checksum of popped times: 0x\(String(warm.checksum, radix: 16))\(sums.count == 1 ? "" : " MISMATCH across reps!")")
if sums.count != 1 { exit(1) }
