import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimScenario
@testable import PushSimServer
import Testing

/// How virtual time relates to the wall clock in `pushsim serve`, and what stays in memory: the
/// bridge driven directly (no sockets), as the connection threads drive it.
@Suite struct ServeClockTests {
    let identity = SimulationIdentity()

    func ask(_ bridge: WorldBridge, _ method: String, _ target: String, headers: [(name: String, value: String)] = [],
             body: String = "", connection: Int = 1) -> HTTPResponse {
        bridge.answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: connection)
    }

    func json(_ response: HTTPResponse) -> JSONValue { (try? JSONParser.parse(response.body)) ?? .null }

    func apnsToken(unixNow: Int64) -> String {
        JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string(identity.apnsKeyID))]),
                          claims: .object([("iss", .string(identity.apnsTeamID)), ("iat", .number(JSONNumber(unixNow)))]),
                          signingKey: identity.apnsSigningKey)
    }

    func hubSAS(expiring unixSeconds: Int64) -> String {
        SharedAccessSignature.token(resource: "https://\(identity.hubNamespace).servicebus.windows.net/\(identity.hubName)",
                                    keyName: "DefaultFullSharedAccessSignature", key: identity.hubFullKey,
                                    expiresAtUnixSeconds: unixSeconds)
    }

    func newPhone(_ bridge: WorldBridge, _ name: String) throws -> String {
        let created = ask(bridge, "POST", "/_pushsim/devices", body: #"{"name":"\#(name)","platform":"ios"}"#)
        #expect(created.status == 201)
        return try #require(json(created)["handle"]?.stringValue)
    }

    func push(_ bridge: WorldBridge, to handle: String, _ text: String, unixNow: Int64) -> HTTPResponse {
        ask(bridge, "POST", "/3/device/\(handle)",
            headers: [("authorization", "bearer \(apnsToken(unixNow: unixNow))"), ("apns-topic", identity.app.bundleID)],
            body: #"{"aps":{"alert":"\#(text)"}}"#)
    }

    func virtualMicroseconds(_ bridge: WorldBridge) -> Int64 {
        json(ask(bridge, "GET", "/_pushsim/clock"))["virtualMicroseconds"]?.int64Value ?? -1
    }

    /// Under `wall`, sends straight to a fake take no virtual time: the world stays at wall time.
    /// (Before: every request's simulated round trip, 20 ms, moved the world ahead for good:
    /// 2,000 sends put it 40 s ahead of the wall clock, and fresh credentials were refused.)
    @Test func directSendsKeepTheWorldAtWallTime() throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let bridge = try WorldBridge(setup: WorldSetup(seed: 5), clock: .wall, anchor: testAnchor)
        let handle = try newPhone(bridge, "wall-iphone")
        for i in 0..<2_000 {
            let r = push(bridge, to: handle, "n\(i)", unixNow: testAnchor.unixSecondsAtZero)
            #expect(r.status == 200)
            if r.status != 200 { break }
        }
        let elapsedMicroseconds = Int64((DispatchTime.now().uptimeNanoseconds - started) / 1_000)
        let virtual = virtualMicroseconds(bridge)
        #expect(virtual <= elapsedMicroseconds + 1_000, "virtual \(virtual) us, wall \(elapsedMicroseconds) us")
    }

    /// Under `wall`, `settle=` waits for the wall clock to bring the world that far, instead of
    /// running it ahead.
    @Test func settleUnderWallWaitsInsteadOfRunningAhead() throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let bridge = try WorldBridge(setup: WorldSetup(seed: 5), clock: .wall, anchor: testAnchor)
        _ = try newPhone(bridge, "settle-iphone")
        for _ in 0..<3 {
            #expect(ask(bridge, "GET", "/_pushsim/devices/settle-iphone/notifications?settle=100ms").status == 200)
        }
        let elapsed = Int64((DispatchTime.now().uptimeNanoseconds - started) / 1_000)
        #expect(elapsed >= 300_000, "three settles of 100 ms waited \(elapsed) us of wall time")
        #expect(virtualMicroseconds(bridge) <= elapsed + 1_000)
    }

    /// Under `manual`, a settle moves the clock as an advance does, so the clients' own clocks are
    /// judged that far behind. (Before: 200 reads with `settle=2s` put the world 400 s ahead,
    /// uncounted, and a hub SAS token with a 300 s lifetime signed at start was refused.)
    @Test func settleUnderManualCountsAsAnAdvance() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 5), clock: .manual, anchor: testAnchor)
        _ = try newPhone(bridge, "manual-iphone")
        for _ in 0..<200 { _ = ask(bridge, "GET", "/_pushsim/devices/manual-iphone/notifications?settle=2s") }
        let clock = json(ask(bridge, "GET", "/_pushsim/clock"))
        #expect(clock["advancedMicroseconds"]?.int64Value == 401_000_000)   // 200 × 2 s, and the install's 1 s
        let read = ask(bridge, "GET", "/\(identity.hubName)/registrations/?api-version=2015-01",
                       headers: [("Authorization", hubSAS(expiring: testAnchor.unixSecondsAtZero + 300))])
        #expect(read.status == 200, "\(String(decoding: read.body, as: UTF8.self))")
    }

    /// A long poll answers as soon as the device has shown the notifications asked for, and says
    /// so; one that is not met ends at its wall-clock bound. Under `wall` the delivery comes when
    /// the wall clock reaches it (10 ms after the send).
    @Test func aLongPollAnswersWhenTheNotificationIsShown() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 5), clock: .wall, anchor: testAnchor)
        let handle = try newPhone(bridge, "poll-iphone")
        let started = DispatchTime.now().uptimeNanoseconds
        let polled = onAThread { self.ask(bridge, "GET", "/_pushsim/devices/poll-iphone/notifications?wait=10s&count=1", connection: 2) }
        usleep(50_000)
        #expect(push(bridge, to: handle, "Hello poll", unixNow: testAnchor.unixSecondsAtZero).status == 200)
        let answer = json(polled.wait())
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        #expect(waited < 5, "the poll answered after \(waited) s")
        #expect(answer["waited"]?["reached"] == .bool(true))
        #expect(answer["notifications"]?.arrayValue?.last?["text"]?.stringValue == "Hello poll")

        let unmet = json(ask(bridge, "GET", "/_pushsim/devices/poll-iphone/notifications?wait=200ms&count=5"))
        #expect(unmet["waited"]?["reached"] == .bool(false))
        #expect(unmet["shown"]?.int64Value == 1)
    }

    /// Under `manual`, waiting never moves virtual time: the poll is answered when another request
    /// moves the world far enough (here an advance after the send).
    @Test func aLongPollUnderManualWaitsForTheWorldToMove() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 5), clock: .manual, anchor: testAnchor)
        let handle = try newPhone(bridge, "manual-poll")
        let polled = onAThread { self.ask(bridge, "GET", "/_pushsim/devices/manual-poll/notifications?wait=10s", connection: 2) }
        usleep(50_000)
        let before = virtualMicroseconds(bridge)
        #expect(push(bridge, to: handle, "Hello manual", unixNow: testAnchor.unixSecondsAtZero).status == 200)
        #expect(virtualMicroseconds(bridge) == before, "a send straight to APNs takes no virtual time")
        _ = ask(bridge, "POST", "/_pushsim/clock/advance", body: #"{"by":"1s"}"#)
        let answer = json(polled.wait())
        #expect(answer["waited"]?["reached"] == .bool(true))
        #expect(answer["notifications"]?.arrayValue?.last?["text"]?.stringValue == "Hello manual")
    }

    @Test func badWaitsAreRefusedWithTheField() throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: 5), clock: .manual, anchor: testAnchor)
        _ = try newPhone(bridge, "bad-iphone")
        for target in ["?wait=soon", "?wait=1h", "?wait=1s&count=-1", "?count=2", "?wait=1s&settle=1s"] {
            let r = ask(bridge, "GET", "/_pushsim/devices/bad-iphone/notifications" + target)
            #expect(r.status == 400, "\(target)")
        }
    }

    /// What grows with traffic is bounded: the journal and each phone's notifications keep the
    /// newest, and the read-backs say how many were dropped. (Before: every send stayed in memory
    /// until a reset, about 2.35 KB each.)
    @Test func theJournalAndTheInboxKeepTheNewest() throws {
        var retention = ServeRetention()
        retention.journalEntries = 100
        retention.notificationsPerDevice = 10
        let bridge = try WorldBridge(setup: WorldSetup(seed: 5), clock: .manual, anchor: testAnchor, retention: retention)
        let handle = try newPhone(bridge, "busy-iphone")
        for i in 0..<500 { _ = push(bridge, to: handle, "n\(i)", unixNow: testAnchor.unixSecondsAtZero) }
        _ = ask(bridge, "GET", "/_pushsim/clock")
        let read = json(ask(bridge, "GET", "/_pushsim/devices/busy-iphone/notifications?settle=1s"))
        #expect(read["shown"]?.int64Value == 500)
        let kept = read["notifications"]?.arrayValue ?? []
        #expect(kept.count >= 10 && kept.count <= 12)
        #expect(read["dropped"]?.int64Value == Int64(500 - kept.count))
        #expect(kept.last?["text"]?.stringValue == "n499")

        let journal = json(ask(bridge, "GET", "/_pushsim/journal"))
        let total = journal["total"]?.int64Value ?? 0
        let dropped = journal["dropped"]?.int64Value ?? 0
        #expect(total >= 1_000)   // each push: the send, and the delivery to the phone
        #expect(total - dropped <= 113)
        #expect(journal["since"]?.int64Value == dropped)
    }
}

/// A request answered on a thread of its own, as a second connection's thread asks: a long poll
/// blocks its thread, so it must not take one of Swift concurrency's few shared threads (on two
/// cores, two such polls from tests running side by side would starve every other test).
final class ThreadAnswer: @unchecked Sendable {   // `answer` is written once, before `done` is signalled
    private let done = DispatchSemaphore(value: 0)
    private var answer: HTTPResponse?
    init(_ ask: @escaping @Sendable () -> HTTPResponse) {
        Thread.detachNewThread { [self] in
            answer = ask()
            done.signal()
        }
    }
    func wait() -> HTTPResponse {
        done.wait()
        return answer!
    }
}

func onAThread(_ ask: @escaping @Sendable () -> HTTPResponse) -> ThreadAnswer { ThreadAnswer(ask) }
