import PushSimKernel
import PushSimNetwork
import PushSimServices

/// `fault apns|fcm|wns|hub <kind> [<delay>] from <time> to <time> [retry-after <duration>]
/// [probability <n>/<d>] [count <n>] [token <t> | device <name> | app <id> | fid <fid>]`: an injected service
/// fault as data, read into ``FaultWords`` (the same words `pushsim serve`'s control API takes).
/// Kinds: `outage`, `throttle`, `internal-error`, `slow <delay>`, `lost-answer`, and each
/// service's token states (APNs `BadDeviceToken`, `Unregistered`, `DeviceTokenNotForTopic`; FCM
/// `UNREGISTERED`, `SENDER_ID_MISMATCH`; WNS `channel-expired`), which need a token, device or app.
/// `fid` (FCM only) names a Firebase installation: the fault hits sends to its FID and to the
/// tokens issued for it.
/// `hub` is the notification hub itself: the first five kinds, no token, device or app.
extension ScenarioParser.Session {
    static let faultUsage = "write fault apns|fcm|wns|hub <kind> [<delay>] from <time> to <time> [retry-after <duration>] "
        + "[probability <n>/<d>] [count <n>] [token <t> | device <name> | app <id> | fid <fid>]"

    mutating func faultStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = Self.faultUsage
        let service = try t.word("a push service: " + FaultWords.services.joined(separator: ", "), hint: usage)
        guard let kinds = FaultWords.kinds(for: service.text) else {
            throw ScenarioDiagnostic(location: t.location(service), message: "unknown push service \(service.quoted)", hint: usage)
        }
        let kind = try t.word("a fault: " + kinds.joined(separator: ", "), hint: usage)
        guard kinds.contains(kind.text) else {
            throw ScenarioDiagnostic(location: t.location(kind), message: "unknown fault \(kind.quoted)",
                                     hint: "the faults of \(service.text) are " + kinds.joined(separator: ", "))
        }
        var words = FaultWords(service: service.text, kind: kind.text)
        if kind.text == "slow" { words.delay = try t.duration() }
        try t.keyword("from", hint: usage)
        let (fromSpec, fromToken) = try t.time()
        try t.keyword("to", hint: usage)
        let (toSpec, toToken) = try t.time()
        guard case .absolute(let from) = fromSpec, case .absolute(let to) = toSpec else {
            throw ScenarioDiagnostic(location: t.location(fromToken), message: "fault windows are absolute times",
                                     hint: "write the virtual time since the start, e.g. from 10s to 40s")
        }
        guard from < to else {
            throw ScenarioDiagnostic(location: t.location(toToken), message: "the fault ends at \(toToken.text), not after it starts",
                                     hint: "from must come before to")
        }
        let options = ["retry-after", "probability", "count", "token", "device", "app", "fid"]
        var scopeToken: ScenarioToken?
        while let option = t.peek, options.contains(where: { option.isWord($0) }) {
            _ = t.next()
            switch option.text {
            case "retry-after": words.retryAfter = try t.duration()
            case "probability": words.probability = try t.ratio()
            case "count":
                let (n, token): (Int, ScenarioToken) = try t.number("a count of requests")
                guard n >= 1 else {
                    throw ScenarioDiagnostic(location: t.location(token), message: "a fault's count is at least 1", hint: usage)
                }
                words.count = n
            default:
                guard words.scope == .service else {
                    throw ScenarioDiagnostic(location: t.location(option), message: "a fault is about one token, device, app or fid, not two",
                                             hint: usage)
                }
                scopeToken = option
                let value = try t.text("the \(option.text) the fault is about", hint: usage)
                switch option.text {
                case "token": words.scope = .token(value.text)
                case "device": words.scope = .device(value.text)
                case "fid": words.scope = .fid(value.text)
                default: words.scope = .app(value.text)
                }
            }
        }
        try t.finish(hint: usage)
        if let problem = words.problem {
            let at = problem.part == .scope ? scopeToken ?? kind : kind
            throw ScenarioDiagnostic(location: t.location(at), message: problem.message, hint: usage)
        }
        guard let fault = words.fault(window: from..<to) else { return }
        settings.append(.fault(service: service.text, fault))
    }
}
