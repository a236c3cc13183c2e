import Foundation
import PushSim
import BenchSupport

// Hub scale benchmark: load N registrations through the bulk import, then route a tag expression
// over them. Tags: every registration has username:u<i>; 10% have topic a, 10% topic b, 10%
// topic c (independently, from the seed). Usage: hub-bench [--registrations N] [--reps R]


let count = Int(argument("--registrations", "1000000")) ?? 1_000_000
let reps = Int(argument("--reps", "5")) ?? 5
let expression = "(a && !b) || c"

let before = residentKiB()
let sim = Simulation(seed: 1)
sim.world.isRecordingTrace = false
var random = SeededRandom(seed: 42)
var descriptions: [RegistrationDescription] = []
descriptions.reserveCapacity(count)
for i in 0..<count {
    var tags = ["username:u\(i)"]
    for t in ["a", "b", "c"] where random.chance(Ratio(1, 10)) { tags.append(t) }
    descriptions.append(RegistrationDescription(platform: .apple, handle: random.hex(bytes: 32, uppercase: true), tags: tags))
}
let start = wallClock()
guard case .success = sim.hub.importRegistrations(descriptions, world: sim.world) else { fatalError("import failed") }
let load = seconds(since: start)
descriptions = []
let after = residentKiB()
print(String(format: "hub-bench: %d registrations loaded in %.2f s; resident memory +%d MiB (%.0f bytes per registration)",
             count, load, (after - before) / 1024, Double((after - before) * 1024) / Double(count)))
var times: [Double] = []
var matched = 0
for _ in 0..<reps {
    let t = wallClock()
    guard case .success(let n) = sim.hub.route(expression, platform: .apple, now: sim.world.now) else { fatalError("bad expression") }
    times.append(seconds(since: t))
    matched = n
}
times.sort()
print(String(format: "route %@ over %d registrations: %d matches, best %.1f ms, median %.1f ms (goal 20 ms)",
             expression, count, matched, times[0] * 1e3, times[times.count / 2] * 1e3))
