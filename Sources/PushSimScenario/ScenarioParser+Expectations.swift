import PushSimKernel
import PushSimBackend
import PushSimDevices

/// `expect <device> shows ... [by <time>]` and `expect <device> <operation> status <code> [by <time>]`.
extension ScenarioParser.Session {
    /// Reads an expectation; `by 6s` is absolute, `by +1s` is relative to the cursor on this line.
    mutating func expectStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        let keyword = t.next()!
        let names = AppOperation.allCases.map(\.rawValue)
        let operations = names.joined(separator: "|")
        let usage = "write expect <device> shows \"<text>\" | nothing | <n> notifications, "
            + "or expect <device> \(operations) status <code>"
        let device = try t.word("a device name after expect", hint: usage)
        use(device, t)
        let what = try t.word("shows or an operation (\(names.joined(separator: ", ")))", hint: usage)
        let kind: ExpectationKind
        if what.text == "shows" {
            kind = try shows(&t, device: device.text, usage: usage)
        } else if let operation = AppOperation(rawValue: what.text) {
            try t.keyword("status", hint: "write expect <device> \(operation.rawValue) status <code>, e.g. status 410")
            let (code, token) = try t.number("an HTTP status such as 410", as: Int.self)
            guard (100...599).contains(code) else {
                throw ScenarioDiagnostic(location: t.location(token), message: "HTTP status \(code) is out of range",
                                         hint: "statuses are 100 to 599")
            }
            kind = .status(device: device.text, operation: operation, code: code)
        } else {
            throw ScenarioDiagnostic(location: t.location(what), message: "unknown expectation \(what.quoted)",
                                     hint: "after the device comes shows or an operation: \(names.joined(separator: ", "))")
        }
        var by: VirtualTime?
        if t.skip("by") {
            let (spec, token) = try t.time()
            guard let time = spec.resolved(from: cursor) else {
                throw ScenarioDiagnostic(location: t.location(token), message: "\(token.quoted) is past the largest virtual time",
                                         hint: "virtual time must fit in 64-bit microseconds (about 292,000 years)")
            }
            by = time
        }
        try t.finish(hint: "an expectation may end with by <time>, e.g. by 6s or by +1s")
        expectations.append(Expectation(kind: kind, by: by, location: t.location(keyword), source: t.line.source))
    }

    /// After `shows`: `"<text>"`, `nothing`, or `<n> notification(s)`.
    private func shows(_ t: inout ScenarioParser.Tokens, device: String, usage: String) throws(ScenarioDiagnostic) -> ExpectationKind {
        guard let next = t.peek else { throw t.expected("\"<text>\", nothing or <n> notifications after shows", hint: usage) }
        if next.kind == .string {
            _ = t.next()
            return .shows(device: device, text: next.text)
        }
        if t.skip("nothing") { return .showsNothing(device: device) }
        guard ScenarioParser.isDigits(next.text[...]) else {
            throw t.expected("\"<text>\", nothing or <n> notifications after shows", hint: usage)
        }
        let (count, _) = try t.number("a number of notifications", as: Int.self)
        guard t.skip("notifications") || t.skip("notification") else {
            throw t.expected("\"notifications\" after \(count)", hint: "write shows \(count) notifications")
        }
        return .showsCount(device: device, count: count)
    }
}
