import PushSimKernel
import PushSimNetwork
import PushSimScenario

/// Machine-readable reports of a set of scenario runs.
public enum Reports {
    /// JUnit XML: one `<testsuite>` per scenario, one `<testcase>` per expectation; a failed
    /// expectation carries `<failure>` with what was seen and the replay command. A run that hit
    /// a limit adds a failing `run limits` case. The seed is a suite property. A file that could
    /// not be read or parsed (`unreadable`: its path and the diagnostics) is a suite of its own
    /// with one `parse` case in error, so CI sees it. Control characters echoed from input are
    /// escaped (XML 1.0 cannot carry them at all).
    public static func junit(_ reports: [ScenarioReport], unreadable: [(path: String, message: String)] = []) -> String {
        let tests = reports.reduce(0) { $0 + $1.results.count + ($1.end.isLimit ? 1 : 0) } + unreadable.count
        let failures = reports.reduce(0) { $0 + $1.failedCount + ($1.end.isLimit ? 1 : 0) }
        let suites: [XMLNode] = reports.map { report in
            var cases: [XMLNode] = report.results.map { r in
                let e = r.expectation
                var children: [XMLNode] = []
                if !r.passed {
                    let seen = r.seen.escapingControlCharacters
                    children.append(.element(XMLElement(name: "failure", attributes: [("message", "seen: \(seen)"), ("type", "expectation")],
                        children: [.text("\(report.scenario.path):\(e.location.line):\(e.location.column)\nseen: \(seen)\nreplay: \(report.replayCommand)")])))
                }
                return .element(XMLElement(name: "testcase", attributes: [
                    ("classname", report.scenario.path), ("name", "\(e.location.line):\(e.location.column) \(e.source)"),
                    ("file", report.scenario.path), ("line", String(e.location.line)), ("time", "0")], children: children))
            }
            if case .limitReached(let message) = report.end {
                cases.append(.element(XMLElement(name: "testcase", attributes: [("classname", report.scenario.path), ("name", "run limits"), ("time", "0")],
                    children: [.element(XMLElement(name: "failure", attributes: [("message", message), ("type", "limit")],
                                                   children: [.text("replay: \(report.replayCommand)")]))])))
            }
            let properties = XMLElement(name: "properties", children: [
                .element(XMLElement(name: "property", attributes: [("name", "seed"), ("value", String(report.seed))])),
                .element(XMLElement(name: "property", attributes: [("name", "virtual-end"), ("value", report.finalTime.description)])),
                .element(XMLElement(name: "property", attributes: [("name", "events"), ("value", String(report.events))])),
            ])
            return .element(XMLElement(name: "testsuite", attributes: [
                ("name", report.scenario.name), ("file", report.scenario.path),
                ("tests", String(report.results.count + (report.end.isLimit ? 1 : 0))),
                ("failures", String(report.failedCount + (report.end.isLimit ? 1 : 0))), ("errors", "0"), ("time", "0")],
                children: [.element(properties)] + cases))
        }
        let unparsed: [XMLNode] = unreadable.map { file in
            let message = file.message.escapingControlCharacters
            return .element(XMLElement(name: "testsuite", attributes: [
                ("name", file.path), ("file", file.path), ("tests", "1"), ("failures", "0"), ("errors", "1"), ("time", "0")],
                children: [.element(XMLElement(name: "testcase", attributes: [("classname", file.path), ("name", "parse"), ("time", "0")],
                    children: [.element(XMLElement(name: "error", attributes: [("message", "cannot be read or parsed"), ("type", "scenario")],
                                                   children: [.text(message)]))]))]))
        }
        let root = XMLElement(name: "testsuites", attributes: [("name", "pushsim"), ("tests", String(tests)), ("failures", String(failures)),
                                                               ("errors", String(unreadable.count))],
                              children: suites + unparsed)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root.serialized() + "\n"
    }

    /// A JSON summary (keys sorted, one object): per scenario its path, name, seed, verdicts,
    /// how the run ended, event count, final virtual time and leftovers.
    public static func jsonSummary(_ reports: [ScenarioReport], unreadable: [String] = []) -> String {
        let scenarios: [JSONValue] = reports.map { report in
            let end: String
            switch report.end {
            case .quiescent: end = "quiescent"
            case .stoppedAt: end = "stopped"
            case .limitReached(let m): end = "limit: " + m
            }
            return .object([
                ("path", .string(report.scenario.path)), ("name", .string(report.scenario.name)),
                ("seed", .number(JSONNumber(text: String(report.seed)))), ("passed", .bool(report.passed)),
                ("end", .string(end)), ("events", .number(JSONNumber(Int64(report.events)))),
                ("final_time_us", .number(JSONNumber(report.finalTime.microseconds))),
                ("leftovers", .array(report.leftovers.map { .string($0) })),
                ("replay", .string(report.replayCommand)),
                ("expectations", .array(report.results.map { r in
                    .object([("line", .number(JSONNumber(Int64(r.expectation.location.line)))),
                             ("column", .number(JSONNumber(Int64(r.expectation.location.column)))),
                             ("source", .string(r.expectation.source)), ("passed", .bool(r.passed)), ("seen", .string(r.seen))])
                })),
            ])
        }
        let passed = reports.reduce(0) { $0 + $1.results.filter(\.passed).count }
        let failed = reports.reduce(0) { $0 + $1.failedCount }
        return JSONValue.object([("scenarios", .array(scenarios)), ("unreadable", .array(unreadable.map { .string($0) })),
                                 ("expectations_passed", .number(JSONNumber(Int64(passed)))),
                                 ("expectations_failed", .number(JSONNumber(Int64(failed))))]).serializedSortedKeys() + "\n"
    }

    /// Compares two traces of the same run; nil when identical, else the first differing line
    /// (1-based) of their JSON Lines and both versions of it.
    public static func firstDifference(_ a: [TraceEvent], _ b: [TraceEvent]) -> (line: Int, first: String, second: String)? {
        let la = TraceFormat.jsonLines(a).split(separator: "\n", omittingEmptySubsequences: false)
        let lb = TraceFormat.jsonLines(b).split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(la.count, lb.count) {
            let x = i < la.count ? String(la[i]) : "(end of trace)"
            let y = i < lb.count ? String(lb[i]) : "(end of trace)"
            if x != y { return (i + 1, x, y) }
        }
        return nil
    }
}
