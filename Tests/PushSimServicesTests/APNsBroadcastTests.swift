import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// Channel management and broadcast requests on the APNs test bench (Citations §1.20).
extension APNsBench {
    /// A channel management request on the sandbox or production management host.
    func manage(_ method: String, path: String = "/1/apps/\(APNsBench.bundle)/channels", channel: String? = nil,
                body: String = "", host: String = APNsService.channelManagementProductionHost, auth: Auth = .current,
                headers: [(String, String)] = [], sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse {
        send(topic: nil, headers: (channel.map { [("apns-channel-id", $0)] } ?? []) + headers, body: body, auth: auth, host: host,
             method: method, path: path, sourceLocation: sourceLocation)
    }

    /// Creates a channel with `policy` and returns its id ("" on failure, as a test issue).
    func createChannel(policy: Int = 1, host: String = APNsService.channelManagementProductionHost,
                       sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let r = manage("POST", body: #"{"message-storage-policy": \#(policy), "push-type": "LiveActivity"}"#, host: host,
                       sourceLocation: sourceLocation)
        #expect(r.status == 201, sourceLocation: sourceLocation)
        return r.headers["apns-channel-id"] ?? ""
    }

    /// A broadcast on `channel` (nil leaves `apns-channel-id` out).
    func broadcast(on channel: String?, headers: [(String, String)] = [("apns-push-type", "liveactivity")],
                   body: String = #"{"aps":{"timestamp":1,"event":"update","content-state":{"score":"1-0"}}}"#,
                   path: String = "/4/broadcasts/apps/\(APNsBench.bundle)", sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse {
        var all = headers
        if let channel { all.append(("apns-channel-id", channel)) }
        return send(topic: nil, headers: all, body: body, path: path, sourceLocation: sourceLocation)
    }

    /// `device` (holding `token`) subscribes to `channel`, as its OS does when a Live Activity starts on it.
    func subscribe(_ device: FakeDevice, token: String, to channel: String) -> Int? {
        var status: Int?
        world.call(HTTPRequest(method: "POST", authority: APNsService.deviceHost, path: DeviceChannel.broadcastChannelsPath,
                               body: DeviceMembershipRequest(.channel, token: token, name: channel).body), from: device.name) { status = $0.status }
        world.run()
        return status
    }
}

@Suite("APNs broadcast channels: channel management API (Citations §1.20)")
struct APNsChannelManagementTests {
    @Test func createReadListDelete() throws {
        let bench = APNsBench()
        let create = bench.manage("POST", body: #"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#,
                                  headers: [("apns-request-id", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")])
        #expect(create.status == 201)
        #expect(create.headers["apns-request-id"] == "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
        let id = try #require(create.headers["apns-channel-id"])
        #expect(Base64.decode(id)?.count == 16)
        let read = bench.manage("GET", channel: id)
        #expect(read.status == 200)
        #expect(read.bodyText == #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        #expect(isLowercaseUUIDv4(read.headers["apns-request-id"] ?? ""))
        let second = bench.createChannel(policy: 1)
        #expect(bench.manage("GET", path: "/1/apps/\(APNsBench.bundle)/all-channels").bodyText == #"{"channels":["\#(id)","\#(second)"]}"#)
        #expect(bench.manage("DELETE", channel: id).status == 204)
        let again = bench.manage("GET", channel: id)
        #expect(again.status == 400)
        #expect(again.bodyText == #"{"reason":"ChannelNotRegistered"}"#)
        #expect(bench.manage("DELETE", channel: id).bodyText == #"{"reason":"ChannelNotRegistered"}"#)
        #expect(bench.manage("GET", path: "/1/apps/\(APNsBench.bundle)/all-channels").bodyText == #"{"channels":["\#(second)"]}"#)
    }

    @Test func channelsBelongToOneEnvironmentAndOneApp() {
        let bench = APNsBench()
        let id = bench.createChannel(host: APNsService.channelManagementSandboxHost)
        #expect(bench.manage("GET", channel: id, host: APNsService.channelManagementSandboxHost).status == 200)
        #expect(bench.manage("GET", channel: id).bodyText == #"{"reason":"ChannelNotRegistered"}"#)
        #expect(bench.manage("GET", path: "/1/apps/com.example.other/channels", channel: id).bodyText == #"{"reason":"ChannelNotRegistered"}"#)
        #expect(bench.manage("GET", path: "/1/apps/\(APNsBench.bundle)/all-channels").bodyText == #"{"channels":[]}"#)
    }

    @Test func documentedErrors() {
        let bench = APNsBench()
        #expect(bench.manage("GET").bodyText == #"{"reason":"MissingChannelId"}"#)
        #expect(bench.manage("DELETE", channel: "not base64!").bodyText == #"{"reason":"BadChannelId"}"#)
        #expect(bench.manage("GET", channel: String(repeating: "QUJD", count: 40)).bodyText == #"{"reason":"BadChannelId"}"#)
        let wrongType = bench.manage("POST", body: #"{"message-storage-policy": 1, "push-type": "Alert"}"#)
        #expect(wrongType.status == 400 && wrongType.bodyText == #"{"reason":"InvalidPushType"}"#)
        #expect(bench.manage("POST", body: #"{"message-storage-policy": 2, "push-type": "LiveActivity"}"#).status == 400)
        #expect(bench.manage("POST", body: "not json").status == 400)
        #expect(bench.manage("PUT").bodyText == #"{"reason":"MethodNotAllowed"}"#)
        #expect(bench.manage("POST", path: "/1/apps/\(APNsBench.bundle)/all-channels").status == 405)
        #expect(bench.manage("GET", path: "/1/apps//channels").bodyText == #"{"reason":"BadPath"}"#)
        let noAuth = bench.manage("GET", path: "/1/apps/\(APNsBench.bundle)/all-channels", auth: .missing)
        #expect(noAuth.status == 403 && noAuth.bodyText == #"{"reason":"MissingProviderToken"}"#)
        #expect(noAuth.headers["apns-request-id"] != nil && noAuth.headers["apns-id"] == nil)
    }

    @Test func theTenThousandthChannelIsTheLast() {
        let bench = APNsBench()
        var registry = BroadcastChannelRegistry()
        for n in 0..<BroadcastChannelRegistry.limitPerAppAndEnvironment {
            let ok = registry.add(BroadcastChannel(id: "c\(n)", app: APNsBench.bundle, environment: "production",
                                                   policy: .noMessageStored, createdAt: .zero))
            if !ok { Issue.record("channel \(n) refused") }
        }
        let overProduction = registry.add(BroadcastChannel(id: "over", app: APNsBench.bundle, environment: "production", policy: .noMessageStored, createdAt: .zero))
        let firstInSandbox = registry.add(BroadcastChannel(id: "over", app: APNsBench.bundle, environment: "sandbox", policy: .noMessageStored, createdAt: .zero))
        #expect(!overProduction)
        #expect(firstInSandbox)
        bench.apns.broadcast.registry = registry
        let r = bench.manage("POST", body: #"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#)
        #expect(r.status == 400 && r.bodyText == #"{"reason":"CannotCreateChannelConfig"}"#)
    }

    /// The channel management API is part of APNs: a service-wide injected fault hits it too,
    /// answered as APNs answers with the request's `apns-request-id`. Before, a channel was
    /// created during an injected outage.
    @Test func anInjectedOutageHitsTheChannelManagementAPI() {
        let bench = APNsBench()
        bench.apns.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(30)), from: bench.world.now, to: bench.world.now + .seconds(30))]
        let r = bench.manage("POST", body: #"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#,
                             headers: [("apns-request-id", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")])
        #expect(r.status == 503 && r.bodyText == #"{"reason":"ServiceUnavailable"}"#)
        #expect(r.headers["apns-request-id"] == "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0" && r.headers["apns-channel-id"] == nil)
        #expect(bench.apns.broadcast.registry.all.isEmpty)
        #expect(bench.world.events("fault.injected").count == 1)
    }


    /// An app whose App ID lacks the Broadcast capability is refused `FeatureNotEnabled` on every
    /// channel management call and broadcast; channels made before stay and answer once it is back.
    @Test func anAppWithoutTheBroadcastCapabilityIsFeatureNotEnabled() {
        let bench = APNsBench()
        let channel = bench.createChannel(policy: 0)
        bench.apns.configuration.appsWithoutBroadcast = [APNsBench.bundle]
        let refusals = [
            bench.manage("POST", body: #"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#),
            bench.manage("GET", channel: channel),
            bench.manage("GET", path: "/1/apps/\(APNsBench.bundle)/all-channels"),
            bench.broadcast(on: channel),
        ]
        #expect(refusals.map(\.status) == [400, 400, 400, 400])
        #expect(refusals.allSatisfy { $0.bodyText == #"{"reason":"FeatureNotEnabled"}"# && $0.headers["apns-request-id"] != nil })
        bench.apns.configuration.appsWithoutBroadcast = []
        #expect(bench.manage("GET", channel: channel).status == 200)
    }

}
