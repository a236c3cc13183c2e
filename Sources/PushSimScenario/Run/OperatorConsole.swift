import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimDevices

/// Someone who sends straight through the hub with its full-access key (or another, after
/// ``useKey(connectionString:)``), as a marketing tool or an operations backend would: native sends
/// to any tag expression, or to everyone. Its calls are recorded like a device's, so expectations
/// can check their statuses (`expect operator send status 400`).
public final class OperatorConsole: Host {
    /// Its host name, and the name scenarios use for it (`operator send …`).
    public static let name = "operator"
    private(set) var hub: NotificationHubClient
    /// The same, with `EnableTestSend` on: at most 10 targets and a per-target outcome (§4.8).
    private(set) var testHub: NotificationHubClient
    /// The hub's path, for clients made with another key.
    private let hubPath: String
    /// Unowned: the world owns its hosts (see `Device.world`).
    unowned let world: World
    /// Its hub calls, in the order made, recorded like a device's backend calls.
    public private(set) var calls: [AppCallRecord] = []
    /// Ids of scheduled sends, in the order made.
    public private(set) var scheduled: [String] = []
    /// How many per-target results each test send returned, and when its answer came (virtual time).
    public private(set) var timedTestSendResults: [(count: Int, answeredAt: VirtualTime)] = []
    /// How many per-target results each test send returned.
    public var testSendResults: [Int] { timedTestSendResults.map(\.count) }
    /// How many registrations each `list registrations` returned, and when, in the order answered.
    public private(set) var timedListings: [(count: Int, answeredAt: VirtualTime)] = []
    /// How many registrations each `list registrations` returned, in the order answered.
    public var listings: [Int] { timedListings.map(\.count) }
    /// The access token for sends straight to FCM, and when to stop using it (`OperatorConsole+FCM`).
    var fcmAccessToken: (token: String, renewAt: VirtualTime)?
    /// The APNs provider token the operator signs for `operator send apns` and for the broadcast
    /// channel calls, and when it signs a new one (`OperatorConsole+APNs.swift`).
    var apnsProviderToken: (token: String, renewAt: VirtualTime)?
    /// The ids APNs gave the channels the scenario created, by the scenario's name for each.
    public internal(set) var broadcastChannelIDs: [String: String] = [:]

    init(world: World, connectionString: String, hubPath: String) {
        self.world = world
        self.hubPath = hubPath
        self.hub = NotificationHubClient(connectionString: connectionString, hubPath: hubPath, world: world, caller: Self.name)!
        self.testHub = NotificationHubClient(connectionString: connectionString, hubPath: hubPath, world: world, caller: Self.name)!
        testHub.enableTestSend = true
        world.register(self, name: Self.name)
    }

    /// The hub payload for a format, with `headers` added: the SDK's typed payload where it has one,
    /// else the body as given (``NotificationPayload/native(format:body:contentType:headers:)``).
    /// A Windows payload gets the headers as the SDK's `WindowsNotification(payLoad, wnsHeaders)`
    /// does, so that `header "X-WNS-Type" "wns/raw"` sends the body raw and any other type is
    /// taken from the root (``NotificationPayload/windows(_:headers:)``). Nil for a Windows body,
    /// not raw, that is not toast, tile, badge or raw XML, which the SDK refuses and
    /// ``send(format:payload:tagExpression:headers:)`` then sends as it is.
    static func payload(_ format: String, _ body: String, headers: [(String, String)] = []) -> NotificationPayload? {
        var payload: NotificationPayload?
        switch format {
        case "apple": payload = .apple(body)
        case "fcmv1": payload = .fcmV1(body)
        case "windows": return .windows(body, headers: headers)
        default: payload = .native(format: format, body: body)
        }
        payload?.headers += headers
        return payload
    }

    /// Signs the calls that follow with another of the hub's policies, as an operator would by
    /// pasting another connection string from the portal into its tool. A string the SDK cannot
    /// read (no endpoint, key name or key) leaves the key as it was, and is recorded as ignored.
    public func useKey(connectionString: String) {
        guard let client = NotificationHubClient(connectionString: connectionString, hubPath: hubPath, world: world, caller: Self.name),
              let test = NotificationHubClient(connectionString: connectionString, hubPath: hubPath, world: world, caller: Self.name) else {
            return world.record(layer: "operator", host: Self.name, kind: .operatorIgnored, [.why: "the connection string is not one the SDK reads"])
        }
        test.enableTestSend = true
        hub = client
        testHub = test
    }

    /// Schedules a native send for virtual time `at` (NH-REST scheduled notifications).
    public func schedule(format: String, payload: String, at time: VirtualTime, tagExpression: String?, headers: [(String, String)] = []) {
        world.record(layer: "operator", host: Self.name, kind: .operatorSchedule, [.format: .string(format), .at: "\(time)"])
        let sentAt = world.now
        guard let p = Self.payload(format, payload, headers: headers) else { return record(sentAt, nil, "the payload is not toast, tile, badge or raw XML") }
        hub.scheduleNotification(p, at: time, tagExpression: tagExpression) { [self] result in
            switch result {
            case .success(let s): scheduled.append(s.scheduledNotificationID); record(sentAt, 201, nil)
            case .failure(let e): record(sentAt, e.status, e.description)
            }
        }
    }

    /// Cancels the most recent scheduled send.
    public func cancelLastScheduled() {
        guard let id = scheduled.last else {
            return world.record(layer: "operator", host: Self.name, kind: .operatorIgnored, [.why: "nothing is scheduled"])
        }
        world.record(layer: "operator", host: Self.name, kind: .operatorCancel, [.id: .string(id)])
        let sentAt = world.now
        hub.cancelNotification(id) { [self] result in
            switch result {
            case .success: record(sentAt, 200, nil)
            case .failure(let e): record(sentAt, e.status, e.description)
            }
        }
    }

    /// A test send: the hub answers with one outcome per target, for at most 10 targets (§4.8).
    public func testSend(format: String, payload: String, tagExpression: String?, headers: [(String, String)] = []) {
        world.record(layer: "operator", host: Self.name, kind: .operatorTestSend, [.format: .string(format)])
        let sentAt = world.now
        guard let p = Self.payload(format, payload, headers: headers) else { return record(sentAt, nil, "the payload is not toast, tile, badge or raw XML") }
        testHub.sendNotification(p, tagExpression: tagExpression) { [self] result in
            switch result {
            case .success(let outcome):
                timedTestSendResults.append((outcome.results.count, world.now))
                world.record(layer: "operator", host: Self.name, kind: .operatorTestResults,
                             [.results: .int(outcome.results.count), .success: .int(outcome.success), .failure: .int(outcome.failure)])
                record(sentAt, outcome.httpStatus, nil)
            case .failure(let e): record(sentAt, e.status, e.description)
            }
        }
    }

    private func record(_ sentAt: VirtualTime, _ status: Int?, _ failure: String?) {
        calls.append(AppCallRecord.make(operation: .send, sentAt: sentAt, completedAt: world.now, status: status, failure: failure))
    }

    /// A native send (`apple`, `fcmv1`, `windows`) of `payload` to `tagExpression`, or to everyone,
    /// with `headers` for the push service (`apns-priority`, `X-WNS-TTL`, …) passed on by the hub.
    public func send(format: String, payload: String, tagExpression: String?, headers: [(String, String)] = []) {
        world.record(layer: "operator", host: Self.name, kind: .operatorSend,
                     [.format: .string(format), .tags: .string(tagExpression ?? "(broadcast)")])
        let sentAt = world.now
        let completion: (Result<NotificationOutcome, HubError>) -> Void = { [self] result in
            let status: Int?
            let failure: String?
            switch result {
            case .success(let outcome):
                status = outcome.httpStatus
                failure = status == nil ? "the hub's answer had no status" : nil
            case .failure(let e):
                status = e.status
                // A sentence, not the error's dump: what was refused and why.
                failure = status == nil ? "the SDK refused the send before it reached the hub (\(e.kind.rawValue)): \(e.detail)" : nil
            }
            calls.append(AppCallRecord.make(operation: .send, sentAt: sentAt, completedAt: world.now, status: status, failure: failure))
            world.record(layer: "operator", host: Self.name, kind: .operatorResult,
                         [.result: .string(status.map(String.init) ?? "no HTTP answer")])
        }
        // XML that is not a toast, tile, badge or raw has no payload: the native send refuses it, as the SDK does.
        guard let p = Self.payload(format, payload, headers: headers) else {
            return hub.sendNativeNotification(format: format, payload: payload, tagExpression: tagExpression, completion)
        }
        hub.sendNotification(p, tagExpression: tagExpression, completion)
    }

    /// Adds a listing's count, answered now, to ``timedListings``.
    func appendListing(_ count: Int) { timedListings.append((count, world.now)) }

    /// Adds a finished call to ``calls``.
    func recordCall(_ call: AppCallRecord) { calls.append(call) }

    /// Answers 404: the operator only makes calls, nothing is meant to call it.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        world.respond(to: exchange, with: HTTPResponse(status: 404))
    }
}
