import PushSimKernel
import PushSimNetwork

/// What a PNS answer means for the hub (Citations §6 and §4.9).
enum PNSVerdict: Equatable {
    /// Accepted by the PNS.
    case accepted
    /// The handle is dead: delete the registration. `since` is APNs' 410 timestamp (Unix ms), if any;
    /// `outcome` is `ExpiredChannel` (gone) or `BadChannel` (never valid).
    case deadHandle(reason: String, sinceUnixMilliseconds: Int64?, outcome: PNSOutcome)
    /// The hub's credentials were stale: renew them and try once more.
    case renewCredentials(reason: String)
    /// Try again later (throttling, outage, transport failure); `after` from Retry-After, if given;
    /// `outcome` is `Throttled`, `PnsError` or `PnsUnreachable`.
    case retry(reason: String, after: VirtualDuration?, outcome: PNSOutcome)
    /// The PNS refused this notification for good.
    case refused(reason: String, outcome: PNSOutcome)

    /// Reads `result`: what every PNS shares here (no answer, 200, `Retry-After`, the default
    /// refusal outcome), the rest by the platform's adapter (``PNSServiceAdapter/verdict(_:json:retryAfter:refusal:)``).
    init(_ result: CallResult, platform: RegistrationPlatform) {
        guard let response = result.response else {
            self = .retry(reason: "PNS not reached: \(result.summary)", after: nil, outcome: .pnsUnreachable)
            return
        }
        let status = response.status
        let adapter = platform.traits.adapter
        // Every PNS answers success with 200; only other answers have a body worth reading.
        if status == 200 {
            self = adapter == nil ? .refused(reason: "retired platform", outcome: .pnsError) : .accepted
            return
        }
        let json = try? JSONParser.parse(response.body)
        let retryAfter = response.headers["Retry-After"].flatMap { Int64($0) }.map { VirtualDuration.seconds($0) }
        let refusal: PNSOutcome = status == 400 || status == 413 ? .invalidPayload : status == 403 ? .invalidCredentials : .pnsError
        guard let adapter else {
            self = .refused(reason: "retired platform", outcome: .pnsError)
            return
        }
        self = adapter.verdict(response, json: json, retryAfter: retryAfter, refusal: refusal)
    }
}
