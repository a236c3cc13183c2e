import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices

/// APNs broadcast channels from the operator (`operator create|delete channel "<name>"`,
/// `operator broadcast "<payload>" on channel "<name>"`): what an app's server does for a Live
/// Activity event followed by many people (Citations §1.20). It signs an APNs provider token with
/// the scenario's key, keeps it 55 minutes (APNs refuses a new token from the same provider less
/// than 20 minutes after the last), and calls the channel management API on
/// `api-manage-broadcast.push.apple.com` or sends on `api.push.apple.com`. A channel is known in
/// the scenario by its name; APNs' id for it is learnt from the create's `apns-channel-id`.
/// Answers are recorded as `channel` and `broadcast` calls (`expect operator channel status 201`).
extension OperatorConsole {
    /// The APNs account and app the operator calls for: the signing key, the bundle id and its environment.
    public struct APNsAccount: Sendable {
        /// The key provider tokens are signed with (its private half must be known).
        public var key: APNsSigningKey
        /// The app's bundle id, in the paths.
        public var bundleID: String
        /// `production` or `sandbox`: which hosts are called.
        public var environment: String
        /// An account for `bundleID` in `environment`, signed with `key`.
        public init(key: APNsSigningKey, bundleID: String, environment: String) {
            self.key = key
            self.bundleID = bundleID
            self.environment = environment
        }
    }

    /// `payload` with an `aps.input-push-channel` that names a channel the operator created (by
    /// its name in the file) replaced by APNs' id for it, so that a push-to-start can put the new
    /// activity on that channel; any other payload as given, byte for byte.
    func withChannelIDs(_ payload: String) -> String {
        guard let root = try? JSONParser.parse(Array(payload.utf8)), var aps = root["aps"]?.objectMembers,
              let index = aps.firstIndex(where: { $0.0 == "input-push-channel" }), let name = aps[index].1.stringValue,
              let id = broadcastChannelIDs[name] else { return payload }
        aps[index].1 = .string(id)
        return JSONValue.object((root.objectMembers ?? []).map { $0.0 == "aps" ? ("aps", JSONValue.object(aps)) : $0 }).serialized()
    }

    /// Creates a channel with `policy`; its id is kept under `name` once APNs answers 201.
    public func createBroadcastChannel(_ name: String, policy: BroadcastMessageStoragePolicy, account: APNsAccount) {
        let body = JSONValue.object([("message-storage-policy", .number(JSONNumber(Int64(policy.rawValue)))), ("push-type", .string("LiveActivity"))])
        call(.channel, "POST", host: managementHost(account), path: "/1/apps/\(account.bundleID)/channels", channel: nil,
             body: body.serializedBytes(), account: account) { [self] response in
            if let id = response?.headers["apns-channel-id"], response?.status == 201 { broadcastChannelIDs[name] = id }
        }
    }

    /// Deletes the channel created as `name` (with the id APNs gave it; an unknown name sends none).
    public func deleteBroadcastChannel(_ name: String, account: APNsAccount) {
        call(.channel, "DELETE", host: managementHost(account), path: "/1/apps/\(account.bundleID)/channels",
             channel: broadcastChannelIDs[name], body: [], account: account) { _ in }
    }

    /// Broadcasts `payload` on the channel created as `name`, or with no `apns-channel-id` when
    /// `name` is nil; `headers` are added as written (`apns-push-type: liveactivity` unless given).
    public func broadcast(_ payload: String, onChannel name: String?, headers: [(String, String)], account: APNsAccount) {
        var all = headers
        if !all.contains(where: { $0.0.lowercased() == "apns-push-type" }) { all.insert(("apns-push-type", "liveactivity"), at: 0) }
        let host = account.environment == "production" ? APNsService.productionHost : APNsService.sandboxHost
        call(.broadcast, "POST", host: host, path: "/4/broadcasts/apps/\(account.bundleID)", channel: name.map { broadcastChannelIDs[$0] ?? "" },
             body: Array(payload.utf8), account: account, headers: all) { _ in }
    }

    private func managementHost(_ account: APNsAccount) -> String {
        account.environment == "production" ? APNsService.channelManagementProductionHost : APNsService.channelManagementSandboxHost
    }

    /// One call with the current provider token; its answer is recorded as an `operation` call.
    private func call(_ operation: AppOperation, _ method: String, host: String, path: String, channel: String?, body: [UInt8],
                      account: APNsAccount, headers extra: [(String, String)] = [], then: @escaping (HTTPResponse?) -> Void) {
        world.record(layer: "operator", host: Self.name, kind: .operatorSend, [.format: .string(operation.rawValue), .target: .string(path)])
        var headers = HTTPHeaders()
        headers.add("authorization", "bearer " + providerToken(account.key))
        if let channel { headers.add("apns-channel-id", channel) }
        for (n, v) in extra { headers.add(n, v) }
        if !body.isEmpty { headers.add("content-type", "application/json") }
        let sentAt = world.now
        world.call(HTTPRequest(method: method, authority: host, path: path, headers: headers, body: body), from: Self.name) { [self] result in
            recordCall(AppCallRecord.make(operation: operation, sentAt: sentAt, completedAt: world.now, status: result.status,
                                          failure: result.status == nil ? result.summary : nil))
            world.record(layer: "operator", host: Self.name, kind: .operatorResult, [.result: .string(result.status.map(String.init) ?? "no HTTP answer")])
            then(result.response)
        }
    }
}
