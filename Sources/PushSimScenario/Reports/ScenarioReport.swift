import PushSimKernel

/// The outcome of one scenario run: its seed, each expectation's verdict, how the run ended,
/// what was left over, and the full trace.
public struct ScenarioReport: Sendable {
    /// The scenario as run.
    public var scenario: Scenario
    /// The seed actually used: the command line's, else the file's, else 0.
    public var seed: UInt64
    /// One verdict per expectation, in file order.
    public var results: [ExpectationResult]
    /// Invariants checked on every run (see `Invariants.swift`).
    public var invariants: [InvariantResult]
    /// Whether the run ran out of events, reached a stop time or hit a limit.
    public var end: RunEnd
    /// The virtual time when the run stopped.
    public var finalTime: VirtualTime
    /// How many events the world processed.
    public var events: Int
    /// Unfinished work when the run stopped: calls still waiting for an answer, timers not yet
    /// fired, and each host's own leftovers.
    public var leftovers: [String]
    /// The world's trace, in the order recorded (empty when the run did not keep it:
    /// ``World/isRecordingTrace``).
    public var trace: [TraceEvent]
    /// The tutorial defects the run showed (the `defect` marks its trace carried), sorted; kept
    /// even when the trace is not.
    public var defects: [String] = []

    /// Every expectation held and the run did not stop at a limit.
    public var passed: Bool { !end.isLimit && results.allSatisfy(\.passed) && invariants.allSatisfy { $0.holds || !$0.enforced } }
    /// How many expectations failed (invariants not counted).
    public var failedCount: Int { results.filter { !$0.passed }.count }

    /// The world's settings in one line: backend, hub, network, limits, devices.
    public var settingsSummary: String {
        var parts: [String] = []
        var backend = "tutorial"
        var backendKey = HubKey.full
        for setting in scenario.settings {
            switch setting {
            case .epoch: break   // first on the report's settings line (``text()``)
            case .backend(let b): backend = b.rawValue
            case .externalBackend(let address): backend = "external \(address)"
            case .backendKey(let key): backendKey = key
            case .hubRegistrationTTL(let d): parts.append("hub ttl \(d)")
            case .hubCredentials(let service, let problem): parts.append("hub credentials \(service) \(problem)")
            case .fcmAPNsKey(let state): parts.append("fcm apns key \(state.rawValue)")
            case .apnsBroadcast(let enabled): parts.append("apns broadcast \(enabled ? "enabled" : "disabled")")
            case .hubRule(let rule): parts.append(rule.description)
            case .hubPolicy(let policy): parts.append(policy.statement)
            case .latency(let a, let b): parts.append("latency \(a == b ? "\(a)" : "\(a)..\(b)")")
            case .linkLatency(let a, let b, let hosts): parts.append("latency \(a)..\(b) \(hosts.joined(separator: "<->"))")
            case .loss(let r, let hosts, let window):
                parts.append("loss \(r)\(hosts.map { " \($0.joined(separator: "<->"))" } ?? "")"
                             + (window.map { " [\($0.lowerBound), \($0.upperBound))" } ?? ""))
            case .partition(let a, let b, let from, let to): parts.append("partition \(a)<->\(b) [\(from), \(to))")
            case .limitEvents(let n): parts.append("limit events \(n)")
            case .limitTime(let d): parts.append("limit time \(d)")
            case .account(let user, _): parts.append("account \(user)")
            case .fault(let service, let fault): parts.append("fault \(service) \(fault.label)")
            }
        }
        // More than six devices: the first three are named (a population of 10,000 is not described 10,000 times).
        let many = scenario.devices.count > 6
        let devices = (many ? Array(scenario.devices.prefix(3)) : scenario.devices).map { d in
            "\(d.name) (\(d.platform.rawValue), client \(d.client.rawValue)\(d.backend.map { ", backend \($0.rawValue)" } ?? "")\(d.externalBackend.map { ", backend external \($0)" } ?? ""))"
        }
        let shown = many ? devices.joined(separator: ", ") + ", … (\(scenario.devices.count) in all)" : devices.joined(separator: ", ")
        // The backends' key shows beside the backend when it is not the full one they start with.
        let backendParts = ["backend \(backend)"] + (backendKey == .full ? [] : ["backend \(backendKey.statement)"])
        return (backendParts + parts + ["devices: " + (devices.isEmpty ? "none" : shown)])
            .joined(separator: "; ")
    }

    /// The command that replays this run exactly: ``replayProgram`` `run <the path as given> --seed <n>`.
    public var replayCommand: String { "\(Self.replayProgram) run \(shellQuoted(scenario.path)) --seed \(seed)" }

    /// How replay commands name the `pushsim` program. The command-line tool sets it once, before
    /// anything runs, to the binary that is running (so the line works from any folder, with the
    /// scenario's path as given); in a library run it is `swift run pushsim`, from the project root.
    nonisolated(unsafe) public static var replayProgram = "swift run pushsim"

    /// The text report: the seed first, then the settings led by the epoch (the calendar instant
    /// of virtual time zero, where no long path can push it past the cut), one line per
    /// expectation, the replay command on failure.
    public func text() -> String {
        var out = "scenario \(scenario.path) \(jsonString(scenario.name)) seed \(seed)\n"
        out += "  settings: epoch \(scenario.epoch.iso8601(.zero)); \(settingsSummary)\n"
        for r in results {
            let loc = "\(r.expectation.location.line):\(r.expectation.location.column)"
            out += "  \(r.passed ? "pass" : "FAIL")  \(loc)  \(r.expectation.source)\n"
            if !r.passed {
                out += "        at \(scenario.path):\(loc)\n"
                out += "        seen: \(r.seen)\n"
            }
        }
        if case .limitReached(let message) = end { out += "  FAIL  \(message)\n" }
        for inv in invariants where !inv.holds {
            out += "  \(inv.enforced ? "FAIL" : "note")  invariant \"\(inv.name)\" broken \(inv.violations.count) time(s)"
                + (inv.enforced ? "" : " (not enforced: a tutorial flavour is in use)") + "\n"
            for v in inv.violations.prefix(5) { out += "        \(v)\n" }
        }
        let how: String
        switch end {
        case .quiescent: how = "nothing left to run"
        case .stoppedAt(let t): how = "stopped at \(t)"
        case .limitReached: how = "limit reached"
        }
        out += "  ran \(events) events to \(finalTime) (\(how)); \(leftovers.isEmpty ? "no leftovers" : "leftovers:")\n"
        for l in leftovers { out += "    - \(l)\n" }
        if !passed { out += "  replay: \(replayCommand)\n" }
        return out
    }
}

/// Quotes a path for a POSIX shell when it holds anything beyond safe characters.
func shellQuoted(_ s: String) -> String {
    let safe = s.unicodeScalars.allSatisfy { c in
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || "-_./+:@".unicodeScalars.contains(c)
    }
    return safe ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
