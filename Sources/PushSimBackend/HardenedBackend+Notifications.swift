import PushSimKernel
import PushSimNetwork
import PushSimHub

extension HardenedBackend {
    /// `POST api/notifications?pns=&to_tag=` with the message as a JSON string body.
    func notify(pns: String?, toTag: String?, body: [UInt8], user: String, _ reply: HardenedReply) {
        guard let service = pns.flatMap(Self.platform(named:))?.service else {
            return reply.error(400, "pns must be \(Self.serviceNames(oldNames: true))")
        }
        guard let to = toTag, !to.isEmpty, TagRules.isValid("username:" + to) else {
            return reply.error(400, "to_tag must name a user (letters, digits and _ @ # . -)")
        }
        guard let json = try? JSONParser.parse(body), case .string(let message) = json else {
            return reply.error(400, "the body must be the message as a JSON string, e.g. \"Hello\"")
        }
        let text = "From \(user): \(message)"
        let tags = ["username:" + to]   // the recipient only (the tutorial also targeted from:<sender>: defect g)
        let completion: (Result<NotificationOutcome, HubError>) -> Void = { result in
            switch result {
            case .success(let outcome) where outcome.state != .abandoned && outcome.state != .unknown:
                reply.world.respond(to: reply.exchange, with: HTTPResponse(status: 200))
            case .success(let outcome): reply.error(502, "the hub gave the outcome \(outcome.state.rawValue)")
            case .failure(let e): reply.hubFailure(e)
            }
        }
        // Payloads come from encoders, so any message text stays text (the tutorial concatenated: defect d).
        hub.sendNativeNotification(format: service.hubFormat, payload: service.textMessage.payload(text),
                                   tagExpression: TagExpressionParser.orList(tags), completion)
    }
}
