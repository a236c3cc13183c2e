import Foundation
import PushSim
import BenchSupport

// Fan-out benchmark: N devices of one platform register through the tutorial backend, then one
// operator send goes to all of them (a broadcast) and is delivered to every device. Measures the
// fan-out phase: wall time, time per target, events. The shared payload is validated once per
// send by the hub (for fcmv1 it is parsed once and each target costs one string join).
// Usage: fanout-bench [--devices N] [--platform ios|android|windows] [--reps R] [--pad CHARS]


let count = Int(argument("--devices", "10000")) ?? 10_000
let platform = DevicePlatform(rawValue: argument("--platform", "android")) ?? .android
let reps = Int(argument("--reps", "3")) ?? 3
/// Extra characters of data in the payload, to see how per-target work grows with payload size.
let pad = String(repeating: "x", count: Int(argument("--pad", "0")) ?? 0)
let (format, payload): (String, String) = {
    switch platform {
    case .ios: return ("apple", #"{"aps":{"alert":"Hello everyone"},"pad":""# + pad + "\"}")
    case .android: return ("fcmv1", #"{"message":{"data":{"message":"Hello everyone","pad":""# + pad + "\"}}}")
    case .windows: return ("windows", #"<toast><visual><binding template="ToastText01"><text id="1">Hello everyone</text></binding></visual></toast>"#)
    }
}()


print("fanout-bench: \(count) \(platform.rawValue) devices, one \(format) broadcast of \(payload.utf8.count) bytes, \(reps) reps (trace and journal off)")
var best = Double.infinity
var times: [Double] = []
for rep in 1...reps {
    let memoryBefore = residentKiB()
    let sim = benchmarkSimulation(seed: UInt64(rep))
    var devices: [Device] = []
    devices.reserveCapacity(count)
    for i in 0..<count { devices.append(sim.addDevice("d\(i)", platform, user: "u\(i)")) }
    let setupStart = wallClock()
    sim.at(.zero) { for d in devices { d.install() } }
    sim.at(.zero + .seconds(1)) { for (i, d) in devices.enumerated() { d.login(user: "u\(i)", password: "u\(i)") } }
    sim.run()
    let setup = seconds(since: setupStart)
    let perDevice = Double(residentKiB() - memoryBefore) * 1024 / Double(count)
    let eventsBefore = sim.world.eventsProcessed
    let registrations = sim.hub.liveRegistrations(now: sim.world.now)
    let sendAt = sim.world.now + .seconds(10)
    sim.at(sendAt) { sim.operatorConsole.send(format: format, payload: payload, tagExpression: nil) }
    let start = wallClock()
    sim.run()
    let fanout = seconds(since: start)
    let delivered = devices.reduce(0) { $0 + $1.inbox.count }
    let events = sim.world.eventsProcessed - eventsBefore
    times.append(fanout)
    best = min(best, fanout)
    print(String(format: "rep %d: setup %.2f s (%d registrations, %.0f bytes resident per device in all layers); fan-out %.3f s for %d targets = %.1f µs/target, %d events, %d delivered",
                 rep, setup, registrations, perDevice, fanout, registrations, fanout * 1e6 / Double(max(1, registrations)), events, delivered))
    precondition(delivered == count, "every device must show the broadcast")
}
times.sort()
print(String(format: "best %.3f s, median %.3f s; %.1f µs per target (best)", best, times[times.count / 2], best * 1e6 / Double(count)))
