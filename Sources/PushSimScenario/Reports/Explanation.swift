import PushSimKernel
import PushSimNetwork

/// Narrates a run step by step for someone learning how the pieces fit: each causal chain (one
/// scenario step and everything it caused, however it interleaves in time with others), then what
/// every part did because of it, in plain sentences. Built from the trace alone.
public enum Explanation {
    /// The narration of `report`: an overview of the parts, then one block per causal chain, each
    /// line timed from the chain's step.
    public static func narrate(_ report: ScenarioReport) -> String {
        var out = """
            \(report.scenario.name) (seed \(report.seed))

            The parts: each device runs the app and gets a push handle from its platform's push service
            (APNs on iOS, FCM on Android, WNS on Windows). The app registers through the app backend, which
            keeps registrations on the notification hub under the tag username:<user>. To send, the backend asks
            the hub to notify a tag; the hub finds matching registrations and hands the notification to each
            one's push service, which delivers it to the device. Times are virtual: d+hh:mm:ss.mmm. Each block
            below is one causal chain: a step and everything that happened because of it, each line timed from
            the step (+20ms: 20 milliseconds after it).

            """
        let trace = report.trace
        let chains = TeachingChain.all(in: trace)
        let roles = Roles(report)
        for (c, chain) in chains.enumerated() {
            let first = trace[chain.events[0]]
            if first.kind == .scenarioStep {
                out += "\n[\(first.time)] \(first[.step]?.description ?? "")   (causal chain \(chain.id))\n"
            } else {
                out += "\n[\(first.time)] " + (chain.id.isEmpty ? "outside any causal chain" : "causal chain \(chain.id), started by \(roles(first.host))") + "\n"
            }
            // Chains that ran at the same time (chains start in time order: look near this one only).
            let alongside = (max(0, c - 200)..<min(chains.count, c + 200)).filter {
                $0 != c && chains[$0].start <= chain.end && chain.start <= chains[$0].end && !chains[$0].id.isEmpty
            }
            if !chain.id.isEmpty, !alongside.isEmpty {
                let names = alongside.prefix(4).map { chains[$0].id }.joined(separator: ", ") + (alongside.count > 4 ? " and \(alongside.count - 4) more" : "")
                out += "  (meanwhile, in time: \(names))\n"
            }
            // Each line's time counts from the chain's start (its header gives the absolute time).
            for i in chain.events where trace[i].kind != .scenarioStep {
                guard let sentence = sentence(trace[i], roles) else { continue }
                let after = "+\(trace[i].time - chain.start)"
                out += "  " + after + String(repeating: " ", count: max(1, 9 - after.count)) + sentence + "\n"
            }
        }
        out += "\nOutcome: "
        out += report.results.isEmpty ? "no expectations.\n"
            : "\(report.results.filter(\.passed).count) of \(report.results.count) expectations held.\n"
        for r in report.results where !r.passed { out += "  not met: \(r.expectation.source) — \(r.seen)\n" }
        for inv in report.invariants where !inv.holds {
            out += "  invariant \"\(inv.name)\" was broken: \(inv.violations.first ?? "")\n"
        }
        if !report.leftovers.isEmpty { out += "Still pending at the end: \(report.leftovers.joined(separator: "; ")).\n" }
        return out
    }

    /// Names the parts of one run in words: its devices by name, the services by role.
    struct Roles {
        private let devices: Set<String>   // looked up only
        init(_ report: ScenarioReport) { devices = Set(report.scenario.devices.map(\.name)) }

        func callAsFunction(_ host: String) -> String {
            if devices.contains(host) { return host }
            switch host {
            case "backend": return "the tutorial backend"
            case "backend-hardened": return "the hardened backend"
            case "hub": return "the notification hub"
            default: return PushServiceDescriptor.named(host)?.displayName ?? host
            }
        }
    }

    /// What `e` did, in a sentence; nil for the events a learner need not read.
    static func sentence(_ e: TraceEvent, _ role: Roles) -> String? {
        func f(_ k: TraceFieldName) -> String { e[k]?.description ?? "" }
        let who = role(e.host)
        switch e.kind {
        case .httpRequest:
            return "\(who) → \(role(f(.callee))): \(f(.method)) \(SequenceDiagram.shorten(f(.target)))"
        case .httpResponse:
            return "\(who) answers \(role(f(.to))): \(f(.status))\(SequenceDiagram.statusWord(f(.status)))"
        case .httpFailure: return "\(who) got no answer from \(f(.to)): \(f(.error))"
        case .faultInjected:
            if !f(.lost).isEmpty { return "an injected fault (\(f(.fault))) loses the \(f(.lost)) to \(f(.to))" }
            return "\(who) is hit by an injected fault (\(f(.fault))): \(f(.status).isEmpty ? "answer delayed \(f(.delay))" : "answers \(f(.status)) \(f(.reason))")"
        case .deviceInstall: return "\(who): the app is installed (install #\(f(.install))) and asks the OS for a push handle"
        case .deviceUninstall: return "\(who): the app is removed, with its stored registration id"
        case .deviceHandleReceived: return "\(who): the app receives its push handle \(f(.handle))\(f(.changed) == "true" ? "" : " (unchanged)")"
        case .appLogin: return "\(who): \(f(.user)) logs in; the app builds the Basic header and registers"
        case .appSend: return "\(who): the app asks the backend to send \"\(f(.message))\" to \(f(.to)) with the \(f(.pns)) switch"
        case .appRegistered: return "\(who): registered as \(f(.registration))"
        case .appRetry: return "\(who): \(f(.why))"
        case .appRegistrationFailed: return "\(who): registration failed (\(f(.status))\(f(.why)))"
        case .hubRegistrationIDCreated: return "the hub creates registration id \(f(.id))"
        case .hubRegistrationUpserted:
            return "the hub stores registration \(f(.id)) (\(f(.platform)), tags \(f(.tags)), expires \(f(.expires)))"
        case .hubRegistrationGone: return "the hub answers 410 Gone: registration \(f(.id)) was deleted or has expired"
        case .hubSendAccepted:
            return "the hub accepts \(f(.format)) notification \(f(.notification)) for \(f(.tags)) and finds \(f(.targets)) matching registration(s)"
        case .hubNoTarget: return "no registration matches: nobody gets \(f(.notification))"
        case .hubPNSAccepted: return "the push service accepted \(f(.notification)) for registration \(f(.registration))"
        case .hubPNSRetry: return "the hub will retry \(f(.notification)) in \(f(.dueIn)): \(f(.reason))"
        case .hubRegistrationDeleted: return "the hub deletes registration \(f(.id)): \(f(.why))"
        case .apnsAccepted, .fcmAccepted, .wnsAccepted: return "\(who) accepts the notification for \(f(.device))"
        case .apnsStored, .fcmStored, .wnsCached: return "\(who) cannot reach \(f(.device)) and keeps the notification for later"
        case .apnsTokenInvalidated, .fcmTokenInvalidated, .wnsChannelInvalidated:
            return "\(who) learns the handle of \(f(.device)) is dead: \(f(.why))"
        case .apnsRejected, .fcmRejected, .wnsRejected:
            return "\(who) refuses the request: \(f(.status)) \(f(.reason))\(f(.error))"
        case .notificationShown: return "\(who) shows \"\(f(.text))\""
        case .liveActivityTokenReceived: return "\(who): ActivityKit hands the app its \(f(.why)) \(f(.handle))"
        case .liveActivityStarted: return "\(who): a \(f(.text)) Live Activity starts, \(f(.why))"
        case .liveActivityUpdated: return "\(who): the Live Activity takes the new content"
        case .liveActivityEnded: return "\(who): the Live Activity ends, \(f(.why)); it stays on the Lock Screen until dismissed"
        case .liveActivityAlert: return "\(who): the Live Activity lights up with the alert \"\(f(.text))\""
        case .liveActivityIgnored: return "\(who): ActivityKit ignores it: \(f(.why))"
        case .notificationDropped: return "\(who) drops a notification: \(f(.reason))"
        case .backendException: return "\(who) throws \(f(.exception)) and answers 500" + (f(.defect).isEmpty ? "" : " (tutorial defect \(f(.defect)))")
        case .backendUnknownPNS: return "\(who) knows no pns \"\(f(.pns))\": nothing is sent (tutorial defect b)"
        case .backendTagsUnchecked: return "\(who) accepts the tags \(f(.tags)) unchecked (tutorial defect i)"
        case .backendTagRefused: return "\(who) refuses the tag \(f(.tag)) for \(f(.user)) (403)"
        default: return nil
        }
    }
}
