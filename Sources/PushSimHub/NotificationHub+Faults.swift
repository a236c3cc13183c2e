import PushSimKernel
import PushSimNetwork

/// Faults of the hub itself (``NotificationHub/faults``): the same ``ServiceFault`` rules and the
/// same interpreter as the fake push services', asked once at the top of every REST request the
/// hub takes (registrations, installations, sends, telemetry, feedback), before its path, its
/// `api-version` or its SAS token is looked at, as an outage answers before anything is read.
///
/// What a hit request gets, in the hub's own error shape (`<Error><Code>…</Code><Detail>…
/// .TrackingId:…</Detail></Error>`, written as every
/// other refusal of the hub is, `fail`):
///
/// | effect | answer |
/// |---|---|
/// | outage | 503; the .NET SDK makes it a `ServerBusyException` (NH-DOTNET `ExceptionUtility.cs`) |
/// | throttle | 429 with `Retry-After` (whole seconds, rounded up, at least 1); the SDK's `QuotaExceededException` |
/// | internal error | 500; the SDK's `ServerBusyException` |
/// | slow | the usual work and answer, the answer that much later |
/// | lost answer | the usual work (a send is accepted and fanned out), but no answer: the caller times out |
///
/// Throttling: the 2015-01 REST pages list 403 "Quota exceeded" for sends and registrations
/// (NH-REST), and the SDK still takes a 403 *with* `Retry-After` as throttling, a 403 without
/// it as a permission refusal; Microsoft's maintainers wrote that 403 meant throttling only in
/// older API versions and that the service now throttles with 429 and keeps 403 for an access
/// policy without the right (NH-DOTNET-224, fixed in the SDK by its pull request #236). PushSim's
/// client speaks 2020-06, so the hub throttles with 429, whatever the request's `api-version`.
/// (The per-minute test-send quota keeps its own 403 with `Retry-After`, §4.8.)
///
/// The detail texts are PushSim's own: no source quotes the live hub's wording for these.
/// Scoped rules (a token, a device, an app) and token refusals are never asked here: the hub has
/// no token to judge a request by, and ``PushSimScenario/FaultWords`` refuses them for the hub.
extension NotificationHub {
    /// What a request hit by `effect` is answered with: status, `<Detail>` message and headers;
    /// nil for `.slow` and `.lostAnswer`, which keep the usual answer (and for a refusal, which
    /// the hub does not take).
    package static func injectedAnswer(_ effect: ServiceFault.Effect) -> (status: Int, detail: String, headers: [(String, String)])? {
        switch effect {
        case .outage: return (503, "The service is temporarily unavailable. Please retry the operation.", [])
        case .throttle(let d):
            return (429, "Too many requests to this notification hub; retry after the time given in Retry-After.",
                    [("Retry-After", String(retryAfterSeconds(d)))])
        case .internalError: return (500, "The service was unable to process the request because of an internal error. Please retry the operation.", [])
        case .slow, .lostAnswer, .refuse: return nil
        }
    }

    /// The hub's name (`hub`), which a fault statement names it by (`FaultHolder`).
    public var faultHolderName: String { Self.name }

    /// What a request `fault` hits gets, in a few words (`503`, `429 with Retry-After: 30`, `the
    /// usual answer, 2s later`): for the control API's account of an injected hub fault. The hub
    /// takes no token states, so `anchor` dates nothing.
    public func answerSummary(_ fault: ServiceFault, anchor: CalendarAnchor) -> String {
        switch fault.effect {
        case .slow(let d): return "the usual answer, \(d) later"
        case .lostAnswer: return "the usual work, but its answer is lost (the caller times out)"
        default: break
        }
        guard let answer = Self.injectedAnswer(fault.effect) else { return fault.effect.name }
        return "\(answer.status)" + answer.headers.map { " with \($0.0): \($0.1)" }.joined()
    }

    /// Asks the whole-hub rules about a request that just arrived; a hit is traced (`fault.injected`
    /// on the hub's layer, the journal entry labelled) and either answered here (true: nothing
    /// more to do) or, for `.slow` and `.lostAnswer`, left to the usual handling with its answer
    /// held back (``respond(to:with:_:)``).
    func answeredByFault(_ exchange: Exchange, _ world: World) -> Bool {
        guard let fault = faultInterpreter.match(&faults, at: world.now) else { return false }
        let answer = Self.injectedAnswer(fault.effect)
        var reply = Reply(exchange: exchange)
        reply.take(fault, service: Self.name, status: answer?.status, reason: answer?.detail ?? "", world: world)
        if reply.delay > .zero || reply.isLost { heldReplies[exchange.id] = reply }
        guard let answer else { return false }
        fail(answer.status, answer.detail, exchange, world, headers: answer.headers)
        return true
    }

    /// Answers the request behind `exchange`: at once, or as a `.slow` or `.lostAnswer` fault that
    /// hit it holds the answer (``Reply``). Every answer the hub gives to a request goes through here.
    func respond(to exchange: Exchange, with response: HTTPResponse, _ world: World) {
        if heldReplies.isEmpty { return world.respond(to: exchange, with: response) }
        guard let reply = heldReplies.removeValue(forKey: exchange.id) else { return world.respond(to: exchange, with: response) }
        reply.send(response, world: world)
    }
}
