import PushSimKernel
import PushSimNetwork

/// Renders a run's trace as a Mermaid sequence diagram: every HTTP exchange between devices,
/// backends, hub and push services as arrows, and the moments that matter as notes (scenario
/// steps, what a device shows, drops, PNS feedback, injected faults, defects). Deterministic:
/// built from the trace alone, participants in a fixed order.
package enum SequenceDiagram {
    /// The parts of the system in the order they stand in the diagram, after the devices.
    static let serviceOrder = ["backend", "backend-hardened", "hub"] + PushServiceDescriptor.all.map(\.name)

    /// The Mermaid source (`sequenceDiagram` …) for `report`'s trace.
    package static func mermaid(_ report: ScenarioReport) -> String {
        let trace = report.trace
        // Participants: devices in declaration order, then the services that took part.
        var used: [String] = []
        func use(_ host: String) { if !used.contains(host) { used.append(host) } }
        for e in trace where e.kind == .httpRequest || e.kind == .httpResponse {
            use(e.host)
            if let other = (e[.callee] ?? e[.to])?.description { use(other) }
        }
        let devices = report.scenario.devices.map(\.name).filter(used.contains)
        let services = serviceOrder.filter(used.contains)
        let others = used.filter { !devices.contains($0) && !services.contains($0) }.sorted()
        let participants = devices + services + others
        var ids: [String: String] = [:]
        var out = "sequenceDiagram\n"
        for (i, p) in participants.enumerated() {
            ids[p] = "P\(i + 1)"
            out += "    participant P\(i + 1) as \(escape(label(p, report)))\n"
        }
        func id(_ host: String) -> String? { ids[host] }
        for e in trace {
            switch e.kind {
            case .scenarioStep:
                let device = e[.step]?.description.split(separator: " ").first.map(String.init) ?? ""
                let anchor = id(device) ?? "P1"
                out += "    Note over \(anchor): \(escape("\(e.time) \(e.correlation) \(e[.step]?.description ?? "")"))\n"
            case .httpRequest:
                guard let from = id(e.host), let to = id(e[.callee]?.description ?? "") else { continue }
                out += "    \(from)->>\(to): \(escape("\(e[.method]?.description ?? "") \(shorten(e[.target]?.description ?? ""))"))\n"
            case .httpResponse:
                guard let from = id(e.host), let to = id(e[.to]?.description ?? "") else { continue }
                let status = e[.status]?.description ?? "?"
                out += "    \(from)-->>\(to): \(escape(status + statusWord(status)))\n"
            case .httpFailure:
                guard let at = id(e.host) else { continue }
                out += "    Note over \(at): \(escape("no answer from \(e[.to]?.description ?? "?"): \(e[.error]?.description ?? "")"))\n"
            case .faultInjected:
                guard let at = id(e.host) else { continue }
                let what = e[.lost].map { "\($0) lost" } ?? e[.status].map { "answered \($0)" } ?? e[.delay].map { "answer delayed \($0)" } ?? ""
                out += "    Note over \(at): \(escape("injected fault: \(e[.fault]?.description ?? "") (\(what))"))\n"
            case .notificationShown:
                guard let at = id(e.host) else { continue }
                out += "    Note over \(at): \(escape("shows \"\(e[.text]?.description ?? "")\""))\n"
            case .notificationDropped:
                guard let at = id(e.host) ?? id(e.layer) else { continue }
                out += "    Note over \(at): \(escape("dropped: \(e[.reason]?.description ?? "")"))\n"
            case .hubRegistrationDeleted where e[.deadHandle] == .bool(true):
                guard let at = id("hub") else { continue }
                out += "    Note over \(at): \(escape("deletes \(e[.id]?.description ?? "") (\(e[.why]?.description ?? ""))"))\n"
            case _ where e[.defect] != nil:
                guard let at = id(e.host) else { continue }
                out += "    Note over \(at): \(escape("defect \(e[.defect]!.description): \(e.kind)"))\n"
            default:
                continue
            }
        }
        return out
    }

    static func label(_ host: String, _ report: ScenarioReport) -> String {
        if let d = report.scenario.devices.first(where: { $0.name == host }) {
            return "\(host) (\(d.platform.rawValue)\(d.user.map { ", \($0)" } ?? ""))"
        }
        switch host {
        case "backend": return "backend (tutorial)"
        case "backend-hardened": return "backend (hardened)"
        case "hub": return "notification hub"
        default: return PushServiceDescriptor.named(host)?.displayName ?? host
        }
    }

    static func statusWord(_ status: String) -> String {
        switch status {
        case "200": return " OK"
        case "201": return " Created"
        case "400": return " Bad Request"
        case "401": return " Unauthorized"
        case "403": return " Forbidden"
        case "404": return " Not Found"
        case "410": return " Gone"
        case "413": return " Payload Too Large"
        case "429": return " Too Many Requests"
        case "500": return " Internal Server Error"
        case "503": return " Service Unavailable"
        default: return ""
        }
    }

    /// Long targets (handles, filters) are cut to keep arrows readable.
    static func shorten(_ target: String) -> String {
        target.count > 72 ? String(target.prefix(69)) + "..." : target
    }

    /// Mermaid treats `;` and `#` specially and `<`, `>` as markup: write them as entity codes.
    package static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "#": out += "#35;"
            case ";": out += "#59;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "\n": out += " "
            default: out.append(c)
            }
        }
        return out
    }
}
