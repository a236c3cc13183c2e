import PushSimKernel
import PushSimNetwork

/// Direct sends: the hub as a pass-through to a PNS, no registration needed (Citations §4.6;
/// NH-REST "Direct Send", "Direct Batch Send"; NH-DOTNET `SendDirectNotificationAsync`).
///
/// | request | success | errors |
/// |---|---|---|
/// | `POST /{hub}/messages/?direct` + `ServiceBusNotification-DeviceHandle` | 201, id in `Location` | 400 no handle, template format, tags given |
/// | the same to a browser (format `browser`) + `P256DH` and `Auth` | 201 | 400 keys missing or unusable (PushSim's wording) |
/// | `POST /{hub}/messages/$batch?direct`, `multipart/mixed` (`notification` + `devices` parts) | 201, id in `Location` | 400 malformed body, 0 or more than 1000 handles |
///
/// Both answer 201 whatever ``HubConfiguration/sendAcceptedStatus`` says: the Direct send page lists 201
/// for success (https://learn.microsoft.com/en-us/rest/api/notificationhubs/direct-send), the .NET SDK's
/// recordings of a live hub show 201 for both, and its batch direct send accepts nothing else.
///
/// The batch body is the SDK's own multipart (see ``MultipartBody``): the `notification` part
/// holds the payload (its Content-Type is the payload's), the `devices` part a JSON array of
/// handles; the format and platform headers (`ServiceBusNotification-Format`, `X-WNS-Type`,
/// `apns-*`) are on the request itself. Each handle is one copy, in list order; a handle the PNS
/// reports dead gives a feedback record and `ExpiredChannel`/`BadChannel` telemetry, and nothing
/// to delete.
extension NotificationHub {
    /// Most handles in one batch (NH-REST).
    static let maxBatchHandles = 1_000

    func directSend(_ s: SendRequest, _ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        guard let handle = request.headers["ServiceBusNotification-DeviceHandle"], !handle.isEmpty else {
            return fail(400, "A direct send needs the ServiceBusNotification-DeviceHandle header.", exchange, world)
        }
        var target = handle
        if s.platform?.handleIsSubscription == true {
            // A browser: the endpoint, with the subscription's keys in `P256DH` and `Auth` (NH-BROWSER).
            guard let p256dh = request.headers["P256DH"], let auth = request.headers["Auth"] else {
                return fail(400, "A direct send to a browser needs the P256DH and Auth headers.", exchange, world)
            }
            do {
                target = try BrowserPushChannel(endpoint: handle, p256dh: p256dh, auth: auth).pnsHandle
            } catch {
                return fail(400, error.description, exchange, world)
            }
        }
        directSend(s, handles: [target], batch: false, isTest: request.queryValue("test") != nil, request, exchange, world)
    }

    func batchDirectSend(_ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        guard request.queryValue("direct") != nil else {
            return fail(400, "A $batch send must be a direct send (?direct).", exchange, world)
        }
        guard let body = MultipartBody.parse(request.body, contentType: request.headers["Content-Type"]),
              let notification = body.parts.first(where: { $0.name == "notification" }),
              let devices = body.parts.first(where: { $0.name == "devices" }) else {
            return fail(400, "A direct batch send needs a multipart/mixed body with a 'notification' and a 'devices' part.", exchange, world)
        }
        guard let list = (try? JSONParser.parse(devices.body))?.arrayValue, list.allSatisfy({ $0.stringValue?.isEmpty == false }) else {
            return fail(400, "The 'devices' part must be a JSON array of device handles.", exchange, world)
        }
        guard !list.isEmpty, list.count <= Self.maxBatchHandles else {
            return fail(400, "A direct batch send takes 1 to \(Self.maxBatchHandles) device handles; \(list.count) were given.", exchange, world)
        }
        // Read the notification part as if it were a plain direct send's body.
        var inner = request
        inner.body = notification.body
        let s: SendRequest
        switch readSend(inner, direct: true) {
        case .failure(let r): return fail(r.status, r.detail, exchange, world, headers: r.headers)
        case .success(let read): s = read
        }
        directSend(s, handles: list.compactMap(\.stringValue), batch: true, isTest: request.queryValue("test") != nil, request, exchange, world)
    }

    private func directSend(_ s: SendRequest, handles: [String], batch: Bool, isTest: Bool, _ request: HTTPRequest,
                            _ exchange: Exchange, _ world: World) {
        if isTest, let refusal = takeTestSendQuota(world) { return fail(refusal.status, refusal.detail, exchange, world, headers: refusal.headers) }
        guard let platform = s.platform else { return fail(400, "A direct send needs a native format.", exchange, world) }
        let n = accept(s, id: nextNotificationID(world), isTest: isTest, world: world)
        var targets: [SendTarget] = []
        for (k, handle) in handles.enumerated() {
            targets.append(SendTarget(owner: .direct, label: "direct:\(k + 1)", platform: platform, handle: handle, template: nil,
                                      updatedAt: world.now, ordinal: k))
        }
        world.record(layer: "hub", host: Self.name, kind: .hubSendAccepted,
                     [.notification: .string(n.id), .format: .string(s.format), .tags: "(direct)", .targets: .int(targets.count)])
        world.record(layer: "hub", host: Self.name, kind: .hubDirectSend,
                     [.notification: .string(n.id), .handles: .int(targets.count), .batch: .bool(batch)])
        if isTest { return testSend(n, SendTargets(targets), exchange, world) }
        respond(to: exchange, with: HTTPResponse(status: 201, headers: [
            "Location": String.concatenating(hubURL, "/messages/", n.id, "?", Self.echoedAPIVersion(request))]), world)
        fanOut(n, SendTargets(targets), world: world)
    }
}
