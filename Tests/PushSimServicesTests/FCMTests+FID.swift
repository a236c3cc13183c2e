import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// Sends addressed to a Firebase installation ID (`message.fid`), as firebase-admin 7.5 sends them
/// (issue 41 item 8). Before, FCM answered such a body 400 `Unknown name "fid"`.
@Suite("FCM sends to a Firebase installation ID (Citations §2.2)")
struct FCMFIDTests {
    static let fid = "dQw4w9WgXcQ-Abcdefghij"
    static let otherFID = "eZZZZZZZZZZZZZZZZZZZZZ"

    /// A bench whose phone named `fid` when it asked for its token.
    func bench() -> FCMBench {
        let bench = FCMBench()
        bench.token = bench.phone.register(app: FCMBench.package, install: 2, environment: bench.project.projectNumber, installation: Self.fid)
        return bench
    }

    @Test func aSendToTheAppsFIDReachesThePhone() throws {
        let bench = bench()
        let r = bench.send(.object([("fid", .string(Self.fid)), ("data", ["n": "1"])]))
        #expect(r.status == 200)
        #expect(json(r)?["name"]?.stringValue?.hasPrefix("projects/notes-app/messages/0:") == true)
        let push = try #require(bench.phone.pushes.last)
        #expect(push.n == "1")
        // The phone gets the message as sent: `fid` is its target, as `token` is for a token send.
        #expect((try? JSONParser.parse(push.body))?["fid"]?.stringValue == Self.fid)
    }

    /// Google's own integration test sends `fid: "not-a-fid"` and expects `UnregisteredError`: an
    /// unknown FID is 404 `UNREGISTERED` whatever its shape, dry run or not, never `INVALID_ARGUMENT`.
    @Test(arguments: ["not-a-fid", FCMFIDTests.otherFID, ""])
    func aFIDFCMDoesNotKnowIsUnregistered(fid: String) {
        let bench = bench()
        for validateOnly in [nil, true] as [Bool?] {
            expectFCMError(bench.send(.object([("fid", .string(fid))]), validateOnly: validateOnly), 404, "NOT_FOUND", "UNREGISTERED",
                           message: "Requested entity was not found.")
        }
        #expect(bench.phone.pushes.isEmpty)
    }

    @Test func aDryRunToAKnownFIDIsAcceptedAndNotDelivered() {
        let bench = bench()
        let r = bench.send(.object([("fid", .string(Self.fid))]), validateOnly: true)
        #expect(r.status == 200)
        #expect(json(r)?["name"]?.stringValue == "projects/notes-app/messages/fake_message_id")
        #expect(bench.phone.pushes.isEmpty)
    }

    /// `fid`, `token`, `topic` and `condition` are one oneof, `target`: a second one set is refused
    /// by Google's parser as laravel-notification-channels/fcm#43 captured it, naming the second
    /// as written, even when it is empty (firebase/firebase-tools#8586); `null` is "not set".
    @Test func aSecondTargetIsRefusedAsTheOneofRefusesIt() {
        let bench = bench()
        let cases: [([(String, JSONValue)], String)] = [
            ([("token", .string(bench.token)), ("fid", .string(Self.fid))], "fid"),
            ([("fid", .string(Self.fid)), ("topic", "news")], "topic"),
            ([("fid", .string(Self.fid)), ("condition", "'a' in topics")], "condition"),
            ([("topic", "news"), ("token", "")], "token"),
        ]
        for (members, second) in cases {
            let r = bench.send(.object(members))
            let e = GoogleError(r)
            #expect(r.status == 400)
            #expect(e.status == "INVALID_ARGUMENT")
            #expect(e.message == "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set '\(second)'")
            #expect(e.violatedFields == ["message"])
        }
        #expect(bench.send(.object([("token", .null), ("fid", .string(Self.fid))])).status == 200)
        #expect(bench.phone.pushes.count == 1)
    }

    /// A FID outlives the tokens issued for it: after a token refresh (a new app instance, the
    /// same installation) a send to the FID reaches the new token.
    @Test func aFIDFollowsItsInstallationToANewToken() {
        let bench = bench()
        let first = bench.token
        let second = bench.phone.register(app: FCMBench.package, install: 3, environment: bench.project.projectNumber, installation: Self.fid)
        #expect(second != first)
        #expect(bench.send(.object([("fid", .string(Self.fid))])).status == 200)
        #expect(bench.world.events("fcm.delivered").last?[.device]?.description == "pixel")
        #expect(bench.phone.pushes.last.flatMap { (try? JSONParser.parse($0.body))?["fid"]?.stringValue } == Self.fid)
        #expect(bench.world.events("fcm.accepted").count == 1)
    }

    /// After an uninstall the FID names a dead app instance: the first send is accepted and refused
    /// by the phone, and FCM answers every later one `UNREGISTERED`, as for the token.
    @Test func aFIDOfAnUninstalledAppBecomesUnregistered() {
        let bench = bench()
        bench.phone.uninstall()
        #expect(bench.send(.object([("fid", .string(Self.fid))])).status == 200)
        expectFCMError(bench.send(.object([("fid", .string(Self.fid))])), 404, "NOT_FOUND", "UNREGISTERED")
        expectFCMError(bench.send(bench.message()), 404, "NOT_FOUND", "UNREGISTERED")
    }

    /// A fault scoped to a FID hits sends to the FID and to the token issued for it, and no other.
    @Test func aFaultScopedToAFIDHitsItsSendsByFIDAndByToken() {
        let bench = bench()
        let other = FakeDevice(world: bench.world, name: "tablet", serviceHost: FCMService.deviceHost)
        let otherToken = other.register(app: FCMBench.package, environment: bench.project.projectNumber, installation: Self.otherFID)
        bench.fcm.faults = [ServiceFault(effect: .refuse("UNREGISTERED"), from: .zero, to: bench.world.now + .hours(1), scope: .fid(Self.fid))]
        expectFCMError(bench.send(.object([("fid", .string(Self.fid))])), 404, "NOT_FOUND", "UNREGISTERED")
        expectFCMError(bench.send(bench.message()), 404, "NOT_FOUND", "UNREGISTERED")
        #expect(bench.send(bench.message(token: otherToken)).status == 200)
        #expect(bench.send(.object([("fid", .string(Self.otherFID))])).status == 200)
        #expect(other.pushes.count == 2)
    }
}
