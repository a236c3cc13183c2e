import PushSimKernel

/// Expectations over a population:
///
///     expect every device in fans shows "Goal!" by 2m
///     expect no device in fans shows "Offside"          # also: expect none of fans shows "Offside"
///     expect 5000 of fans show "Goal!"                   # exactly; also at least / at most <n> of
///     expect every device in fans shows 1 notification
///     expect none of fans shows nothing
///
/// `show` and `shows` are both accepted after any quantifier. The check is made once, after the
/// run (``PopulationCheck``).
extension ScenarioParser.Session {
    static let populationExpectationUsage = "write expect every device in <population> shows \"<text>\" | nothing | <n> notifications, "
        + "or the same after expect no device in, none of, <n> of, at least <n> of, at most <n> of <population>"

    /// Whether `expect <first> <second> …` is an expectation over a population: it starts with
    /// `every`, `no`, `none`, `at`, or a number followed by `of`, and `first` is no device's name.
    func startsPopulationExpectation(_ first: ScenarioToken, then second: ScenarioToken?) -> Bool {
        guard !declaredNames.contains(first.text) else { return false }
        switch first.text {
        case "every", "no", "none", "at": return true
        default: return ScenarioParser.isDigits(first.text[...]) && second?.isWord("of") == true
        }
    }

    /// The rest of `expect <quantifier> <population> shows|show <predicate>`; `first` is the
    /// quantifier's first word, already read.
    mutating func populationExpectation(_ t: inout ScenarioParser.Tokens, first: ScenarioToken) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = Self.populationExpectationUsage
        let quantifier: PopulationQuantifier
        var counted: (n: Int, token: ScenarioToken)?
        switch first.text {
        case "every", "no":
            try t.keyword("device", hint: usage)
            try t.keyword("in", hint: usage)
            quantifier = first.text == "every" ? .every : .none
        case "none":
            try t.keyword("of", hint: usage)
            quantifier = .none
        case "at":
            let bound = try t.word("least or most after at", hint: usage)
            guard bound.text == "least" || bound.text == "most" else {
                throw ScenarioDiagnostic(location: t.location(bound), message: "expected least or most after at, found \(bound.quoted)", hint: usage)
            }
            let (n, token) = try t.number("a number of devices", as: Int.self)
            try t.keyword("of", hint: usage)
            quantifier = bound.text == "least" ? .atLeast(n) : .atMost(n)
            counted = (n, token)
        default:
            guard let n = Int(first.text) else {   // digits, followed by `of`: checked before coming here
                throw ScenarioDiagnostic(location: t.location(first), message: "number \(first.quoted) is too large", hint: usage)
            }
            try t.keyword("of", hint: usage)
            quantifier = .exactly(n)
            counted = (n, first)
        }
        let name = try t.word("a population name", hint: usage)
        guard let population = populations[name.text] else { throw unknownPopulation(name, t) }
        if let counted, counted.n > population.members.count {
            throw ScenarioDiagnostic(location: t.location(counted.token),
                                     message: "population \(name.quoted) has \(population.members.count) device\(population.members.count == 1 ? "" : "s"), fewer than \(counted.n)",
                                     hint: "count at most \(population.members.count) of \(name.text)")
        }
        guard t.skip("shows") || t.skip("show") else { throw t.expected("shows after the population", hint: usage) }
        return .population(name: name.text, members: population.members, quantifier: quantifier, predicate: try memberPredicate(&t))
    }

    /// After `shows`: `"<text>"`, `nothing`, or `<n> notification(s)`.
    private func memberPredicate(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> MemberPredicate {
        let usage = Self.populationExpectationUsage
        let what = "\"<text>\", nothing or <n> notifications after shows"
        guard let next = t.peek else { throw t.expected(what, hint: usage) }
        if next.kind == .string { _ = t.next(); return .shows(next.text) }
        if t.skip("nothing") { return .showsNothing }
        guard ScenarioParser.isDigits(next.text[...]) else { throw t.expected(what, hint: usage) }
        let (count, _) = try t.number("a number of notifications", as: Int.self)
        guard t.skip("notifications") || t.skip("notification") else {
            throw t.expected("\"notifications\" after \(count)", hint: "write shows \(count) notifications")
        }
        return .showsCount(count)
    }

    /// `no population "x" is declared`, or why: it is declared later, or it is a device.
    private func unknownPopulation(_ name: ScenarioToken, _ t: ScenarioParser.Tokens) -> ScenarioDiagnostic {
        if let line = populationLines[name.text], line > t.line.number {
            return ScenarioDiagnostic(location: t.location(name), message: "population \(name.quoted) is declared on line \(line), after this expectation",
                                      hint: "declare a population before the lines that use it")
        }
        if declaredNames.contains(name.text) {
            return ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) is a device, not a population",
                                      hint: "write expect \(name.text) shows \"<text>\", or declare a population: devices <name> <count> ios|android|windows")
        }
        return ScenarioDiagnostic(location: t.location(name), message: "no population \(name.quoted) is declared",
                                  hint: "declare it first with: devices \(name.text) <count> ios|android|windows")
    }
}
