import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimDevices

/// Someone who sends straight through the hub with its full-access key, as a marketing tool or an
/// operations backend would: native sends to any tag expression, or to everyone. Its calls are
/// recorded like a device's, so expectations can check their statuses (`expect operator send status 400`).
public final class OperatorConsole: Host {
    public static let name = "operator"
    let hub: NotificationHubClient
    let world: World
    public private(set) var calls: [AppCallRecord] = []

    init(world: World, connectionString: String, hubPath: String) {
        self.world = world
        self.hub = NotificationHubClient(connectionString: connectionString, hubPath: hubPath, world: world, caller: Self.name)!
        world.register(self, name: Self.name)
    }

    /// A native send (`apple`, `fcmv1`, `windows`) of `payload` to `tagExpression`, or to everyone.
    public func send(format: String, payload: String, tagExpression: String?) {
        world.record(layer: "operator", host: Self.name, kind: "operator.send",
                     ["format": format, "tags": tagExpression ?? "(broadcast)"])
        let sentAt = world.now
        hub.sendNativeNotification(format: format, payload: payload, tagExpression: tagExpression) { [self] result in
            let status: Int?
            switch result {
            case .success: status = 201
            case .failure(let e): status = e.status
            }
            calls.append(AppCallRecord.make(operation: .send, sentAt: sentAt, completedAt: world.now, status: status,
                                       failure: status == nil ? "\(result)" : nil))
            world.record(layer: "operator", host: Self.name, kind: "operator.result",
                         ["result": status.map(String.init) ?? "no HTTP answer"])
        }
    }

    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        world.respond(to: exchange, with: HTTPResponse(status: 404))
    }
}
