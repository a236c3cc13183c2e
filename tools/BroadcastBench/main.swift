import Foundation
import PushSim
import BenchSupport

// Broadcast benchmark: a population of N devices split evenly over iOS, Android and Windows
// (three DeviceFleets). The members install in waves (`--wave` per platform, one virtual second
// apart); each asks its push service for a handle over the device channel, and each wave's
// handles are loaded into the hub with the bulk import (one registration each, with a
// username:<i> tag, as the tutorial's backend would write); then one native broadcast per
// platform (no tags) goes out at the same instant, and the run goes on until every copy has
// been answered. Every member must receive the notification exactly once.
//
// Measured: wall time of the broadcast (from the three sends to the last answer), and resident
// memory per device (everything the simulation holds: fleets, push services' handle registries,
// hub registrations, the notification's telemetry), read from /proc/self/status, and the peak
// (VmHWM) over the whole run, set-up included.
// Usage: broadcast-bench [--devices N] [--seed S] [--wave N]


let total = Int(argument("--devices", "1000000")) ?? 1_000_000
let seed = UInt64(argument("--seed", "1")) ?? 1
/// Members per platform that install at once (`--wave`).
let wave = max(1, Int(argument("--wave", "100000")) ?? 100_000)
let memoryBefore = residentKiB()
let sim = benchmarkSimulation(seed: seed)

let platforms: [(DevicePlatform, RegistrationPlatform, String, String)] = [
    (.ios, .apple, "apple", #"{"aps":{"alert":"Hello everyone"}}"#),
    (.android, .fcmV1, "fcmv1", #"{"message":{"notification":{"title":"Hello everyone"}}}"#),
    (.windows, .windows, "windows",
     #"<toast><visual><binding template="ToastText01"><text id="1">Hello everyone</text></binding></visual></toast>"#),
]
var fleets: [DeviceFleet] = []
var pending: [RegistrationDescription] = []
pending.reserveCapacity(min(total, 3 * wave))
var firstUser = 0
for (k, (device, registration, _, _)) in platforms.enumerated() {
    let count = total / 3 + (k < total % 3 ? 1 : 0)
    let fleet = sim.addFleet(["ios", "and", "win"][k], device, count: count)
    let base = firstUser
    fleet.onHandle = { member, handle in
        pending.append(RegistrationDescription(platform: registration, handle: handle, tags: ["username:u\(base + member)"]))
    }
    firstUser += count
    fleets.append(fleet)
}

print("broadcast-bench: \(total) devices (\(fleets.map { "\($0.count) \($0.platform.rawValue)" }.joined(separator: ", "))), "
      + "installing in waves of \(wave) per platform")
// Set-up in waves: each wave of members installs 1 s of virtual time after the previous one, asks
// for its handles, and its registrations are imported once the handles are in. The calls in flight
// and the registrations waiting for the import stay a wave's worth.
var handles = 0.0, imported = 0.0
var importedCount = 0
for start in stride(from: 0, to: fleets.map(\.count).max() ?? 0, by: wave) {
    let handleStart = wallClock()
    sim.at(sim.world.now + .seconds(1)) { for f in fleets { f.install(members: start..<(start + wave)) } }
    sim.run()
    handles += seconds(since: handleStart)
    let importStart = wallClock()
    guard case .success(let ids) = sim.hub.importRegistrations(pending, world: sim.world), ids.count == pending.count else {
        fatalError("bulk import failed or incomplete")
    }
    importedCount += ids.count
    pending.removeAll(keepingCapacity: true)
    imported += seconds(since: importStart)
}
guard importedCount == total else { fatalError("imported \(importedCount) registrations for \(total) devices") }
let memoryHandles = residentKiB()
print(String(format: "setup: %d handles over the device channel in %.2f s; %d registrations imported in %.2f s",
             total - fleets.reduce(0) { $0 + $1.handleFailures }, handles, importedCount, imported))

let eventsBefore = sim.world.eventsProcessed
let sendAt = sim.world.now + .seconds(10)
sim.at(sendAt) {
    for (_, _, format, payload) in platforms { sim.operatorConsole.send(format: format, payload: payload, tagExpression: nil) }
}
/// The measured phase, a function of its own so that profilers can select it (valgrind's `--toggle-collect='*Phase*'`: in the module `broadcast_bench` its symbol is spelled `…0A5Phase…`).
@inline(never) func broadcastPhase(_ sim: Simulation) { sim.run() }
let start = wallClock()
broadcastPhase(sim)
let wall = seconds(since: start)
let memoryAfter = residentKiB()
let events = sim.world.eventsProcessed - eventsBefore
let reached = fleets.reduce(0) { $0 + $1.membersReached }
let received = fleets.reduce(0) { $0 + $1.totalReceived }
let perDevice = Double(memoryAfter - memoryBefore) * 1024 / Double(total)
print(String(format: "broadcast: %.2f s wall for %d devices (%.2f µs per device), %d events, %.3f s virtual; %d reached, %d received",
             wall, total, wall * 1e6 / Double(total), events, Double((sim.world.now - sendAt).microseconds) / 1e6, reached, received))
print(String(format: "memory: %d MiB resident for the whole simulation = %.0f bytes per device (goal: 1024); "
             + "%.0f of them by the end of setup (fleets, push services' handles, registrations being imported)",
             (memoryAfter - memoryBefore) / 1024, perDevice, Double(memoryHandles - memoryBefore) * 1024 / Double(total)))
print(String(format: "peak: %.0f bytes per device at the most over the whole run (VmHWM; goal: 1024)",
             Double(peakResidentKiB() - memoryBefore) * 1024 / Double(total)))
print("leftovers: \(sim.world.leftovers().count)")
precondition(reached == total && received == total, "every device must receive the broadcast exactly once")
