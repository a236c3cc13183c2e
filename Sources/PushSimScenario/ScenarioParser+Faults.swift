import PushSimKernel
import PushSimNetwork
import PushSimServices

/// `fault apns|fcm|wns outage|throttle|internal-error|slow <duration> from <time> to <time>
/// [retry-after <duration>] [probability <ratio>]`: an injected service fault as data.
extension ScenarioParser.Session {
    static let faultUsage = "write fault apns|fcm|wns outage|throttle|internal-error|slow <duration> from <time> to <time> "
        + "[retry-after <duration>] [probability <n>/<d>]"

    mutating func faultStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = Self.faultUsage
        let service = try t.word("a push service: apns, fcm or wns", hint: usage)
        guard PushServiceDescriptor.named(service.text) != nil else {
            throw ScenarioDiagnostic(location: t.location(service), message: "unknown push service \(service.quoted)", hint: usage)
        }
        let kind = try t.word("a fault: outage, throttle, internal-error or slow", hint: usage)
        guard ["outage", "throttle", "internal-error", "slow"].contains(kind.text) else {
            throw ScenarioDiagnostic(location: t.location(kind), message: "unknown fault \(kind.quoted)",
                                     hint: "faults are outage, throttle, internal-error, slow <duration>")
        }
        var slowBy: VirtualDuration?
        if kind.text == "slow" { slowBy = try t.duration() }
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
        var retryAfter = VirtualDuration.seconds(30)
        var probability = Ratio.always
        while let option = t.peek, option.isWord("retry-after") || option.isWord("probability") {
            _ = t.next()
            if option.text == "retry-after" { retryAfter = try t.duration() } else { probability = try t.ratio() }
        }
        try t.finish(hint: usage)
        let effect: ServiceFault.Effect
        switch kind.text {
        case "outage": effect = .outage(retryAfter: retryAfter)
        case "throttle": effect = .throttle(retryAfter: retryAfter)
        case "slow": effect = .slow(slowBy ?? .zero)
        default: effect = .internalError
        }
        settings.append(.fault(service: service.text, ServiceFault(effect: effect, from: from, to: to, probability: probability)))
    }
}
