import PushSimKernel
import PushSimNetwork

/// Nothing is sent to a handle after the hub learned it is dead, unless it was registered again
/// (Citations §6: a provider stops using a handle the PNS reported).
///
/// It watches the hub's PNS feedback (`hub.registration-deleted` and
/// `hub.installation-channel-expired` with `dead-handle`), re-registrations
/// (`hub.registration-upserted`, `hub.installation-upserted`, `hub.installation-patched`) and
/// requests to a PNS (`hub.pns-request`), comparing handle labels.
final class DeadHandleChecker: InvariantChecker {
    private var dead: [String: String] = [:]   // handle label → when it was reported dead (looked up only)
    private var violations: [String] = []

    let reads: Set<TraceKind> = [.hubRegistrationDeleted, .hubInstallationChannelExpired, .hubRegistrationUpserted,
                                 .hubInstallationUpserted, .hubInstallationPatched, .hubPNSRequest]

    func observe(_ e: TraceEvent) {
        guard e.layer == "hub", let handle = e[.handle]?.description else { return }
        switch e.kind {
        case .hubRegistrationDeleted where e[.deadHandle] == .bool(true),
             .hubInstallationChannelExpired where e[.deadHandle] == .bool(true):
            dead[handle] = e.time.description
        case .hubRegistrationUpserted, .hubInstallationUpserted, .hubInstallationPatched: dead[handle] = nil
        case .hubPNSRequest:
            if let since = dead[handle] {
                violations.append("\(e.time) the hub sent \(e[.notification]?.description ?? "?") to \(handle), reported dead at \(since) [\(e.correlation)]")
            }
        default: break
        }
    }

    func result(leftovers: [Leftover]) -> InvariantResult {
        InvariantResult(id: "dead-handles", name: "no sends to dead handles",
                        statement: "nothing is sent to a handle after the hub learned it is dead, unless it was registered again",
                        enforced: true, violations: violations)
    }
}
