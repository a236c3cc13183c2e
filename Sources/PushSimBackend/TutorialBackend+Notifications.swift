import PushSimKernel
import PushSimNetwork
import PushSimHub

extension TutorialBackend {
    /// `POST api/notifications?pns=&to_tag=` with the message as a JSON string body.
    func notify(pns: String?, toTag: String?, body: [UInt8], user: String, _ reply: Reply) {
        // `[FromBody] string message`: a body that is not a JSON string binds to null, and
        // "From " + user + ": " + null is "From <user>: ".
        let message = Self.bindString(body)
        guard let pns else { return reply.exception("NullReferenceException: pns is null (pns.ToLower())") }
        // The tag list means OR: the sender's own `from:` devices are targets too (defect g).
        // (Each string is written in one piece: `+` would make one string per step, per send.)
        let tags = [String.concatenating("username:", toTag ?? ""), String.concatenating("from:", user)]
        let text = String.concatenating("From ", user, ": ", message ?? "")
        let completion: (Result<NotificationOutcome, HubError>) -> Void = { result in
            switch result {
            case .success(let outcome):
                // 200 unless the outcome is Abandoned or Unknown.
                reply.status(outcome.state == .abandoned || outcome.state == .unknown ? 500 : 200)
            case .failure(let e):
                reply.exception("\(e.kind.rawValue) from Send…NativeNotificationAsync: \(e.detail)")
            }
        }
        // Payloads are built by concatenation, without escaping (defect d).
        switch pns.lowercased() {
        case "wns":
            let toast = String.concatenating("<toast><visual><binding template=\"ToastText01\"><text id=\"1\">", text,
                                             "</text></binding></visual></toast>")
            hub.sendWindowsNativeNotification(toast, tags: tags, completion)
        case "apns":
            let alert = String.concatenating("{\"aps\":{\"alert\":\"", text, "\"}}")
            hub.sendAppleNativeNotification(alert, tags: tags, completion)
        case "fcm":
            let notif = String.concatenating("{\"message\":{ \"data\" : {\"message\":\"", text, "\"}}}")
            hub.sendFcmV1NativeNotification(notif, tags: tags, completion)
        default:
            // No case matches (`gcm` from the iOS app's GCM switch): outcome stays null, 500 (defect b).
            reply.world.record(layer: "backend", host: Self.name, kind: .backendUnknownPNS, [.pns: .string(pns), .defect: "b"])
            reply.status(500)
        }
    }

    /// Web API's binding of a JSON body to `string`: a JSON string gives its value, a number or
    /// boolean its text, anything else (invalid JSON, objects, null) gives null.
    static func bindString(_ body: [UInt8]) -> String? {
        guard let json = try? JSONParser.parse(body) else { return nil }
        switch json {
        case .string(let s): return s
        case .number(let n): return n.text
        case .bool(let b): return b ? "True" : "False"
        default: return nil
        }
    }
}

/// The answer to one backend request.
struct Reply {
    let world: World
    let exchange: Exchange

    func status(_ code: Int) {
        world.respond(to: exchange, with: HTTPResponse(status: code))
    }

    /// The registration id as Web API serialises a returned string: a JSON string.
    func json(id: String) {
        var body = ""
        appendJSONString(id, to: &body)
        world.respond(to: exchange, with: HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], text: body))
    }

    /// An unhandled exception: Web API answers 500.
    func exception(_ what: String, defect: String? = nil) {
        if let defect {
            world.record(layer: "backend", host: TutorialBackend.name, kind: .backendException, [.exception: .string(what), .defect: .string(defect)])
        } else {
            world.record(layer: "backend", host: TutorialBackend.name, kind: .backendException, [.exception: .string(what)])
        }
        world.respond(to: exchange, with: HTTPResponse(status: 500, headers: ["Content-Type": "application/json; charset=utf-8"],
                                                       text: unhandledExceptionBody))
    }
}
