import PushSimKernel
import PushSimNetwork

/// One swim-lane of the teaching page: a device, a backend, the hub, a push service, the
/// operator, or one lane standing for the devices past the page's limit; with the part of
/// PushSim's code that plays it.
package struct TeachingLane: Sendable, Equatable {
    /// The host name in the trace (`bob-iphone`, `hub`, `apns`), or ``TeachingLane/moreDevices``.
    package var host: String
    /// How the page labels it (`bob-iphone (ios, bob)`, `notification hub`).
    package var title: String
    /// The Swift type that plays it, its SwiftPM target and source file.
    package var swiftType: String
    /// Its SwiftPM target (`PushSimHub`).
    package var target: String
    /// Its source file, from the package root.
    package var file: String
    /// What the code does in this role, in a few words.
    package var role: String

    /// The host name of the lane that stands for every device past the page's limit.
    package static let moreDevices = "…devices"
}

extension TeachingLane {
    /// The lanes of `report`: declared devices (at most `maxDevices`, the rest folded into one
    /// lane), then backends, hub, push services and operator, then any other host, by name.
    static func all(_ report: ScenarioReport, exchanges: [TeachingExchange], maxDevices: Int) -> [TeachingLane] {
        var used = Set<String>()   // looked up only
        for x in exchanges { used.insert(x.from); used.insert(x.to) }
        for e in report.trace where e.kind == .notificationShown { used.insert(e.host) }
        let declared = report.scenario.devices
        var lanes: [TeachingLane] = declared.prefix(maxDevices).map { d in
            let client = d.client.rawValue == "tutorial" ? ("TutorialRegisterClient", "the tutorial's RegisterClient as written")
                : ("RecommendedRegisterClient", "the client Microsoft's guidance recommends")
            return TeachingLane(host: d.name, title: "\(d.name) (\(d.platform.rawValue)\(d.user.map { ", \($0)" } ?? ""))",
                                swiftType: "Device + \(client.0)", target: "PushSimDevices",
                                file: "Sources/PushSimDevices/Device+App.swift, TutorialRegisterClient.swift",
                                role: "a \(d.platform.rawValue) phone running the app: \(client.1)")
        }
        if declared.count > maxDevices {
            lanes.append(TeachingLane(host: moreDevices, title: "\(declared.count - maxDevices) more devices", swiftType: "Device",
                                      target: "PushSimDevices", file: "Sources/PushSimDevices/Device.swift",
                                      role: "the devices past the first \(maxDevices), drawn as one lane"))
        }
        let known = ["backend", "backend-hardened", "hub"] + PushServiceDescriptor.all.map(\.name) + ["operator"]
        let deviceNames = Set(declared.map(\.name))
        for host in known where used.contains(host) { lanes.append(part(host)) }
        for host in used.sorted() where !known.contains(host) && !deviceNames.contains(host) { lanes.append(part(host)) }
        return lanes
    }

    /// The lane of a part that is not a declared device.
    static func part(_ host: String) -> TeachingLane {
        switch host {
        case "backend":
            return TeachingLane(host: host, title: "backend (tutorial)", swiftType: "TutorialBackend", target: "PushSimBackend",
                                file: "Sources/PushSimBackend/TutorialBackend.swift", role: "the tutorial's ASP.NET app backend as written, defects and all")
        case "backend-hardened":
            return TeachingLane(host: host, title: "backend (hardened)", swiftType: "HardenedBackend", target: "PushSimBackend",
                                file: "Sources/PushSimBackend/HardenedBackend.swift", role: "the same API with the tutorial's defects fixed")
        case "hub":
            return TeachingLane(host: host, title: "notification hub", swiftType: "NotificationHub", target: "PushSimHub",
                                file: "Sources/PushSimHub/NotificationHub.swift", role: "a fake Azure Notification Hub: registrations, tags, fan-out")
        case "operator":
            return TeachingLane(host: host, title: "operator", swiftType: "OperatorConsole", target: "PushSimScenario",
                                file: "Sources/PushSimScenario/Run/OperatorConsole.swift", role: "sends straight through the hub, as a person at the portal would")
        default:
            if let service = PushServiceDescriptor.named(host) {
                let type = ["apns": "APNsService", "fcm": "FCMService", "wns": "WNSService"][host] ?? host
                return TeachingLane(host: host, title: service.displayName, swiftType: type, target: "PushSimServices",
                                    file: "Sources/PushSimServices/\(service.displayName)/\(type).swift",
                                    role: "a fake \(service.displayName): issues handles, checks requests, delivers or keeps")
            }
            return TeachingLane(host: host, title: host, swiftType: "Host", target: "PushSimNetwork", file: "Sources/PushSimNetwork/Host.swift",
                                role: "a host outside the parts PushSim models (for example your own backend)")
        }
    }

    /// What every run has besides its lanes: the network between them and the runner.
    static let infrastructure: [TeachingLane] = [
        TeachingLane(host: "(every arrow)", title: "the network", swiftType: "World", target: "PushSimNetwork",
                     file: "Sources/PushSimNetwork/World.swift", role: "carries each request and answer on virtual time, with latency, loss and partitions"),
        TeachingLane(host: "(every step)", title: "the scenario", swiftType: "ScenarioRunner + Simulation", target: "PushSimScenario",
                     file: "Sources/PushSimScenario/Run/ScenarioRunner.swift", role: "builds the world from the file, runs its steps, checks the expectations"),
        TeachingLane(host: "(badges)", title: "the invariants", swiftType: "InvariantChecker", target: "PushSimScenario",
                     file: "Sources/PushSimScenario/Checks/InvariantChecker.swift", role: "observe the trace from outside and judge the whole run"),
    ]
}
