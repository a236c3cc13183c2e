import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimHub
import PushSimScenario

/// Faults at run time: `POST`, `GET` and `DELETE` on `/_pushsim/faults`. A fault posted here is
/// read by ``PushSimScenario/FaultWords`` into the same ``PushSimNetwork/ServiceFault`` a
/// scenario's `fault` statement makes, and injected into the same fake (or the hub), so it gets the same
/// answers; it is labelled as injected in the trace and the journal (`"injected"`), and the
/// `--record` file holds the request that made it, so `pushsim replay` makes it again.
///
/// ```json
/// POST /_pushsim/faults {"service":"apns","kind":"outage","for":"30s"}
/// 201 {"id":"f1","service":"apns","kind":"outage","does":"503 ServiceUnavailable", …}
/// ```
///
/// Members: `service` (apns, fcm, wns, or hub: the notification hub itself), `kind` (outage,
/// throttle, internal-error, slow, lost-answer, or a token state: APNs BadDeviceToken,
/// Unregistered, DeviceTokenNotForTopic; FCM UNREGISTERED, SENDER_ID_MISMATCH; WNS
/// channel-expired), `for` (a virtual duration; default: until deleted), `count` (at most this
/// many requests), `token`, `device`, `app` or `fid` (the scope; default the whole service; never for
/// the hub; `fid`, a Firebase installation ID, for FCM only), `probability` (`"1/4"` or 0.25), `retryAfter` (outage and throttle; default 30s),
/// `delay` (slow).
extension ControlAPI {
    static let faultMembers = ["service", "kind", "for", "count", "token", "device", "app", "fid", "probability", "retryAfter", "delay"]
    /// The longest a fault may last: ten years of virtual time, the world's own time limit.
    static let longestFault = VirtualDuration.days(3_650)

    func faults(_ request: WireRequest, id: String?) -> HTTPResponse {
        switch (request.method, id) {
        case ("POST", nil): return injectFault(request)
        case ("GET", nil): return ServerAnswer.json(200, .object(["clock": state.clockJSON(), "faults": .array(activeFaults())]))
        case ("DELETE", nil):
            var ended = 0
            for holder in state.simulation.faultHolders {
                ended += holder.faults.count { $0.isActive(at: state.world.now) }
                holder.faults = []
            }
            return ServerAnswer.json(200, .object(["ended": .number(JSONNumber(Int64(ended)))]))
        case ("DELETE", let id?):
            for holder in state.simulation.faultHolders {
                if let i = holder.faults.firstIndex(where: { $0.id == id }) {
                    let fault = holder.faults.remove(at: i)
                    return ServerAnswer.json(200, .object(["ended": faultJSON(fault, of: holder)]))
                }
            }
            return ServerAnswer.error(404, "No fault '\(id)'; GET /_pushsim/faults lists them.")
        default:
            return ServerAnswer.error(405, "\(request.method) is not allowed on \(request.path): POST or GET /_pushsim/faults, "
                + "DELETE /_pushsim/faults[/{id}].")
        }
    }

    private func injectFault(_ request: WireRequest) -> HTTPResponse {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return refusal.response
        case .success(let b): body = b
        }
        for (name, _) in body.objectMembers ?? [] where !Self.faultMembers.contains(name) {
            return ServerAnswer.error(400, "Unknown member \"\(name)\"; a fault takes " + Self.faultMembers.joined(separator: ", ") + ".")
        }
        func text(_ name: String) -> Result<String?, ControlRefusal> {
            guard let v = body[name] else { return .success(nil) }
            guard let s = v.stringValue else { return .failure(Self.refusal(name, "a string")) }
            return .success(s)
        }
        func duration(_ name: String) -> Result<VirtualDuration?, ControlRefusal> {
            text(name).flatMap { t in
                guard let t else { return .success(nil) }
                guard let d = VirtualDuration.parse(Substring(t)), d.microseconds > 0, d <= Self.longestFault else {
                    return .failure(Self.refusal(name, "a duration from 1us to 3650d, e.g. 500ms, 30s, 2h"))
                }
                return .success(d)
            }
        }
        do throws(ControlRefusal) {
            guard let service = try text("service").get() else {
                return ServerAnswer.error(400, "A fault needs a \"service\": " + FaultWords.services.joined(separator: ", ") + ".")
            }
            guard let kind = try text("kind").get() else {
                let kinds = FaultWords.kinds(for: service) ?? FaultWords.commonKinds
                return ServerAnswer.error(400, "A fault needs a \"kind\": " + kinds.joined(separator: ", ") + ".")
            }
            var words = FaultWords(service: service, kind: kind)
            words.delay = try duration("delay").get()
            if let r = try duration("retryAfter").get() { words.retryAfter = r }
            let lasting = try duration("for").get()
            if let count = body["count"] {
                guard let n = count.int64Value, n >= 1, n <= 1_000_000_000 else { throw Self.refusal("count", "a whole number of requests from 1") }
                words.count = Int(n)
            }
            if let p = body["probability"] { words.probability = try Self.probability(p).get() }
            let scopes = [("token", ServiceFault.Scope.token), ("device", ServiceFault.Scope.device), ("app", ServiceFault.Scope.app),
                          ("fid", ServiceFault.Scope.fid)]
            for (name, make) in scopes {
                guard let value = try text(name).get() else { continue }
                guard words.scope == .service else { throw ControlRefusal(response: ServerAnswer.error(400, "Give one of token, device, app or fid, not two.")) }
                guard !value.isEmpty else { throw Self.refusal(name, "a non-empty string") }
                words.scope = make(name == "token" ? Self.channelToken(value) : value)
            }
            if let problem = words.problem {
                return ServerAnswer.error(400, "\"\(problem.part.rawValue)\": " + problem.message + ".")
            }
            guard let holder = state.simulation.faultHolder(named: service) else {
                return ServerAnswer.error(400, "\"service\": no fake plays '\(service)' in this world.")
            }
            let now = state.world.now
            let id = state.nextFaultID()
            guard let fault = words.fault(window: now..<(now + (lasting ?? Self.longestFault)), id: id) else {
                return ServerAnswer.error(400, "These members make no fault.")
            }
            holder.faults.append(fault)
            state.world.record(layer: "server", host: WorldState.controlName, kind: .controlStep, [.step: .string("inject " + fault.label)])
            return ServerAnswer.json(201, faultJSON(fault, of: holder))
        } catch {
            return error.response
        }
    }

    /// A probability as `"n/d"` or a number from 0 to 1 (read to the millionth).
    private static func probability(_ value: JSONValue) -> Result<Ratio, ControlRefusal> {
        let allowed = "a ratio \"n/d\" or a number from 0 to 1"
        if let text = value.stringValue {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), n >= 0, d > 0, n <= d else {
                return .failure(refusal("probability", allowed))
            }
            return .success(Ratio(n, d))
        }
        guard let number = Double(value.description), number >= 0, number <= 1 else { return .failure(refusal("probability", allowed)) }
        return .success(Ratio(Int64((number * 1_000_000).rounded()), 1_000_000))
    }

    /// A WNS channel URI given whole is taken by the token in its query, as the fake keeps it.
    private static func channelToken(_ value: String) -> String {
        guard let range = value.range(of: "?token=") else { return value }
        return percentDecode(String(value[range.upperBound...].prefix { $0 != "&" }))
    }

    private static func refusal(_ name: String, _ allowed: String) -> ControlRefusal {
        ControlRefusal(response: ServerAnswer.error(400, "\"\(name)\" must be \(allowed)."))
    }

    /// Every fault not yet over, of every fake and then of the hub, in that order and then the
    /// order injected.
    private func activeFaults() -> [JSONValue] {
        let now = state.world.now
        return state.simulation.faultHolders.flatMap { holder in
            holder.faults.filter { $0.isActive(at: now) }.map { faultJSON($0, of: holder) }
        }
    }

    func faultJSON(_ fault: ServiceFault, of holder: any FaultHolder) -> JSONValue {
        let now = state.world.now
        let service = holder.faultHolderName
        let endsAtForever = fault.window.upperBound >= fault.window.lowerBound + Self.longestFault
        var scope: [(String, JSONValue)] = []
        switch fault.scope {
        case .service: scope = [("scope", .string("service"))]
        case .token(let t): scope = [("scope", .string("token")), ("token", .string(t))]
        case .device(let d): scope = [("scope", .string("device")), ("device", .string(d))]
        case .app(let a): scope = [("scope", .string("app")), ("app", .string(a))]
        case .fid(let f): scope = [("scope", .string("fid")), ("fid", .string(f))]
        }
        var members: [(String, JSONValue)] = [
            ("id", fault.id.map { .string($0) } ?? .null),
            ("service", .string(service)), ("kind", .string(fault.effect.name)),
        ] + scope + [
            ("does", .string(holder.answerSummary(fault, anchor: state.world.anchor))),
            ("label", .string(fault.label)),
            ("from", .string(fault.window.lowerBound.description)),
            ("until", endsAtForever ? .null : .string(fault.window.upperBound.description)),
            ("active", .bool(fault.window.contains(now) && fault.isActive(at: now))),
        ]
        if !endsAtForever && now < fault.window.upperBound {
            members.append(("leftMicroseconds", .number(JSONNumber((fault.window.upperBound - max(now, fault.window.lowerBound)).microseconds))))
        }
        members.append(("remainingCount", fault.remaining.map { .number(JSONNumber(Int64($0))) } ?? .null))
        if fault.probability != .always { members.append(("probability", .string(fault.probability.description))) }
        return .object(members)
    }
}
