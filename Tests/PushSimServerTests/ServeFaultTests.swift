import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimScenario
@testable import PushSimServer
import Testing

/// Faults injected at run time through `/_pushsim/faults`: the same faults, and the same answers,
/// as a scenario's `fault` statements; bounded by time or by count; listed, ended, journalled,
/// replayed; bad input refused with the member named.
@Suite struct ServeFaultTests {
    let identity = SimulationIdentity()

    func ask(_ bridge: WorldBridge, _ method: String, _ target: String, headers: [(name: String, value: String)] = [],
             body: String = "") -> HTTPResponse {
        bridge.answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: 1)
    }

    func json(_ response: HTTPResponse) -> JSONValue { (try? JSONParser.parse(response.body)) ?? .null }

    func apnsPush(_ bridge: WorldBridge, to handle: String) -> HTTPResponse {
        let token = JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string(identity.apnsKeyID))]),
                                      claims: .object([("iss", .string(identity.apnsTeamID)), ("iat", .number(JSONNumber(testAnchor.unixSecondsAtZero)))]),
                                      signingKey: identity.apnsSigningKey)
        return ask(bridge, "POST", "/3/device/\(handle)",
                   headers: [("authorization", "bearer \(token)"), ("apns-topic", identity.app.bundleID)], body: #"{"aps":{"alert":"hi"}}"#)
    }

    /// A served world whose setup comes from `scenario` (its settings and devices, as
    /// `pushsim serve --scenario` takes them), with `bob-iphone` installed; returns its handle.
    func world(_ scenario: String, record: String? = nil) throws -> (WorldBridge, String) {
        let parsed = try ScenarioParser.parse("scenario \"faults\"\nseed 9\ndevice bob-iphone ios\n" + scenario, path: "faults.scenario").get()
        let setup = WorldSetup(seed: 9, options: ScenarioRunner.simulationOptions(for: parsed),
                               devices: [WorldSetup.DeviceSpec(name: "bob-iphone", platform: .ios)]) {
            ScenarioRunner.applyNetworkAndFaults(of: parsed, to: $0)
        }
        let bridge = try WorldBridge(setup: setup, clock: .manual, anchor: testAnchor, recordPath: record)
        let installed = json(ask(bridge, "POST", "/_pushsim/devices/bob-iphone/install"))
        return (bridge, try #require(installed["handle"]?.stringValue))
    }

    func virtualMicroseconds(_ bridge: WorldBridge) -> Int64 {
        json(ask(bridge, "GET", "/_pushsim/clock"))["virtualMicroseconds"]?.int64Value ?? -1
    }

    /// The same fault said in a scenario and posted over HTTP gives byte-identical answers.
    @Test(arguments: [
        (#"{"service":"apns","kind":"outage","for":"1h"}"#, "fault apns outage from {t} to {t+1h}"),
        (#"{"service":"apns","kind":"throttle","for":"1h","retryAfter":"5s"}"#, "fault apns throttle from {t} to {t+1h} retry-after 5s"),
        (#"{"service":"apns","kind":"internal-error","for":"1h"}"#, "fault apns internal-error from {t} to {t+1h}"),
        (#"{"service":"apns","kind":"Unregistered","for":"1h","device":"bob-iphone"}"#, "fault apns Unregistered from {t} to {t+1h} device bob-iphone"),
        (#"{"service":"apns","kind":"BadDeviceToken","for":"1h","app":"com.pushsim.notifyusers"}"#,
         "fault apns BadDeviceToken from {t} to {t+1h} app com.pushsim.notifyusers"),
        (#"{"service":"apns","kind":"DeviceTokenNotForTopic","for":"1h","device":"bob-iphone"}"#,
         "fault apns DeviceTokenNotForTopic from {t} to {t+1h} device bob-iphone"),
    ])
    func aScenarioFaultAndTheSameFaultOverHTTPAnswerAlike(posted: String, statement: String) throws {
        let (http, handle) = try world("")
        let t = virtualMicroseconds(http)
        #expect(ask(http, "POST", "/_pushsim/faults", body: posted).status == 201)
        let overHTTP = apnsPush(http, to: handle)

        let said = statement.replacingOccurrences(of: "{t+1h}", with: "\(t + 3_600_000_000)us").replacingOccurrences(of: "{t}", with: "\(t)us")
        let (scenario, sameHandle) = try world(said + "\n")
        #expect(sameHandle == handle)
        let inScenario = apnsPush(scenario, to: handle)
        #expect(overHTTP.status >= 400)
        #expect(HTTPResponseWriter.bytes(overHTTP, keepAlive: true) == HTTPResponseWriter.bytes(inScenario, keepAlive: true), "\(posted)")
    }

    /// A native send to the hub (any SAS that is good for an hour from the test's anchor).
    func hubSend(_ bridge: WorldBridge) -> HTTPResponse {
        let sas = SharedAccessSignature.token(resource: "https://\(identity.hubNamespace).servicebus.windows.net/\(identity.hubName)",
                                              keyName: "DefaultFullSharedAccessSignature", key: identity.hubFullKey,
                                              expiresAtUnixSeconds: testAnchor.unixSecondsAtZero + 3_600)
        return ask(bridge, "POST", "/\(identity.hubName)/messages/?api-version=2015-01",
                   headers: [("Authorization", sas), ("ServiceBusNotification-Format", "apple"), ("Content-Type", "application/json")],
                   body: #"{"aps":{"alert":"hi"}}"#)
    }

    /// The same hub fault said in a scenario and posted over HTTP gives byte-identical answers to
    /// a hub send: the hub's own status, headers and XML error body, tracking part included.
    @Test(arguments: [
        (#"{"service":"hub","kind":"outage","for":"1h"}"#, "fault hub outage from {t} to {t+1h}", 503),
        (#"{"service":"hub","kind":"throttle","for":"1h","retryAfter":"45s"}"#, "fault hub throttle from {t} to {t+1h} retry-after 45s", 429),
        (#"{"service":"hub","kind":"internal-error","count":1}"#, "fault hub internal-error from {t} to {t+1h} count 1", 500),
    ])
    func aHubFaultSaidInAScenarioAndPostedAnswerAlike(posted: String, statement: String, status: Int) throws {
        let (http, _) = try world("")
        let t = virtualMicroseconds(http)
        #expect(ask(http, "POST", "/_pushsim/faults", body: posted).status == 201)
        let overHTTP = hubSend(http)

        let said = statement.replacingOccurrences(of: "{t+1h}", with: "\(t + 3_600_000_000)us").replacingOccurrences(of: "{t}", with: "\(t)us")
        let (scenario, _) = try world(said + "\n")
        let inScenario = hubSend(scenario)
        #expect(overHTTP.status == status)
        #expect(String(decoding: overHTTP.body, as: UTF8.self).hasPrefix("<Error><Code>\(status)</Code><Detail>"))
        #expect(HTTPResponseWriter.bytes(overHTTP, keepAlive: true) == HTTPResponseWriter.bytes(inScenario, keepAlive: true), "\(posted)")
    }

    /// Hub faults are listed, counted down and ended like the services'; the answer they give is
    /// said when they are posted.
    @Test func hubFaultsAreListedCountedAndEnded() throws {
        let (bridge, _) = try world("")
        let posted = json(ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"hub","kind":"throttle","count":1,"retryAfter":"10s"}"#))
        #expect(posted["service"]?.stringValue == "hub")
        #expect(posted["does"]?.stringValue == "429 with Retry-After: 10")
        #expect(posted["scope"]?.stringValue == "service")
        #expect(json(ask(bridge, "GET", "/_pushsim/faults"))["faults"]?.arrayValue?.map { $0["service"]?.stringValue } == ["hub"])
        let throttled = hubSend(bridge)
        #expect(throttled.status == 429 && throttled.headers["Retry-After"] == "10")
        #expect(hubSend(bridge).status == 201)
        #expect(json(ask(bridge, "GET", "/_pushsim/faults"))["faults"]?.arrayValue?.isEmpty == true, "its count is spent")

        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"hub","kind":"outage"}"#)
        #expect(json(ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"hub","kind":"slow","delay":"2s"}"#))["does"]?.stringValue
                == "the usual answer, 2s later")
        #expect(hubSend(bridge).status == 503)
        #expect(json(ask(bridge, "DELETE", "/_pushsim/faults/f2"))["ended"]?["service"]?.stringValue == "hub")
        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"outage"}"#)
        #expect(json(ask(bridge, "DELETE", "/_pushsim/faults"))["ended"]?.int64Value == 2, "the hub's slow rule and APNs' outage")
        #expect(hubSend(bridge).status == 201)
        let injected = json(ask(bridge, "GET", "/_pushsim/journal?status=503"))["entries"]?.arrayValue ?? []
        #expect(injected.first?["injected"]?.stringValue?.hasPrefix("f2: outage") == true)
    }

    /// A count-bounded fault hits exactly that many requests; a time-bounded one ends with its
    /// window; the list says what is left, and DELETE ends one.
    @Test func faultsEndByCountByTimeOrByDelete() throws {
        let (bridge, handle) = try world("")
        let posted = json(ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"outage","count":2}"#))
        #expect(posted["id"]?.stringValue == "f1")
        #expect(posted["does"]?.stringValue == "503 ServiceUnavailable")
        #expect(posted["remainingCount"]?.int64Value == 2)
        #expect([apnsPush(bridge, to: handle), apnsPush(bridge, to: handle), apnsPush(bridge, to: handle)].map(\.status) == [503, 503, 200])

        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"internal-error","for":"30s"}"#)
        let listed = json(ask(bridge, "GET", "/_pushsim/faults"))["faults"]?.arrayValue ?? []
        #expect(listed.map { $0["id"]?.stringValue } == ["f2"], "f1's count is spent")
        #expect(listed.first?["leftMicroseconds"]?.int64Value == 30_000_000)
        #expect(apnsPush(bridge, to: handle).status == 500)
        _ = ask(bridge, "POST", "/_pushsim/clock/advance", body: #"{"by":"30s"}"#)
        #expect(apnsPush(bridge, to: handle).status == 200)

        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"throttle"}"#)
        #expect(apnsPush(bridge, to: handle).status == 429)
        #expect(ask(bridge, "DELETE", "/_pushsim/faults/f3").status == 200)
        #expect(ask(bridge, "DELETE", "/_pushsim/faults/f3").status == 404)
        #expect(apnsPush(bridge, to: handle).status == 200)
        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"throttle"}"#)
        #expect(json(ask(bridge, "DELETE", "/_pushsim/faults"))["ended"]?.int64Value == 1)
        #expect(apnsPush(bridge, to: handle).status == 200)
    }

    /// A fault scoped to one device leaves the others alone; the journal labels what it decided.
    @Test func aScopedFaultHitsOnlyItsDeviceAndIsLabelledInTheJournal() throws {
        let (bridge, handle) = try world("")
        let other = try #require(json(ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"amy-iphone","platform":"ios"}"#))["handle"]?.stringValue)
        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"Unregistered","device":"bob-iphone"}"#)
        let gone = apnsPush(bridge, to: handle)
        #expect(gone.status == 410)
        #expect(json(gone)["timestamp"] != nil)
        #expect(apnsPush(bridge, to: other).status == 200)
        let injected = json(ask(bridge, "GET", "/_pushsim/journal?status=410"))["entries"]?.arrayValue ?? []
        #expect(injected.count == 1)
        #expect(injected.first?["injected"]?.stringValue?.hasPrefix("f1: Unregistered device bob-iphone") == true)
    }

    /// A lost answer: the send is delivered, but the caller hears nothing and times out (504
    /// from the server after the in-world call timeout).
    @Test func aLostAnswerIsDeliveredButNeverAnswered() throws {
        let (bridge, handle) = try world("")
        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"lost-answer","count":1}"#)
        #expect(apnsPush(bridge, to: handle).status == 504)
        let shown = json(ask(bridge, "GET", "/_pushsim/devices/bob-iphone/notifications"))
        #expect(shown["shown"]?.int64Value == 1)
    }

    @Test(arguments: [
        ("not json", "JSON"),
        (#"{"service":"apns","kind":"outage","colour":"red"}"#, "\"colour\""),
        (#"{"service":"apns","kind":"meltdown"}"#, "outage, throttle"),
        (#"{"service":"pager","kind":"outage"}"#, "apns, fcm, wns"),
        (#"{"kind":"outage"}"#, "\"service\""),
        (#"{"service":"apns"}"#, "BadDeviceToken"),
        (#"{"service":"apns","kind":"outage","for":"-5s"}"#, "\"for\""),
        (#"{"service":"apns","kind":"outage","for":"99999d"}"#, "\"for\""),
        (#"{"service":"apns","kind":"outage","for":30}"#, "\"for\""),
        (#"{"service":"apns","kind":"outage","count":0}"#, "\"count\""),
        (#"{"service":"apns","kind":"outage","probability":"3/2"}"#, "\"probability\""),
        (#"{"service":"apns","kind":"slow"}"#, "delay"),
        (#"{"service":"apns","kind":"outage","delay":"1s"}"#, "delay"),
        (#"{"service":"apns","kind":"Unregistered"}"#, "token, device or app"),
        (#"{"service":"fcm","kind":"Unregistered","token":"x"}"#, "UNREGISTERED"),
        (#"{"service":"apns","kind":"outage","token":"a","device":"b"}"#, "not two"),
        (#"{"service":"hub","kind":"outage","device":"bob-iphone"}"#, "the hub takes no device"),
        (#"{"service":"hub","kind":"slow","delay":"1s","token":"abc"}"#, "the hub takes no token"),
        (#"{"service":"hub","kind":"Unregistered"}"#, "the kinds are outage, throttle, internal-error, slow, lost-answer"),
        (#"{"service":"apns","kind":"Unregistered","fid":"dQw4w9WgXcQ-Abcdefghij"}"#, "only FCM has Firebase installation IDs"),
        (#"{"service":"fcm","kind":"UNREGISTERED","fid":"not-a-fid"}"#, "'not-a-fid' is not a Firebase installation ID"),
        (#"{"service":"fcm","kind":"UNREGISTERED","fid":"dQw4w9WgXcQ-Abcdefghij","device":"b"}"#, "not two"),
    ])
    func badFaultsAreRefusedWithTheMemberNamed(body: String, named: String) throws {
        let (bridge, _) = try world("")
        let r = ask(bridge, "POST", "/_pushsim/faults", body: body)
        #expect(r.status == 400, "\(body)")
        let message = json(r)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(named), "\(body): \(message)")
    }

    /// A scenario's fault statement takes the same new words, with positioned errors.
    @Test func theScenarioLanguageTakesCountsScopesAndTokenStates() throws {
        let good = try ScenarioParser.parse("scenario \"s\"\nfault fcm UNREGISTERED from 0s to 1h token abc count 2\n", path: "s.scenario").get()
        guard case .fault(let service, let fault)? = good.settings.first else { Issue.record("no fault"); return }
        #expect(service == "fcm")
        #expect(fault.remaining == 2)
        #expect(fault.scope == .token("abc"))
        let byFID = try ScenarioParser.parse("scenario \"s\"\nfault fcm UNREGISTERED from 0s to 1h fid \"dQw4w9WgXcQ-Abcdefghij\"\n",
                                             path: "s.scenario").get()
        guard case .fault(_, let fidFault)? = byFID.settings.first else { Issue.record("no fid fault"); return }
        #expect(fidFault.scope == .fid("dQw4w9WgXcQ-Abcdefghij"))
        for (text, message) in [("fault apns UNREGISTERED from 0s to 1h token a", "unknown fault"),
                                ("fault apns Unregistered from 0s to 1h", "token, device or app"),
                                ("fault fcm UNREGISTERED from 0s to 1h", "token, device, app or fid"),
                                ("fault apns Unregistered from 0s to 1h fid dQw4w9WgXcQ-Abcdefghij", "only FCM has Firebase installation IDs"),
                                ("fault fcm UNREGISTERED from 0s to 1h fid not-a-fid", "is not a Firebase installation ID"),
                                ("fault apns outage from 0s to 1h count 0", "count is at least 1")] {
            guard case .failure(let failure) = ScenarioParser.parse("scenario \"s\"\n" + text + "\n", path: "s.scenario") else {
                Issue.record("\(text) was accepted"); continue
            }
            #expect(failure.rendered(limit: 5).contains(message), "\(failure.rendered(limit: 5))")
            #expect(failure.rendered(limit: 5).contains("s.scenario:2:"))
        }
    }

    /// The record holds the request that injected a fault, so a replay injects it again and gets
    /// the same answers.
    @Test func aReplayInjectsTheSameFaults() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-faults-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bridge, handle) = try world("", record: path)
        _ = ask(bridge, "POST", "/_pushsim/faults", body: #"{"service":"apns","kind":"outage","count":1}"#)
        #expect(apnsPush(bridge, to: handle).status == 503)
        #expect(apnsPush(bridge, to: handle).status == 200)
        bridge.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map { try JSONParser.parse(String($0)) }
        let requests = lines.map { line in
            WorldBridge.RecordedRequest(
                request: WireRequest(method: line["request"]!["method"]!.stringValue!, target: line["request"]!["target"]!.stringValue!,
                                     headers: (line["request"]!["headers"]?.arrayValue ?? []).map { ($0.arrayValue![0].stringValue!, $0.arrayValue![1].stringValue!) },
                                     body: Array((line["request"]!["body"]?.stringValue ?? "").utf8)),
                arrived: VirtualTime(microseconds: line["arrivedMicroseconds"]!.int64Value!), connection: 1)
        }
        let parsed = try ScenarioParser.parse("scenario \"faults\"\nseed 9\ndevice bob-iphone ios\n", path: "faults.scenario").get()
        let again = try WorldBridge(setup: WorldSetup(seed: 9, options: ScenarioRunner.simulationOptions(for: parsed),
                                                      devices: [WorldSetup.DeviceSpec(name: "bob-iphone", platform: .ios)]),
                                    clock: .manual, anchor: testAnchor)
        let answers = again.replay(requests)
        #expect(answers.map(\.status) == lines.map { Int($0["response"]!["status"]!.int64Value!) })
        #expect(answers.map(\.body) == lines.map { Array(($0["response"]!["body"]?.stringValue ?? "").utf8) })
    }

    @Test func theControlTokenGuardsTheControlAPIOnly() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 1), clock: .manual, anchor: testAnchor, controlToken: "s3cret")
        #expect(ask(bridge, "GET", "/_pushsim/clock").status == 401)
        #expect(ask(bridge, "GET", "/_pushsim/clock", headers: [("Authorization", "Bearer wrong")]).status == 401)
        #expect(ask(bridge, "GET", "/_pushsim/clock", headers: [("Authorization", "Bearer s3cret")]).status == 200)
        #expect(ask(bridge, "POST", "/3/device/abc").status != 401, "the fakes answer as they would")
    }
}
