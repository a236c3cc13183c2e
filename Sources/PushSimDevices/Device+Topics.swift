import PushSimKernel
import PushSimNetwork

/// FCM topics from the device: an Android app's Firebase SDK subscribes the app's own token to a
/// topic (`FirebaseMessaging.subscribeToTopic`) or unsubscribes it (`unsubscribeFromTopic`), by a
/// registration RPC that names the token as its sender and `/topics/<name>` as its scope, with
/// `delete` to leave (FA-ANDROID-RPC). PushSim sends that as the device channel's `POST /topics`
/// (`DeviceChannel`, `DeviceMembershipRequest`).
extension Device {
    /// The SDK's rule for a topic name: `[a-zA-Z0-9-_.~%]{1,900}` (FA-ANDROID-RPC).
    static let maxTopicNameLength = 900

    /// The app subscribes its token to `topic` (a name; a `/topics/` prefix is taken off, as the
    /// SDK takes it off). Ignored, with the reason, on iOS and Windows (topics are FCM's), while
    /// the app is not installed, or for a name the SDK refuses. Asked before the app has a token,
    /// it is sent once the token comes.
    public func subscribe(toTopic topic: String) { topicOperation(topic, delete: false) }

    /// The app unsubscribes its token from `topic`; as ``subscribe(toTopic:)`` otherwise.
    public func unsubscribe(fromTopic topic: String) { topicOperation(topic, delete: true) }

    private func topicOperation(_ topic: String, delete: Bool) {
        let action = delete ? "unsubscribe" : "subscribe"
        guard platform == .android else {
            return record(.deviceIgnored, [.action: .string(action), .why: "topics are FCM's: only an Android app subscribes to one"])
        }
        guard isAppInstalled else { return record(.deviceIgnored, [.action: .string(action), .why: "the app is not installed"]) }
        let name = topic.hasPrefix("/topics/") ? String(topic.dropFirst("/topics/".count)) : topic
        guard name.utf8.count <= Self.maxTopicNameLength, FCMTopicName.isValid(name) else {
            return record(.deviceIgnored, [.action: .string(action), .topic: .string(topic),
                                           .why: "the Firebase SDK refuses the name: it must match [a-zA-Z0-9-_.~%]{1,900}"])
        }
        pendingTopicOperations.append((name, delete))
        if handle != nil { sendPendingTopicOperations() }
    }

    /// Sends the topic operations waiting for a token, in the order asked.
    func sendPendingTopicOperations() {
        guard let handle, !pendingTopicOperations.isEmpty else { return }
        let operations = pendingTopicOperations
        pendingTopicOperations = []
        let generation = self.generation
        for op in operations {
            let ask = DeviceMembershipRequest(.topic, token: handle, name: "/topics/" + op.topic, delete: op.delete)
            let request = HTTPRequest(method: "POST", authority: service.deviceHost, path: DeviceChannel.topicsPath, body: ask.body)
            world.call(request, from: name) { [self] result in
                guard generation == self.generation else { return }
                record(.deviceTopic, [.action: .string(op.delete ? "unsubscribe" : "subscribe"), .topic: .string(op.topic),
                                      .result: .string(result.summary)])
            }
        }
    }
}
