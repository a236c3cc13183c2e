import PushSimKernel
import PushSimNetwork
import PushSimScenario

/// `GET /_pushsim/page`: the session since the world was made (or last reset) as a teaching page
/// (one self-contained HTML page: swim-lanes by causal chain, a step-through of every host's
/// state, what each phone showed, the invariants' verdicts). The served world keeps no trace, so
/// the page comes from a replay: the session's requests (kept in memory, at most 10,000 since
/// the last reset) are entered into a fresh world built from the same setup, seed, anchor and
/// registered keys that keeps its trace, exactly as ``WorldBridge/replay(_:)`` does for a `--record` file. A longer
/// session is answered 413: record it (`--record`) and make the page with
/// `pushsim replay FILE --html OUT`.
extension ControlAPI {
    func page() -> HTTPResponse {
        guard !state.sessionOverflowed else {
            return ServerAnswer.error(413, "The session since the last reset has more than \(state.sessionLimit) requests, more than the "
                + "server keeps for a page: start it with --record FILE and make the page with pushsim replay FILE --html OUT.")
        }
        guard let replay = try? WorldBridge(setup: state.setup, clock: state.policy, anchor: state.world.anchor, keepsTrace: true) else {
            return ServerAnswer.error(500, "A world to replay the session in could not be made.")
        }
        replay.configure(baseURL: state.baseURL, keyFiles: state.keyFiles)
        // Keys registered before the session began (registering one again, as the session may, changes nothing).
        replay.register(state.registeredKeys)
        _ = replay.replay(state.session)
        let html = replay.sessionPage(title: "pushsim serve session (\(state.session.count) requests)", source: "pushsim serve " + state.baseURL)
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: Array(html.utf8))
    }
}
