import Foundation
import PushSim
import PushSimNetwork
import BenchSupport

// Endpoint benchmark: moto's own SNS workload, like for like. moto's workload (tools/moto_workload.py)
// is a service API and nothing around it: create one platform endpoint per device token, then
// publish one message to each endpoint. Here the same through the hub's REST API, from an app
// server holding the hub SDK (`NotificationHubClient`, signed with the connection string's SAS key):
//   setup   at 0 s every device installs the app and gets its handle from its push service (moto is
//           given tokens; here they come from the fakes, so that every send can be delivered);
//   create  at 1 s, per device: POST /registrations with the native description for its handle and
//           the tag username:u<i> (the SDK's CreateRegistrationAsync: one call, as moto's
//           create_platform_endpoint; the hub picks the id). With --create id-then-put: POST
//           /registrationids then PUT /registrations/<id> (CreateRegistrationIdAsync then
//           CreateOrUpdateRegistrationAsync, the tutorial backend's two calls);
//   publish at 10 s, per device: a native send (apple, fcmv1 or windows) to username:u<i+1>, which
//           the hub routes to the one registration and hands to the push service (JWT, OAuth or
//           WNS token checked), which pushes it to the device, which shows it.
// Unlike moto, every send is delivered and checked: each device must show exactly its one message,
// and every call must succeed; the run fails loudly otherwise. No backend and no app logic run:
// the tutorial's full path is registration-bench's.
//
// Measured: the whole run from the creation of the simulation; moto's workload alone, which is the
// whole run without the handle set-up (moto is given its tokens: what tools/moto-compare.sh sets
// against moto's whole run, which includes creating its mock); and each phase per device.
// Usage: endpoint-bench [--devices N] [--platforms ios,android,windows] [--reps R] [--seed S]
//                       [--create one-call|id-then-put]

let total = Int(argument("--devices", "10000")) ?? 10_000
let platforms = listArgument("--platforms", "ios,android,windows", accepted: "ios, android, windows") { DevicePlatform(rawValue: $0) }
let reps = max(1, Int(argument("--reps", "1")) ?? 1)
let firstSeed = UInt64(argument("--seed", "1")) ?? 1
let createMode = argument("--create", "one-call")
precondition(["one-call", "id-then-put"].contains(createMode), "--create takes one-call or id-then-put")
let oneCallCreate = createMode == "one-call"
let createLabel = oneCallCreate ? "one call" : "id, then registration"
precondition(total >= 2 && !platforms.isEmpty, "needs at least 2 devices and one platform")

/// The app server the SDK client calls from: it is never called itself.
final class AppServer: PushSimNetwork.Host {
    static let name = "app-server"
    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        world.respond(to: exchange, with: HTTPResponse(status: 404))
    }
}

/// The hub's description for a device's handle, tagged with its user.
func registration(for device: Device, user: String) -> RegistrationDescription {
    // The hub's platform is the one of the device's push service's native send format.
    guard let platform = RegistrationPlatform(sendFormat: device.platform.service.hubFormat) else {
        fatalError("no hub platform for \(device.platform)")
    }
    return RegistrationDescription(platform: platform, handle: device.handle!, tags: ["username:\(user)"])
}

/// Creates the registration of `device`, the `index`th: with one call (`--create one-call`, as
/// moto's create_platform_endpoint; the hub picks the id), or with the tutorial backend's two.
func register(_ client: NotificationHubClient, _ device: Device, index: Int, _ done: @escaping () -> Void) {
    let description = registration(for: device, user: "u\(index)")
    if oneCallCreate {
        return client.createRegistration(description) { result in
            guard case .success = result else { fatalError("d\(index): registration refused: \(result)") }
            done()
        }
    }
    client.createRegistrationId { result in
        guard case .success(let id) = result else { fatalError("d\(index): registration id refused: \(result)") }
        var withID = description
        withID.registrationID = id
        client.createOrUpdateRegistration(withID) { result in
            guard case .success = result else { fatalError("d\(index): registration refused: \(result)") }
            done()
        }
    }
}

/// The text device `to` must show, and the native send that carries it.
func text(to: Int) -> String { "hello u\(to)" }
func publish(_ client: NotificationHubClient, to device: Device, index: Int,
             _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
    let tags = ["username:u\(index)"], message = text(to: index)
    switch device.platform {
    case .ios: client.sendAppleNativeNotification("{\"aps\":{\"alert\":\"\(message)\"}}", tags: tags, completion)
    case .android: client.sendFcmV1NativeNotification("{\"message\":{\"notification\":{\"body\":\"\(message)\"}}}", tags: tags, completion)
    case .windows:
        client.sendWindowsNativeNotification(
            "<toast><visual><binding template=\"ToastText01\"><text id=\"1\">\(message)</text></binding></visual></toast>",
            tags: tags, completion)
    }
}

@inline(never) func setupPhase(_ sim: Simulation) { sim.run() }
@inline(never) func createPhase(_ sim: Simulation) -> Int { sim.run(); return sim.hub.registrationCount }
@inline(never) func publishPhase(_ sim: Simulation) -> Int { sim.run(); return sim.world.eventsProcessed }

struct RepResult { var setup: Double, create: Double, publish: Double, whole: Double, events: Int }

func runOnce(seed: UInt64) -> RepResult {
    let wholeStart = wallClock()
    let sim = benchmarkSimulation(seed: seed)
    sim.world.register(AppServer(), name: AppServer.name)
    let configuration = sim.backend.configuration
    guard let client = NotificationHubClient(connectionString: configuration.hubConnectionString, hubPath: configuration.hubPath,
                                             world: sim.world, caller: AppServer.name) else { fatalError("bad connection string") }
    var devices: [Device] = []
    devices.reserveCapacity(total)
    for i in 0..<total { devices.append(sim.addDevice("d\(i)", platforms[i % platforms.count])) }

    sim.at(.zero) { for d in devices { d.install() } }
    let setupStart = wallClock()
    setupPhase(sim)
    let setup = seconds(since: setupStart)
    for (i, d) in devices.enumerated() where d.handle == nil { fatalError("device d\(i) got no handle") }

    var created = 0
    sim.at(sim.world.now + .seconds(1)) {
        for (i, d) in devices.enumerated() { register(client, d, index: i) { created += 1 } }
    }
    let createStart = wallClock()
    _ = createPhase(sim)
    let create = seconds(since: createStart)
    guard created == total, sim.hub.registrationCount == total else {
        fatalError("\(created) registrations created, the hub holds \(sim.hub.registrationCount), for \(total) devices")
    }

    var published = 0
    sim.at(sim.world.now + .seconds(10)) {
        for i in 0..<total {
            let to = (i + 1) % total
            publish(client, to: devices[to], index: to) { result in
                guard case .success = result else { fatalError("publish to u\(to) refused: \(result)") }
                published += 1
            }
        }
    }
    let publishStart = wallClock()
    let events = publishPhase(sim)
    let publishTime = seconds(since: publishStart)
    let whole = seconds(since: wholeStart)

    guard published == total else { fatalError("\(published) of \(total) publishes answered") }
    for (i, d) in devices.enumerated() {
        let texts = d.inbox.map(\.text)
        guard texts == [text(to: i)] else { fatalError("device d\(i) showed \(texts), expected exactly [\"\(text(to: i))\"]") }
    }
    if !sim.world.leftovers().isEmpty { fatalError("leftovers after the run: \(sim.world.leftovers().prefix(5).map(\.line))") }
    return RepResult(setup: setup, create: create, publish: publishTime, whole: whole, events: events)
}

print("endpoint-bench: \(total) devices (\(platforms.map(\.rawValue).joined(separator: ", ")) in turn), "
      + "registrations and sends through the hub SDK, \(reps) rep(s) (trace and journal off)")
var results: [RepResult] = []
let n = Double(total)
for rep in 0..<reps {
    let r = runOnce(seed: firstSeed + UInt64(rep))
    results.append(r)
    print(String(format: "rep %d: handles %.2f µs/device; create (" + createLabel + ") %.2f µs/endpoint; publish and delivery %.2f µs/endpoint; "
                 + "whole run %.3f s (%.2f µs/endpoint), %d events; every endpoint created and every device shown its message once",
                 rep + 1, r.setup * 1e6 / n, r.create * 1e6 / n, r.publish * 1e6 / n, r.whole, r.whole * 1e6 / n, r.events))
}
let best = results.min { $0.whole < $1.whole }!
let bestWorkload = results.map { $0.whole - $0.setup }.min()!
let meanWhole = results.map(\.whole).reduce(0, +) / Double(results.count)
let meanWorkload = results.map { $0.whole - $0.setup }.reduce(0, +) / Double(results.count)
print(String(format: "mean of %d rep(s): whole run %.3f s, without the handle set-up %.3f s", results.count, meanWhole, meanWorkload))
// One line for scripts (tools/moto-compare.sh): whole-run seconds, and moto's workload alone (the
// whole run without the devices' handle set-up, which moto has no part of: it is given its
// tokens); each as the best rep and as the mean over the reps (which spans minutes of this
// machine's changing speed, as moto's one long run does).
print(String(format: "RESULT devices=%d whole_s=%.6f workload_s=%.6f whole_mean_s=%.6f workload_mean_s=%.6f create_us=%.3f publish_us=%.3f",
             total, best.whole, bestWorkload, meanWhole, meanWorkload, best.create * 1e6 / n, best.publish * 1e6 / n))
