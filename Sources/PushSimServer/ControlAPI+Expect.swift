import PushSimKernel
import PushSimNetwork
import PushSimScenario

/// `POST /_pushsim/expect {"expect":"bob-iphone shows \"Hi\" by +5s"}`: one expectation in the
/// scenario language (the leading `expect` may be left out), read by the scenario parser and
/// judged by the same evaluator and invariant checkers as a scenario run
/// (``PushSimScenario/LiveExpectations``). Answers 200 with
/// `{"expectation":…,"holds":true|false,"seen":…,"verdict":…,"clock":…}`; `seen` says what the
/// world showed instead when it does not hold, and `verdict` is the line a scenario run prints.
///
/// With a `by` later than now, the answer waits (bounded by that time) for the expectation to
/// hold: under `wall` as the wall clock brings the world there, under `manual` by running the
/// world on the spot, as far as `by` at most (counted as an advance, as a settle is). An
/// expectation that cannot be read is 400 with its column.
extension ControlAPI {
    func expect(_ request: WireRequest) -> Outcome {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return .answer(refusal.response)
        case .success(let b): body = b
        }
        for (name, _) in body.objectMembers ?? [] where name != "expect" {
            return .answer(ServerAnswer.error(400, "Unknown member \"\(name)\"; send {\"expect\":\"<an expectation>\"}."))
        }
        guard let text = body["expect"]?.stringValue else {
            return .answer(ServerAnswer.error(400, #"Send {"expect":"<an expectation>"}, e.g. {"expect":"bob-iphone shows \"Hi\" by +5s"}."#))
        }
        let world = state.world
        let expectation: Expectation
        switch ScenarioParser.parseExpectation(text, devices: state.simulation.devices.map(\.name), now: world.now) {
        case .failure(let failure):
            let first = failure.diagnostics.first
            let column = first?.location.column ?? 1
            let message = (first.map { $0.message + ($0.hint.map { "; hint: " + $0 } ?? "") } ?? "not an expectation")
            return .answer(ServerAnswer.json(400, .object([
                "error": .object(["status": .number(JSONNumber(400)), "message": .string("column \(column): " + message)]),
                "column": .number(JSONNumber(Int64(column))),
            ])))
        case .success(let e): expectation = e
        }
        let simulation = state.simulation
        let live = state.expectations
        let answer = { [state] () -> HTTPResponse in
            let result = live.evaluate(expectation, in: simulation)
            let verdict = (result.passed ? "pass  " : "FAIL  ") + expectation.source + (result.passed ? "" : "\n        seen: " + result.seen)
            return ServerAnswer.json(200, .object([
                "expectation": .string(expectation.source), "holds": .bool(result.passed), "seen": .string(result.seen),
                "verdict": .string(verdict), "clock": state.clockJSON(),
            ]))
        }
        guard let by = expectation.by, by > world.now else { return .answer(answer()) }
        let holds = { live.evaluate(expectation, in: simulation).passed }
        if state.policy == .manual {
            let start = world.now
            state.runWorld(to: by, until: holds)
            state.countAsAdvance(world.now - start)
            return .answer(answer())
        }
        return .wait(Wait(isDone: { holds() || world.now >= by }, finish: answer, virtualLimit: by - world.now))
    }
}
