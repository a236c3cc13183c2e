import PushSimKernel
import PushSimNetwork

/// One accepted send, as the hub carries it to each target. A class: every copy in flight refers
/// to the one instance instead of carrying the payload and headers along.
final class HubNotification {
    let id: String
    /// `apple`, `fcmv1`, `windows` or `template`.
    let format: String
    /// The native platform; nil for a template send.
    let platform: RegistrationPlatform?
    let payload: [UInt8]
    /// PNS headers the sender gave (`apns-*`, `X-WNS-*`), forwarded as they are.
    let forwardedHeaders: [(String, String)]
    let acceptedAt: VirtualTime
    /// For fcmv1: the `message` members other than `token`, serialized once when the send is
    /// accepted (`"data":{…},…`), so each target costs one string join, not a parse.
    let fcmMessageTail: String?
    /// Template sends: the property bag.
    let properties: TemplateProperties?
    /// Test sends make one attempt per copy and report each outcome (§4.8).
    let isTest: Bool
    /// Where the hub keeps this notification's telemetry (``NotificationRecords``).
    let recordSlot: Int

    init(id: String, format: String, platform: RegistrationPlatform?, payload: [UInt8], forwardedHeaders: [(String, String)],
         acceptedAt: VirtualTime, fcmMessageTail: String?, properties: TemplateProperties?, isTest: Bool = false, recordSlot: Int) {
        self.id = id
        self.format = format
        self.platform = platform
        self.payload = payload
        self.forwardedHeaders = forwardedHeaders
        self.acceptedAt = acceptedAt
        self.fcmMessageTail = fcmMessageTail
        self.properties = properties
        self.isTest = isTest
        self.recordSlot = recordSlot
    }
}

/// A send request the hub has read and checked, not yet given an id (so that a scheduled send can
/// be checked now and fanned out later).
struct SendRequest {
    var format: String
    var platform: RegistrationPlatform?
    var expression: TagExpression?
    var payload: [UInt8]
    var forwarded: [(String, String)]
    var fcmMessageTail: String?
    var properties: TemplateProperties?

    var tagsText: String { expression.map { "\($0)" } ?? "(broadcast)" }
}

/// A refusal with its status and the `<Detail>` text.
struct HubRefusal: Error {
    var status: Int
    var detail: String
    var headers: [(String, String)] = []
}

extension NotificationHub {
    /// A notification not handed to its PNS within 30 minutes is dropped (NH-FIX, §4.9).
    static let handOffDeadline = VirtualDuration.minutes(30)
    /// First retry delay; doubled on each attempt (NH-FIX: exponential back-off when a PNS throttles).
    static let firstRetryDelay = VirtualDuration.seconds(1)
    /// Largest send body: 64 KB (NH-REST, 413).
    static let maxSendBody = 65_536

    /// `POST /<hub>/messages/`: a send to the registrations and installations matching
    /// `ServiceBusNotification-Tags` (everyone when absent). Answers with the notification id in
    /// `Location` (NH-REST; its query is the request's `api-version`, ``echoedAPIVersion(_:)``),
    /// then fans out. `?direct` sends to `ServiceBusNotification-DeviceHandle` instead
    /// (+DirectSend); `&test` makes it a test send (+TestSend).
    ///
    /// The status: the REST reference page of every native and template send says 200 "Message
    /// successfully sent" (e.g. https://learn.microsoft.com/en-us/rest/api/notificationhubs/send-apns-native-notification),
    /// but the service answers 201 Created: the .NET SDK's recordings of a live hub show 201
    /// (https://github.com/Azure/azure-notificationhubs-dotnet, `…Tests/MockData/SendNotificationAsync_*.http`),
    /// and the Java and JavaScript SDKs fail on anything else. The .NET SDK takes either. PushSim
    /// answers ``HubConfiguration/sendAcceptedStatus``, 201 unless set to 200 (``SendAcceptedStatus``
    /// has the sources).
    func send(_ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        let s: SendRequest
        switch readSend(request, direct: request.queryValue("direct") != nil) {
        case .failure(let r): return fail(r.status, r.detail, exchange, world, headers: r.headers)
        case .success(let read): s = read
        }
        if request.queryValue("direct") != nil { return directSend(s, request, exchange, world) }
        let isTest = request.queryValue("test") != nil
        if isTest, let refusal = takeTestSendQuota(world) { return fail(refusal.status, refusal.detail, exchange, world, headers: refusal.headers) }
        let targets = targets(native: s.platform, expression: s.expression, now: world.now)
        let n = accept(s, id: nextNotificationID(world), isTest: isTest, world: world)
        world.record(layer: "hub", host: Self.name, kind: .hubSendAccepted,
                     [.notification: .string(n.id), .format: .string(s.format), .tags: .string(s.tagsText), .targets: .int(targets.count)])
        if let p = s.properties {
            world.record(layer: "hub", host: Self.name, kind: .hubTemplateSend,
                         [.notification: .string(n.id), .properties: .string(p.pairs.map(\.name).joined(separator: ",")), .templates: .int(targets.count)])
        }
        if isTest { return testSend(n, targets, exchange, world) }
        respond(to: exchange, with: HTTPResponse(status: configuration.sendAcceptedStatus.rawValue, headers: [
            "Location": String.concatenating(hubURL, "/messages/", n.id, "?", Self.echoedAPIVersion(request))]), world)
        fanOut(n, targets, world: world)
    }

    /// Reads and checks a send request: format, size, tags, platform headers and body.
    func readSend(_ request: HTTPRequest, direct: Bool = false) -> Result<SendRequest, HubRefusal> {
        guard let format = request.headers["ServiceBusNotification-Format"] else {
            return .failure(HubRefusal(status: 400, detail: "The ServiceBusNotification-Format header is required."))
        }
        var platform: RegistrationPlatform?
        switch format {
        case "template" where !direct: platform = nil
        case "template": return .failure(HubRefusal(status: 400, detail: "A direct send needs a native format; templates apply to registrations and installations only."))
        case "gcm": return .failure(HubRefusal(status: 400, detail: "FCM legacy (gcm) notifications are no longer supported; send with the fcmv1 format."))
        case "windowsphone": return .failure(HubRefusal(status: 400, detail: "MPNS (windowsphone) notifications are no longer supported."))
        default:
            // A live platform's format (`apple`, `fcmv1`, `windows`), as its table row says.
            guard let native = RegistrationPlatform(sendFormat: format), !native.isRetired else {
                return .failure(HubRefusal(status: 400, detail: "Unknown ServiceBusNotification-Format '\(format)'."))
            }
            platform = native
        }
        guard request.body.count <= Self.maxSendBody else {
            return .failure(HubRefusal(status: 413, detail: "The notification body exceeds 64 KB."))
        }
        var expression: TagExpression?
        if let tags = request.headers["ServiceBusNotification-Tags"] {
            if direct { return .failure(HubRefusal(status: 400, detail: "A direct send takes no ServiceBusNotification-Tags.")) }
            switch TagExpressionParser.parse(tags) {
            case .failure(let e): return .failure(HubRefusal(status: 400, detail: "Invalid tag expression: \(e)"))
            case .success(let e): expression = e
            }
        }
        // The payload is validated once per send, not once per target, by its service's adapter.
        var fcmMessageTail: String?
        var derived: [(String, String)] = []
        if let adapter = platform?.traits.adapter {
            switch adapter.readNativeSend(request, hub: self) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let tail): fcmMessageTail = tail
            }
            switch adapter.derivedHeaders(request) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let headers): derived = headers
            }
        }
        var properties: TemplateProperties?
        if platform == nil {
            guard let members = (try? JSONParser.parse(request.body))?.objectMembers,
                  members.allSatisfy({ $0.1.stringValue != nil || $0.1.numberValue != nil || $0.1.boolValue != nil }) else {
                return .failure(HubRefusal(status: 400, detail: "A template notification's body must be a flat JSON object of string properties."))
            }
            properties = TemplateProperties(members.map { ($0.0, $0.1.stringValue ?? "\($0.1)") })
        }
        var forwarded: [(String, String)] = []
        for field in request.headers where Self.isForwardedToPNS(field.name) { forwarded.append((field.name, field.value)) }
        // What the service's adapter made of the send's own headers; one the send gives itself wins.
        for (name, value) in derived where !forwarded.contains(where: { sameFieldName($0.0, name) }) { forwarded.append((name, value)) }
        return .success(SendRequest(format: format, platform: platform, expression: expression, payload: request.body,
                                    forwarded: forwarded, fcmMessageTail: fcmMessageTail, properties: properties))
    }

    /// The 400 detail for a native payload the hub cannot read (the wording of .NET SDK issue #194).
    static let invalidPayload = "The supplied notification payload is invalid."

    /// Whether `body` is one JSON object (what APNs takes as a payload).
    static func isJSONObject(_ body: [UInt8]) -> Bool {
        guard let json = try? JSONParser.parse(body) else { return false }
        return json.objectMembers != nil
    }

    /// The prefixes of the headers a send passes on to a PNS: each push service's
    /// ``PushServiceDescriptor/hubHeaderPrefix`` (`apns-`, `x-wns-`; NH-REST).
    static let forwardedHeaders = HeaderPrefixesFastPath(PushServiceDescriptor.all.compactMap(\.hubHeaderPrefix))

    /// Whether a send's header goes on to the PNS: its name starts with one of the push services'
    /// prefixes, in any case.
    static func isForwardedToPNS(_ name: String) -> Bool { forwardedHeaders.matches(name) }

    /// A new notification id in the live hub's form (``NotificationID``; also the id of a scheduled send).
    func nextNotificationID(_ world: World) -> String {
        NotificationID.make(at: world.now, anchor: world.anchor, random: &notificationIDRandom)
    }

    /// Gives a checked request its id and telemetry record (state `Enqueued`).
    func accept(_ s: SendRequest, id: String, isTest: Bool = false, world: World) -> HubNotification {
        // A scheduled send has had its record since it was scheduled.
        let slot = records.slot(of: id) ?? records.add(NotificationRecord(id: id, state: .enqueued, body: String(decoding: s.payload, as: UTF8.self),
                                                                          tags: s.expression.map { "\($0)" }))
        records[slot: slot].state = .enqueued
        records[slot: slot].enqueuedAt = world.now
        return HubNotification(id: id, format: s.format, platform: s.platform, payload: s.payload, forwardedHeaders: s.forwarded,
                               acceptedAt: world.now, fcmMessageTail: s.fcmMessageTail, properties: s.properties, isTest: isTest,
                               recordSlot: slot)
    }

    /// Hands one copy to each target, as PNS streams free up (see ``PNSStreams``);
    /// `NoTargetFound` when there is none.
    func fanOut(_ n: HubNotification, _ targets: SendTargets, world: World) {
        beginCopies(n, targets, world: world)
        if targets.isEmpty {
            world.record(layer: "hub", host: Self.name, kind: .hubNoTarget, [.notification: .string(n.id)])
            return
        }
        streams.enqueue(.fanOut(FanOutCursor(n, targets)))
        sendWaitingCopies(world: world)
    }

    /// Sends another attempt of one copy when a stream is free (retries wait behind earlier copies).
    func resend(_ n: HubNotification, to t: SendTarget, attempt: Int, renewed: Bool, world: World) {
        streams.enqueue(.copy(PNSStreams.Copy(notification: n, target: t, attempt: attempt, renewed: renewed)))
        sendWaitingCopies(world: world)
    }

    /// Starts waiting copies while streams are free.
    func sendWaitingCopies(world: World) {
        while let c = streams.takeNext() { dispatch(c, world: world) }
    }

    /// Hands one copy to the PNS of its target, on a stream already taken. `renewed` is true once
    /// the hub has renewed its credentials for this notification (it does so at most once).
    private func dispatch(_ c: consuming PNSStreams.Copy, world: World) {
        switch preparePNSRequest(c.notification, c.target, world: world) {
        case .ready(let built): send(c, built, world: world)
        case .needsAccessToken(let copy):
            fetchAccessToken(for: copy, c.notification, c.target, world: world) { [self, c = copy c] built in send(c, built, world: world) }
        }
    }

    /// Sends one copy's built request, or acts on why it could not be built. The copy and the
    /// request move on into the stream table and the call (a fan-out sends a million).
    private func send(_ c: consuming PNSStreams.Copy, _ built: consuming Result<HTTPRequest, PNSRequestProblem>, world: World) {
        switch consume built {
        case .failure(let problem):
            streams.release()
            // A token endpoint that cannot be reached is an outage like the PNS's own: retry.
            if problem.retryable {
                retry(c.notification, c.target, attempt: c.attempt, renewed: c.renewed, reason: problem.reason, outcome: problem.outcome,
                      after: nil, world: world)
            } else {
                drop(c.notification, c.target, reason: problem.reason, outcome: problem.outcome, world: world)
            }
            sendWaitingCopies(world: world)
        case .success(let request):
            if world.isTracing(.hubPNSRequest) {
                let (n, t) = (c.notification, c.target)
                var fields = [TraceEvent.Field(.notification, .string(n.id)), TraceEvent.Field(.registration, .string(t.label)),
                              TraceEvent.Field(.pns, .string(request.authority)), TraceEvent.Field(.handle, .string(handleLabel(t.handle))),
                              TraceEvent.Field(.attempt, .int(Int64(c.attempt)))]
                if let template = t.template { fields.append(TraceEvent.Field(.template, .string(template.name ?? "(unnamed)"))) }
                world.record(layer: "hub", host: Self.name, kind: .hubPNSRequest, fields: fields)
            }
            world.call(request, from: Self.name, replyTo: self, tag: streams.sent(c))
        }
    }

    /// A PNS answered a copy (or the call failed): frees its stream and acts on the answer.
    public func receive(_ result: CallResult, tag: UInt64, world: World) {
        let c = streams.answered(tag)
        streams.release()
        handlePNSResult(result, c.notification, c.target, attempt: c.attempt, renewed: c.renewed, world: world)
        sendWaitingCopies(world: world)
    }
}
