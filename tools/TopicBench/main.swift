import Foundation
import PushSim
import BenchSupport

// Topic benchmark: N Android devices (a DeviceFleet) get FCM tokens over the device channel; each
// is registered with the hub with the tags username:<i> and news (bulk import) and subscribed to
// FCM's topic "news" through the Instance ID API (batchAdd, 1,000 tokens a request, as
// firebase-admin sends it). Then the same message reaches all of them twice, one way after the
// other: a targeted broadcast through the hub (an fcmv1 send to the tag "news": the hub sends FCM
// one request per registration) and one FCM topic send (one request; FCM fans out). Every
// member must receive each exactly once.
//
// Measured: wall time of each send (from the send to the last copy answered), per device, and of
// the subscriptions.
// Usage: topic-bench [--devices N] [--seed S] [--wave N]

let total = Int(argument("--devices", "100000")) ?? 100_000
let seed = UInt64(argument("--seed", "1")) ?? 1
let wave = max(1, Int(argument("--wave", "100000")) ?? 100_000)
let sim = benchmarkSimulation(seed: seed)
let account = sim.identity.fcmAccount
let fleet = sim.addFleet("and", .android, count: total)
var tokens: [String] = []
tokens.reserveCapacity(total)
var pending: [RegistrationDescription] = []
fleet.onHandle = { member, handle in
    tokens.append(handle)
    pending.append(RegistrationDescription(platform: .fcmV1, handle: handle, tags: ["username:u\(member)", "news"]))
}
print("topic-bench: \(total) Android devices, installing in waves of \(wave)")
let setupStart = wallClock()
for start in stride(from: 0, to: total, by: wave) {
    sim.at(sim.world.now + .seconds(1)) { fleet.install(members: start..<min(total, start + wave)) }
    sim.run()
    guard case .success(let ids) = sim.hub.importRegistrations(pending, world: sim.world), ids.count == pending.count else {
        fatalError("bulk import failed or incomplete")
    }
    pending.removeAll(keepingCapacity: true)
}
guard tokens.count == total else { fatalError("\(tokens.count) tokens for \(total) devices") }
print(String(format: "setup: %d tokens and hub registrations in %.2f s", total, seconds(since: setupStart)))

// An access token for the Instance ID API, as the Admin SDK buys one, then batchAdd in 1,000s.
var accessToken = ""
let form = account.tokenRequestForm(now: sim.world.anchor.unixSeconds(sim.world.now))
sim.world.call(HTTPRequest(method: "POST", authority: FCMService.oauthHost, path: "/token",
                           headers: ["content-type": "application/x-www-form-urlencoded"], body: Array(form.utf8)),
               from: OperatorConsole.name) { accessToken = (try? JSONParser.parse($0.response?.body ?? []))?["access_token"]?.stringValue ?? "" }
sim.run()
let subscribeStart = wallClock()
var subscribed = 0
for start in stride(from: 0, to: total, by: 1_000) {
    let chunk = tokens[start..<min(total, start + 1_000)].map { JSONValue.string($0) }
    let body = JSONValue.object([("to", .string("/topics/news")), ("registration_tokens", .array(chunk))]).serializedBytes()
    sim.world.call(HTTPRequest(method: "POST", authority: FCMService.instanceIDHost, path: "/iid/v1:batchAdd",
                               headers: ["content-type": "application/json", "authorization": "Bearer " + accessToken,
                                         "access_token_auth": "true"], body: body),
                   from: OperatorConsole.name) { result in
        let results = (try? JSONParser.parse(result.response?.body ?? []))?["results"]?.arrayValue ?? []
        subscribed += results.filter { $0["error"] == nil }.count
    }
}
sim.run()
let subscribeWall = seconds(since: subscribeStart)
guard subscribed == total else { fatalError("\(subscribed) of \(total) tokens subscribed") }
print(String(format: "subscribe: %d tokens to \"news\" in %d batchAdd requests, %.2f s wall (%.2f µs per token)",
             total, (total + 999) / 1_000, subscribeWall, subscribeWall * 1e6 / Double(total)))

/// One measured send: `send` at the next virtual second, the world run until every copy is answered.
@MainActor @inline(never) func measure(_ label: String, expecting: Int, _ send: @escaping () -> Void) -> Double {
    let eventsBefore = sim.world.eventsProcessed
    sim.at(sim.world.now + .seconds(1)) { send() }
    let start = wallClock()
    sim.run()
    let wall = seconds(since: start)
    precondition(fleet.totalReceived == expecting && fleet.membersReached == total, "\(label): every device must receive it exactly once")
    print(String(format: "%@: %.3f s wall for %d devices = %.2f µs per device, %d events",
                 label, wall, total, wall * 1e6 / Double(total), sim.world.eventsProcessed - eventsBefore))
    return wall
}
let hubWall = measure("hub send to the tag news (targeted broadcast)", expecting: total) {
    sim.operatorConsole.send(format: "fcmv1", payload: #"{"message":{"data":{"message":"Headline"}}}"#, tagExpression: "news")
}
let topicWall = measure("FCM topic send to news", expecting: 2 * total) {
    sim.operatorConsole.sendToFCM(body: #"{"message":{"data":{"message":"Headline"}}}"#, target: .topic("news"), account: account)
}
print(String(format: "the topic send costs %.2f× the targeted broadcast per device", topicWall / hubWall))
print("leftovers: \(sim.world.leftovers().count)")
