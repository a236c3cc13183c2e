import Foundation
import PushSim
import BenchSupport

// Registration benchmark: the tutorial's whole path for N fully simulated devices (`Device`, the
// tutorial client, the tutorial backend, the real hub and the push services), exactly what a
// scenario does:
//   setup   at 0 s every device installs the app (asks its push service for a handle over the
//           device channel); at 1 s every user logs in, which registers: POST /api/register?handle=
//           (the backend reads the hub's registrations by channel, then creates an id) and
//           PUT /api/register/<id> (the backend writes the Atom registration with the user's tag);
//   sends   at 10 s device i sends one message to the user of device i+1 (POST /api/notifications,
//           switch of the recipient's platform): the backend sends a native notification to
//           `username:<to> || from:<sender>`, the hub routes it to the one registration and hands it
//           to the PNS, which pushes it to the device.
// Every device must end registered (every backend call answered 200) and show exactly one
// notification, the one meant for it; the run fails loudly otherwise.
//
// Measured: wall time per device of each phase, events, and the whole run from the creation of
// the simulation (what `tools/moto-compare.sh` sets against moto). The two phases run in functions
// of their own so that profilers can select them:
//   valgrind --tool=callgrind --toggle-collect='*Phase*'  (registrationPhase and sendPhase; the module name shortens the first symbol) …
// Usage: registration-bench [--devices N] [--platforms ios,android,windows] [--reps R] [--seed S]
//        [--client tutorial|recommended]

let total = Int(argument("--devices", "10000")) ?? 10_000
let platforms = listArgument("--platforms", "ios,android,windows", accepted: "ios, android, windows") { DevicePlatform(rawValue: $0) }
let reps = max(1, Int(argument("--reps", "1")) ?? 1)
let firstSeed = UInt64(argument("--seed", "1")) ?? 1
let client = ClientFlavour(rawValue: argument("--client", "tutorial")) ?? .tutorial
precondition(total >= 2 && !platforms.isEmpty, "needs at least 2 devices and one platform")

/// The switch a sender turns on to reach a device of `platform`.
func pushSwitch(for platform: DevicePlatform) -> PushSwitch {
    switch platform {
    case .ios: return .apns
    case .android: return .fcm
    case .windows: return .wns
    }
}

/// Install, login and registration of every device: the first measured phase.
@inline(never) func registrationPhase(_ sim: Simulation) { sim.run() }
/// One targeted send per device, until every copy is delivered: the second measured phase
/// (answers the events processed, so that the compiler cannot merge it with the first).
@inline(never) func sendPhase(_ sim: Simulation) -> Int { sim.run(); return sim.world.eventsProcessed }

struct RepResult {
    var setup: Double, sends: Double, whole: Double
    var setupEvents: Int, sendEvents: Int
}

func runOnce(seed: UInt64) -> RepResult {
    let wholeStart = wallClock()
    let sim = benchmarkSimulation(seed: seed)
    var devices: [Device] = []
    devices.reserveCapacity(total)
    for i in 0..<total { devices.append(sim.addDevice("d\(i)", platforms[i % platforms.count], client: client, user: "u\(i)")) }
    sim.at(.zero) { for d in devices { d.install() } }
    sim.at(.zero + .seconds(1)) { for (i, d) in devices.enumerated() { d.login(user: "u\(i)", password: "u\(i)") } }

    let setupStart = wallClock()
    registrationPhase(sim)
    let setup = seconds(since: setupStart)
    let setupEvents = sim.world.eventsProcessed

    // Everyone registered: two backend calls answered 200 each, one live registration per device.
    for (i, d) in devices.enumerated() {
        let statuses = d.calls.map { "\($0.operation.rawValue)=\($0.status.map(String.init) ?? $0.failure ?? "?")" }
        guard statuses == ["create-id=200", "register=200"] else {
            fatalError("device d\(i) did not register: \(statuses.joined(separator: ", "))")
        }
    }
    guard sim.hub.registrationCount == total else {
        fatalError("the hub holds \(sim.hub.registrationCount) registrations for \(total) devices")
    }

    let sendAt = sim.world.now + .seconds(10)
    sim.at(sendAt) {
        for (i, d) in devices.enumerated() {
            let to = (i + 1) % total
            d.send("hello u\(to)", to: "u\(to)", via: [pushSwitch(for: devices[to].platform)])
        }
    }
    let sendStart = wallClock()
    let eventsAfter = sendPhase(sim)
    let sends = seconds(since: sendStart)
    let whole = seconds(since: wholeStart)
    let sendEvents = eventsAfter - setupEvents

    // Every device shows exactly one notification, the one sent to it, and every send was answered 200.
    for (i, d) in devices.enumerated() {
        let from = (i + total - 1) % total
        let texts = d.inbox.map(\.text)
        guard texts == ["From u\(from): hello u\(i)"] else {
            fatalError("device d\(i) showed \(texts.count) notification(s) \(texts), expected exactly [\"From u\(from): hello u\(i)\"]")
        }
        guard d.calls.count == 3, d.calls[2].operation == .send, d.calls[2].status == 200 else {
            fatalError("device d\(i)'s send was not answered 200: \(d.calls.last.map { "\($0.status ?? -1) \($0.failure ?? "")" } ?? "none")")
        }
    }
    if !sim.world.leftovers().isEmpty { fatalError("leftovers after the run: \(sim.world.leftovers().prefix(5).map(\.line))") }
    return RepResult(setup: setup, sends: sends, whole: whole, setupEvents: setupEvents, sendEvents: sendEvents)
}

print("registration-bench: \(total) devices (\(platforms.map(\.rawValue).joined(separator: ", ")) in turn), \(client.rawValue) client, "
      + "tutorial backend, \(reps) rep(s) (trace and journal off)")
var results: [RepResult] = []
for rep in 0..<reps {
    let r = runOnce(seed: firstSeed + UInt64(rep))
    results.append(r)
    let n = Double(total)
    print(String(format: "rep %d: setup (install, login, register) %.3f s = %.2f µs/device, %d events; "
                 + "sends %.3f s = %.2f µs/device, %d events; path %.2f µs/device; whole run %.3f s; all %d devices registered and shown their notification once",
                 rep + 1, r.setup, r.setup * 1e6 / n, r.setupEvents, r.sends, r.sends * 1e6 / n, r.sendEvents,
                 (r.setup + r.sends) * 1e6 / n, r.whole, total))
}
let best = results.min { $0.setup + $0.sends < $1.setup + $1.sends }!
let n = Double(total)
print(String(format: "best: setup %.2f µs/device, sends %.2f µs/device, path %.2f µs/device (goal ≤ 10); whole run %.3f s",
             best.setup * 1e6 / n, best.sends * 1e6 / n, (best.setup + best.sends) * 1e6 / n, best.whole))
let meanWhole = results.map(\.whole).reduce(0, +) / Double(results.count)
print(String(format: "mean of %d rep(s): whole run %.3f s", results.count, meanWhole))
// One line for scripts (tools/moto-compare.sh): whole-run seconds of the best rep, and their mean
// over the reps (which spans minutes of this machine's changing speed, as moto's one long run does).
print(String(format: "RESULT devices=%d whole_s=%.6f whole_mean_s=%.6f setup_us=%.3f send_us=%.3f", total, best.whole, meanWhole,
             best.setup * 1e6 / n, best.sends * 1e6 / n))
