import PushSimKernel
import PushSimNetwork

/// One accepted send, as the hub carries it to each matching registration.
struct HubNotification {
    var id: String
    var platform: RegistrationPlatform
    var payload: [UInt8]
    /// PNS headers the sender gave (`apns-*`, `X-WNS-*`), forwarded as they are.
    var forwardedHeaders: [(String, String)]
    var acceptedAt: VirtualTime
    /// For fcmv1: the `message` members other than `token`, serialized once when the send is
    /// accepted (`"data":{…},…`), so each target costs one string join, not a parse.
    var fcmMessageTail: String?
}

extension NotificationHub {
    /// A notification not handed to its PNS within 30 minutes is dropped (NH-FIX, §4.9).
    static let handOffDeadline = VirtualDuration.minutes(30)
    /// First retry delay; doubled on each attempt (NH-FIX: exponential back-off when a PNS throttles).
    static let firstRetryDelay = VirtualDuration.seconds(1)
    /// Largest send body: 64 KB (NH-REST, 413).
    static let maxSendBody = 65_536

    /// `POST /<hub>/messages/`: native send to the registrations matching `ServiceBusNotification-Tags`
    /// (all of the format's platform when absent). Answers 201 with the notification id in
    /// `Location` (NH-REST), then fans out.
    func send(_ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        guard let format = request.headers["ServiceBusNotification-Format"] else {
            return fail(400, "The ServiceBusNotification-Format header is required.", exchange, world)
        }
        let platform: RegistrationPlatform
        switch format {
        case "apple": platform = .apple
        case "fcmv1": platform = .fcmV1
        case "windows": platform = .windows
        case "gcm": return fail(400, "FCM legacy (gcm) notifications are no longer supported; send with the fcmv1 format.", exchange, world)
        case "windowsphone": return fail(400, "MPNS (windowsphone) notifications are no longer supported.", exchange, world)
        case "template": return fail(400, "Template sends are not modelled by this PushSim version.", exchange, world)
        default: return fail(400, "Unknown ServiceBusNotification-Format '\(format)'.", exchange, world)
        }
        guard request.body.count <= Self.maxSendBody else {
            return fail(413, "The notification body exceeds 64 KB.", exchange, world)
        }
        var expression: TagExpression?
        if let tags = request.headers["ServiceBusNotification-Tags"] {
            switch TagExpressionParser.parse(tags) {
            case .failure(let e): return fail(400, "Invalid tag expression: \(e)", exchange, world)
            case .success(let e): expression = e
            }
        }
        if platform == .windows && request.headers["X-WNS-Type"] == nil {
            return fail(400, "The X-WNS-Type header is required for windows notifications.", exchange, world)
        }
        // The payload is validated once per send, not once per target.
        var fcmMessageTail: String?
        if platform == .fcmV1 {
            guard let json = try? JSONParser.parse(request.body), let members = json["message"]?.objectMembers else {
                return fail(400, "The fcmv1 payload must be a JSON object with a \"message\" object.", exchange, world)
            }
            fcmMessageTail = String(JSONValue.object(members.filter { $0.0 != "token" }).serialized().dropFirst().dropLast())
        }
        notificationCounter += 1
        let id = "ntf-" + String(repeating: "0", count: max(0, 6 - String(notificationCounter).count)) + String(notificationCounter)
        let forwarded = request.headers.fields
            .filter { $0.name.lowercased().hasPrefix("apns-") || $0.name.lowercased().hasPrefix("x-wns-") }
            .map { ($0.name, $0.value) }
        let notification = HubNotification(id: id, platform: platform, payload: request.body, forwardedHeaders: forwarded,
                                           acceptedAt: world.now, fcmMessageTail: fcmMessageTail)
        let targets = store.matching(expression, platform: platform, now: world.now)
        world.record(layer: "hub", host: Self.name, kind: "hub.send-accepted",
                     ["notification": id, "format": format, "tags": expression.map { "\($0)" } ?? "(broadcast)", "targets": targets.count])
        world.respond(to: exchange, with: HTTPResponse(status: 201, headers: [
            "Location": "\(hubURL)/messages/\(id)?api-version=\(Self.apiVersion)"]))
        if targets.isEmpty {
            world.record(layer: "hub", host: Self.name, kind: "hub.no-target", ["notification": id])
        }
        for r in targets { dispatch(notification, to: r, attempt: 1, world: world) }
    }

    /// Hands one notification to the PNS of one registration. `renewed` is true once the hub has
    /// renewed its credentials for this notification (it does so at most once).
    func dispatch(_ n: HubNotification, to r: StoredRegistration, attempt: Int, renewed: Bool = false, world: World) {
        let key = "\(n.id)/\(r.id)"
        inFlight[key] = "notification \(n.id) for registration \(r.id) not yet accepted by its PNS (attempt \(attempt))"
        withPNSRequest(n, r, world: world) { [self] built in
            guard case .success(let request) = built else {
                inFlight[key] = nil
                if case .failure(let problem) = built {
                    // A token endpoint that cannot be reached is an outage like the PNS's own: retry.
                    if problem.retryable {
                        retry(n, r, attempt: attempt, renewed: renewed, reason: problem.reason, after: nil, world: world)
                    } else {
                        drop(n, r, reason: problem.reason, world: world)
                    }
                }
                return
            }
            world.record(layer: "hub", host: Self.name, kind: "hub.pns-request",
                         ["notification": n.id, "registration": r.id, "pns": request.authority, "handle": handleLabel(r.handle),
                          "attempt": attempt])
            world.call(request, from: Self.name) { [self] result in
                inFlight[key] = nil
                handlePNSResult(result, n, r, attempt: attempt, renewed: renewed, world: world)
            }
        }
    }

    /// Builds the PNS request (fetching an access token first when needed), or says why it cannot.
    private func withPNSRequest(_ n: HubNotification, _ r: StoredRegistration, world: World,
                                then: @escaping (Result<HTTPRequest, PNSRequestProblem>) -> Void) {
        let noCredentials = PNSRequestProblem(reason: "the hub has no \(r.platform.rawValue) credentials")
        switch r.platform {
        case .apple:
            guard let c = configuration.apns else { return then(.failure(noCredentials)) }
            var headers = HTTPHeaders([("authorization", "bearer " + pnsTokens.apnsToken(c, world: world)), ("apns-topic", c.bundleID)])
            if !n.forwardedHeaders.contains(where: { $0.0.lowercased() == "apns-push-type" }) { headers.add("apns-push-type", "alert") }
            for (k, v) in n.forwardedHeaders { headers.add(k.lowercased(), v) }
            then(.success(HTTPRequest(method: "POST", authority: c.endpoint, path: "/3/device/\(r.handle.lowercased())",
                                      headers: headers, body: n.payload)))
        case .fcmV1:
            guard let c = configuration.fcm else { return then(.failure(noCredentials)) }
            PNSAccessTokenCache.fcmToken(self, c, world: world) { answer in
                guard let token = PNSRequestProblem.token(answer, then) else { return }
                guard let tail = n.fcmMessageTail else {
                    return then(.failure(PNSRequestProblem(reason: "the fcmv1 payload has no message object")))
                }
                // The hub puts the registration's token into the message (the sender leaves it out).
                var body = "{\"message\":{\"token\":"
                appendJSONString(r.handle, to: &body)
                body += (tail.isEmpty ? "" : ",") + tail + "}}"
                then(.success(HTTPRequest(method: "POST", authority: "fcm.googleapis.com", path: "/v1/projects/\(c.projectID)/messages:send",
                                          headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"], body: Array(body.utf8))))
            }
        case .windows:
            guard let c = configuration.wns else { return then(.failure(noCredentials)) }
            PNSAccessTokenCache.wnsToken(self, c, world: world) { answer in
                guard let token = PNSRequestProblem.token(answer, then) else { return }
                let type = n.forwardedHeaders.first(where: { $0.0.lowercased() == "x-wns-type" })?.1 ?? "wns/toast"
                var headers = HTTPHeaders([("Authorization", "Bearer \(token)"),
                                           ("Content-Type", type == "wns/raw" ? "application/octet-stream" : "text/xml")])
                for (k, v) in n.forwardedHeaders { headers.add(k, v) }
                guard let request = HTTPRequest(method: "POST", url: r.handle, headers: headers, body: n.payload) else {
                    return then(.failure(PNSRequestProblem(reason: "the channel URI is not an absolute URL")))
                }
                then(.success(request))
            }
        case .gcm, .mpns:
            then(.failure(PNSRequestProblem(reason: "\(r.platform.rawValue) is retired")))
        }
    }
}

/// Why the hub could not build a request for a PNS; `retryable` when it may work later
/// (the token endpoint could not be reached).
struct PNSRequestProblem: Error {
    var reason: String
    var retryable = false

    /// The token in `answer`, or nil after passing the matching problem to `then`.
    static func token(_ answer: PNSAccessTokenCache.Answer,
                      _ then: (Result<HTTPRequest, PNSRequestProblem>) -> Void) -> String? {
        switch answer {
        case .token(let t): return t
        case .refused(let why): then(.failure(PNSRequestProblem(reason: why)))
        case .unavailable(let why): then(.failure(PNSRequestProblem(reason: why, retryable: true)))
        }
        return nil
    }
}
