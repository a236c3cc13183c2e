import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

extension FCMBench {
    /// A request to the Instance ID API as firebase-admin sends it: the access token and `access_token_auth: true`.
    func instanceID(_ method: String, _ target: String, body: String = "", auth: Bool = true, flag: Bool = true) -> HTTPResponse {
        var h: HTTPHeaders = ["content-type": "application/json"]
        if auth { h.add("authorization", "Bearer " + accessToken) }
        if flag { h.add("access_token_auth", "true") }
        let (path, query) = splitTarget(target)
        return server.roundTrip(HTTPRequest(method: method, authority: FCMService.instanceIDHost, path: path, query: query,
                                            headers: h, body: Array(body.utf8)), in: world)
    }

    /// `POST /iid/v1:batchAdd` (or `batchRemove`) of `tokens` to `/topics/<topic>`; the per-token results.
    @discardableResult
    func batch(_ op: String, _ topic: String, _ tokens: [String], sourceLocation: SourceLocation = #_sourceLocation) -> [String?] {
        let body = JSONValue.object([("to", .string("/topics/" + topic)), ("registration_tokens", .array(tokens.map { .string($0) }))]).serialized()
        let r = instanceID("POST", "/iid/v1:\(op)", body: body)
        #expect(r.status == 200, sourceLocation: sourceLocation)
        return json(r)?["results"]?.arrayValue?.map { $0["error"]?.stringValue } ?? []
    }

    /// A second Android phone of the first project, with its token.
    func secondPhone(_ name: String = "pixel-2") -> (FakeDevice, String) {
        let phone = FakeDevice(world: world, name: name, serviceHost: FCMService.deviceHost)
        return (phone, phone.register(app: Self.package, environment: project.projectNumber))
    }
}

@Suite("FCM topics: the Instance ID API (Citations §2.7)")
struct FCMInstanceIDTests {
    @Test func batchAddAnswersEachTokenInOrder() {
        let bench = FCMBench()
        let other = FakeDevice(world: bench.world, name: "chess-phone", serviceHost: FCMService.deviceHost)
        let otherToken = other.register(app: "com.example.chess", environment: bench.otherProject.projectNumber)
        let unknown = "abcdefghijklmnopqrstuv:APA91b" + String(repeating: "x", count: 40)
        let results = bench.batch("batchAdd", "news", [bench.token, unknown, "not-a-token", otherToken])
        #expect(results == [nil, "NOT_FOUND", "INVALID_ARGUMENT", "INVALID_ARGUMENT"])
        #expect(bench.fcm.subscriberCount(of: "news", project: "notes-app") == 1)
        // Again, and then removed: both succeed, also for a topic the token does not have.
        #expect(bench.batch("batchAdd", "news", [bench.token]) == [nil])
        #expect(bench.batch("batchRemove", "news", [bench.token, bench.token]) == [nil, nil])
        #expect(bench.batch("batchRemove", "sports", [bench.token]) == [nil])
        #expect(bench.fcm.subscriberCount(of: "news", project: "notes-app") == 0)
    }

    @Test func aDeadTokenIsNotFound() {
        let bench = FCMBench()
        bench.phone.uninstall()
        _ = bench.send(bench.message())
        #expect(bench.batch("batchAdd", "news", [bench.token]) == ["NOT_FOUND"])
    }

    @Test func twoThousandTopicsPerTokenThenTooManyTopics() {
        let bench = FCMBench()
        for n in 1...2_000 { bench.fcm.topicRegistry.subscribe(bench.token, to: "t\(n)", project: bench.project.projectNumber, at: .zero) }
        #expect(bench.batch("batchAdd", "one-more", [bench.token]) == ["TOO_MANY_TOPICS"])
        #expect(bench.batch("batchAdd", "t7", [bench.token]) == [nil])  // already has it: fine
    }

    @Test(arguments: [
        #"not json"#, #"{"to":"/topics/news"}"#, #"{"registration_tokens":["a"]}"#, #"{"to":"news","registration_tokens":["a"]}"#,
        #"{"to":"/topics/bad name","registration_tokens":["a"]}"#, #"{"to":"/topics/news","registration_tokens":[]}"#,
        #"{"to":"/topics/news","registration_tokens":[1]}"#,
    ])
    func unreadableRequestsAre400(body: String) {
        let bench = FCMBench()
        let r = bench.instanceID("POST", "/iid/v1:batchAdd", body: body)
        #expect(r.status == 400)
        #expect(json(r)?["error"]?.stringValue == "INVALID_ARGUMENT")
    }

    @Test func moreThanAThousandTokensAre400() {
        let bench = FCMBench()
        let tokens = JSONValue.array((0...1_000).map { .string("t\($0)") })
        let r = bench.instanceID("POST", "/iid/v1:batchAdd",
                                 body: JSONValue.object([("to", "/topics/news"), ("registration_tokens", tokens)]).serialized())
        #expect(r.status == 400)
    }

    @Test(arguments: [(true, false), (false, true), (false, false)])
    func withoutTheAccessTokenOrTheFlagIs401(auth: Bool, flag: Bool) {
        let bench = FCMBench()
        let r = bench.instanceID("POST", "/iid/v1:batchAdd", body: #"{"to":"/topics/news","registration_tokens":["a"]}"#, auth: auth, flag: flag)
        #expect(r.status == 401)
        #expect(r.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(r.bodyText.contains("<TITLE>Unauthorized</TITLE>"))
    }

    @Test func infoListsTopicsWithTheirAddDate() {
        let bench = FCMBench()
        bench.world.advance(by: .days(3))
        bench.renewAccessToken()
        bench.batch("batchAdd", "sports", [bench.token])
        bench.batch("batchAdd", "news", [bench.token])
        let r = bench.instanceID("GET", "/iid/info/\(bench.token)?details=true")
        #expect(r.status == 200)
        #expect(r.bodyText == #"{"application":"com.example.notes","authorizedEntity":"123456789012","platform":"ANDROID","rel":{"topics":{"news":{"addDate":"2026-01-04"},"sports":{"addDate":"2026-01-04"}}}}"#)
        let plain = bench.instanceID("GET", "/iid/info/\(bench.token)")
        #expect(json(plain)?["rel"] == nil)
        let unknown = bench.instanceID("GET", "/iid/info/nobody")
        #expect(unknown.status == 404)
        #expect(json(unknown)?["error"]?.stringValue == "No information found about this instance id.")
    }

    @Test func theSingleTokenFormSubscribesOne() {
        let bench = FCMBench()
        let r = bench.instanceID("POST", "/iid/v1/\(bench.token)/rel/topics/news")
        #expect(r.status == 200 && r.bodyText == "{}")
        #expect(bench.fcm.topics(of: bench.token).map(\.topic) == ["news"])
        #expect(bench.instanceID("POST", "/iid/v1/\(bench.token)/rel/topics/bad$name").status == 400)
        #expect(bench.instanceID("POST", "/iid/v1/nobody:APA91bxyz/rel/topics/news").status == 404)
        #expect(bench.instanceID("GET", "/iid/v1/elsewhere").status == 404)
    }
}

@Suite("FCM topics: topic and condition sends fan out (Citations §2.7)")
struct FCMTopicSendTests {
    @Test func aTopicSendReachesExactlyItsSubscribers() {
        let bench = FCMBench()
        let (second, secondToken) = bench.secondPhone()
        let (third, _) = bench.secondPhone("pixel-3")
        bench.batch("batchAdd", "news", [bench.token, secondToken])
        let r = bench.send(.object(["topic": "news", "data": ["message": "extra"]]))
        #expect(r.status == 200)
        bench.world.run()
        #expect(bench.phone.pushes.count == 1 && second.pushes.count == 1 && third.pushes.isEmpty)
        let name = json(r)?["name"]?.stringValue
        #expect(bench.phone.pushes.first?.headers[DeviceChannel.messageHeader] == name)
        let fanOut = bench.world.trace.events.first { $0.kind == .fcmFanOut }
        #expect(fanOut?[.copies]?.description == "2")
    }

    @Test func aConditionReachesOnlyWhoMeetsIt() {
        let bench = FCMBench()
        let (second, secondToken) = bench.secondPhone()
        let (third, thirdToken) = bench.secondPhone("pixel-3")
        bench.batch("batchAdd", "a", [bench.token, secondToken])
        bench.batch("batchAdd", "b", [secondToken, thirdToken])
        _ = bench.send(.object(["condition": "'a' in topics && 'b' in topics", "data": ["m": "both"]]))
        _ = bench.send(.object(["condition": "!('a' in topics)", "data": ["m": "not a"]]))
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(second.pushes.count == 1)
        #expect(third.pushes.count == 1 && third.pushes.first?.text.contains("not a") == true)
    }

    @Test func anInvalidConditionIs400WithFCMsWording() {
        let bench = FCMBench()
        let r = bench.send(.object(["condition": "'a' in topics &&", "data": ["m": "x"]]))
        let e = GoogleError(r)
        #expect(r.status == 400 && e.status == "INVALID_ARGUMENT" && e.message == "Request contains an invalid argument.")
        #expect(e.fcmErrorCode == "INVALID_ARGUMENT")
        #expect(e.violatedFields == ["message.condition"])
        #expect(r.bodyText.contains("Invalid condition expression provided."))
        let six = (1...6).map { "'t\($0)' in topics" }.joined(separator: " || ")
        #expect(bench.send(.object(["condition": .string(six)])).status == 400)
    }

    @Test(arguments: ["/topics/news", "bad name", ""])
    func aTopicThatIsNoNameIs400(topic: String) {
        let bench = FCMBench()
        let r = bench.send(.object(["topic": .string(topic)]))
        #expect(r.status == 400)
        #expect(GoogleError(r).violatedFields == ["message.topic"])
    }

    @Test func anUnsubscribedTokenGetsNothing() {
        let bench = FCMBench()
        bench.batch("batchAdd", "news", [bench.token])
        bench.batch("batchRemove", "news", [bench.token])
        _ = bench.send(.object(["topic": "news"]))
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
    }

    /// The first topic send after an uninstall reaches the phone, which refuses it (410): FCM
    /// learns the token is dead and it leaves its topics; the next send has no copy for it.
    @Test func aDeadTokenLeavesItsTopics() {
        let bench = FCMBench()
        let (second, secondToken) = bench.secondPhone()
        bench.batch("batchAdd", "news", [bench.token, secondToken])
        bench.phone.uninstall()
        _ = bench.send(.object(["topic": "news"]))
        bench.world.run()
        #expect(bench.phone.refused == 1 && second.pushes.count == 1)
        #expect(bench.fcm.subscriberCount(of: "news", project: "notes-app") == 1)
        #expect(bench.fcm.topics(of: bench.token).isEmpty)
        _ = bench.send(.object(["topic": "news"]))
        bench.world.run()
        #expect(bench.phone.refused == 1 && second.pushes.count == 2)
    }

    /// A new token for the same Firebase installation (a refresh) replaces the old one, which leaves its topics.
    @Test func aRefreshedTokenLeavesItsTopics() {
        let bench = FCMBench()
        let fid = "cAAAAAAAAAAAAAAAAAAAAA"
        let old = bench.phone.register(app: FCMBench.package, install: 2, environment: bench.project.projectNumber, installation: fid)
        bench.batch("batchAdd", "news", [old])
        _ = bench.phone.register(app: FCMBench.package, install: 3, environment: bench.project.projectNumber, installation: fid)
        #expect(bench.fcm.topics(of: old).isEmpty)
    }

    @Test func anOfflineSubscriberGetsTheTopicMessageWhenItReconnects() {
        let bench = FCMBench()
        bench.batch("batchAdd", "news", [bench.token])
        bench.phone.goOffline()
        _ = bench.send(.object(["topic": "news", "data": ["m": "later"]]))
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.fcm.leftovers(world: bench.world).count == 1)
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.count == 1)
    }

    @Test func theDeviceSubscribesWithItsOwnToken() {
        let bench = FCMBench()
        func ask(_ body: DeviceMembershipRequest, from device: String = "pixel") -> Int? {
            var status: Int?
            bench.world.call(HTTPRequest(method: "POST", authority: FCMService.deviceHost, path: DeviceChannel.topicsPath, body: body.body),
                             from: device) { status = $0.status }
            bench.world.run()
            return status
        }
        #expect(ask(DeviceMembershipRequest(.topic, token: bench.token, name: "/topics/news", delete: false)) == 200)
        #expect(bench.fcm.topics(of: bench.token).map(\.topic) == ["news"])
        #expect(ask(DeviceMembershipRequest(.topic, token: bench.token, name: "/topics/news", delete: false), from: "app-server") == 400)
        #expect(ask(DeviceMembershipRequest(.topic, token: bench.token, name: "news", delete: false)) == 400)
        #expect(ask(DeviceMembershipRequest(.topic, token: bench.token, name: "/topics/news", delete: true)) == 200)
        #expect(bench.fcm.topics(of: bench.token).isEmpty)
    }
}
