import Foundation
import PushSim
import BenchSupport

// Hub scale benchmark: load N registrations through the bulk import, then route a tag expression
// over them. Tags: every registration has username:u<i>; 10% have topic a, 10% topic b, 10%
// topic c (independently, from the seed). With --installations M, also write M installations
// through the hub SDK (tags username:i<k> and everyone), then route M targeted sends, one to each
// installation's $InstallationId:{…} tag, in a random order from the seed: the routing of the
// sends a backend makes to its users' installations.
// Usage: hub-bench [--registrations N] [--reps R] [--installations M]


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

let installationCount = Int(argument("--installations", "0")) ?? 0
if installationCount > 0 {
    guard let client = NotificationHubClient(connectionString: sim.hubConnectionString, hubPath: sim.hub.configuration.hubName,
                                             world: sim.world, caller: "hub-bench") else { fatalError("no hub client") }
    let writeStart = wallClock()
    for k in 0..<installationCount {
        let installation = Installation(installationID: "inst-\(k)", platform: .apple, pushChannel: random.hex(bytes: 32, uppercase: true),
                                        tags: ["username:i\(k)", "everyone"])
        client.createOrUpdateInstallation(installation) { if case .failure(let e) = $0 { fatalError("installation refused: \(e)") } }
    }
    sim.world.run(until: sim.world.now + .seconds(60))
    let write = seconds(since: writeStart)
    var order = Array(0..<installationCount)
    random.shuffle(&order)
    let routeStart = wallClock()
    var reached = 0
    for k in order {
        guard case .success(let n) = sim.hub.route("$InstallationId:{inst-\(k)}", platform: .apple, now: sim.world.now) else { fatalError("bad expression") }
        reached += n
    }
    let route = seconds(since: routeStart)
    guard reached == installationCount else { fatalError("\(reached) sends reached an installation, not \(installationCount)") }
    print(String(format: "%d installations written through the hub SDK in %.2f s; %d targeted sends routed in %.3f s (%.2f µs per send), each reaching its installation",
                 installationCount, write, installationCount, route, route * 1e6 / Double(installationCount)))
}
