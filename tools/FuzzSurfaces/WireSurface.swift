import PushSim
import PushSimServer

/// Raw HTTP/1.1 bytes into `pushsim serve`'s request parser, and every request it makes of them
/// into the served world: the Notification Hubs REST API, FCM (OAuth and send), APNs, WNS and the
/// control API, all answered by the same fakes as in scenarios. A fresh world per input, with a
/// fixed anchor and a manual clock: the same input gives the same answers, so a saved input
/// replays exactly. The real server answers bytes it cannot read with 400 (or 413, 431, 505).
public enum WireSurface {
    /// The surface; its corpus holds one valid request per served API, signed for the world.
    public static func make() -> FuzzSurface {
        let anchor = CalendarAnchor()
        let id = SimulationIdentity()
        let expiry = anchor.unixSecondsAtZero + 10 * 365 * 86_400
        let sas = SharedAccessSignature.token(resource: "https://pushsim.servicebus.windows.net/notifyusers",
                                              keyName: "DefaultFullSharedAccessSignature", key: id.hubFullKey, expiresAtUnixSeconds: expiry)
        let apnsJWT = JSONWebToken.apnsProviderToken(keyID: id.apnsKeyID, teamID: id.apnsTeamID, issuedAt: anchor.unixSecondsAtZero,
                                                       signingKey: DerivedKeyMemo.p256Key(derivedFrom: DerivedKeyMemo.sampleAPNsKeySeed))
        let assertion = JSONWebToken.make(header: .object([("alg", .string("RS256"))]), claims: .object([
            ("iss", .string(id.fcmServiceAccount)), ("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
            ("aud", .string("https://oauth2.googleapis.com/token")), ("iat", .number(JSONNumber(anchor.unixSecondsAtZero))),
            ("exp", .number(JSONNumber(anchor.unixSecondsAtZero + 3_600)))]), signingKey: id.fcmServiceAccountKey)
        func request(_ head: String, _ headers: [String], _ body: String) -> [UInt8] {
            Array((head + "\r\nHost: 127.0.0.1\r\n" + headers.map { $0 + "\r\n" }.joined()
                   + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        }
        let corpus = [
            request("POST /notifyusers/registrationIDs/?api-version=2015-01 HTTP/1.1", ["Authorization: " + sas], ""),
            request("POST /notifyusers/messages/?api-version=2015-01 HTTP/1.1",
                    ["Authorization: " + sas, "ServiceBusNotification-Format: apple", "ServiceBusNotification-Tags: (a && !b) || c",
                     "Content-Type: application/json"], #"{"aps":{"alert":"hi"}}"#),
            request("PUT /notifyusers/installations/i1?api-version=2015-01 HTTP/1.1", ["Authorization: " + sas, "Content-Type: application/json"],
                    #"{"installationId":"i1","platform":"apns","pushChannel":"\#(String(repeating: "ab", count: 32))","tags":["username:bob"]}"#),
            request("POST /3/device/\(String(repeating: "ab", count: 32)) HTTP/1.1",
                    ["authorization: bearer " + apnsJWT, "apns-topic: " + id.app.bundleID, "apns-push-type: alert"], #"{"aps":{"alert":"x"}}"#),
            request("POST /token HTTP/1.1", ["Content-Type: application/x-www-form-urlencoded"],
                    "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion),
            request("POST /v1/projects/pushsim-notifyusers/messages:send HTTP/1.1", ["Authorization: Bearer ya29.x", "Content-Type: application/json"],
                    #"{"message":{"token":"t","notification":{"body":"b"}}}"#),
            request("POST /notifyusers/schedulednotifications/?api-version=2015-01 HTTP/1.1",
                    ["Authorization: " + sas, "ServiceBusNotification-Format: apple", "ServiceBusNotification-ScheduleTime: 2026-01-01T01:00:00",
                     "Content-Type: application/json"], #"{"aps":{"alert":"later"}}"#),
            request("POST /_pushsim/devices HTTP/1.1", ["Content-Type: application/json"], #"{"name":"d1","platform":"android"}"#),
            request("POST /_pushsim/clock/advance HTTP/1.1", [], #"{"by":"1h"}"#),
            request("POST /_pushsim/faults HTTP/1.1", ["Content-Type: application/json"],
                    #"{"service":"apns","kind":"outage","for":"30s","count":2,"probability":"1/2","retryAfter":"5s"}"#),
            request("POST /_pushsim/faults HTTP/1.1", [], #"{"service":"fcm","kind":"UNREGISTERED","token":"t","count":1}"#),
            request("POST /_pushsim/faults HTTP/1.1", [], #"{"service":"wns","kind":"slow","delay":"2s","device":"d1"}"#),
            request("GET /_pushsim/faults HTTP/1.1", [], ""),
            request("DELETE /_pushsim/faults/f1 HTTP/1.1", [], ""),
            request("POST /_pushsim/expect HTTP/1.1", [], #"{"expect":"d1 shows \"hi\" by +1s"}"#),
            request("POST /_pushsim/expect HTTP/1.1", [], #"{"expect":"apns received at least 1 request with status 410"}"#),
            request("GET /_pushsim/devices/d1/notifications?wait=1s&count=2 HTTP/1.1", [], ""),
            request("GET /_pushsim/journal?host=apns&path=/3/&status=503&from=1s&to=2h&since=0 HTTP/1.1", [], ""),
            Array("POST /_pushsim/devices HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"nam\r\n1e\r\ne\":\"d2\",\"platform\":\"ios\"}     \r\n0\r\n\r\n".utf8),
        ]
        return FuzzSurface(name: "wire", summary: "raw HTTP/1.1 bytes into pushsim serve's parser and router, in a fresh served world",
                           corpus: corpus, inputsPerProcess: 20_000) { bytes in
            if KnownCrashes.skip && KnownCrashes.iso8601YearTraps(bytes) { return "skipped-known" }
            guard let bridge = try? WorldBridge(setup: WorldSetup(seed: 1), clock: .manual, anchor: anchor, longestWait: 0) else { return "no-world" }
            bridge.configure(baseURL: "http://127.0.0.1:8080", keyFiles: ClientKeyFiles())
            defer { bridge.close() }
            var parser = HTTPRequestParser()
            parser.feed(bytes)
            var outcome: [String] = []
            loop: for _ in 0..<8 {
                switch parser.next() {
                case .request(let r):
                    outcome.append(String(bridge.answer(r, connection: 1).status))
                    if !r.keepAlive { break loop }
                case .incomplete: break loop
                case .failure(let f): outcome.append("refused-\(f.status)"); break loop
                case .http2Preface: outcome.append("http2-preface"); break loop
                }
            }
            return outcome.isEmpty ? "incomplete" : outcome.joined(separator: ",")
        }
    }
}
