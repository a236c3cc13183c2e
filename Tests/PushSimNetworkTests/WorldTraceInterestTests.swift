import PushSimKernel
@testable import PushSimNetwork
import Testing

/// A world whose trace is not kept builds only the events its observers read: the others'
/// fields are never evaluated, and the messages behind them go exactly as before.
@Suite struct WorldTraceInterestTests {
    /// Answers every request 200 and records one `test.handled` event per request.
    private final class Server: Host {
        func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
            world.record(layer: "test", host: "server", kind: TraceKind("test.handled"), [.target: .string(request.path)])
            world.respond(to: exchange, with: HTTPResponse(status: 200))
        }
        func leftovers(world: World) -> [Leftover] { [] }
    }
    private final class Seen { var kinds: [String] = []; var built = 0; var answers: [Int] = [] }

    /// Runs three calls to a server in a world that keeps its trace or not, with an observer
    /// reading `reading` (nil: every kind); answers what the observer saw and what was built.
    private func run(keeping: Bool, reading: Set<TraceKind>?) -> (seen: Seen, kept: [String]) {
        let world = World(seed: 3)
        world.register(Server(), name: "server")
        world.isRecordingTrace = keeping
        let seen = Seen()
        let observer: (TraceEvent) -> Void = { seen.kinds.append($0.kind.name) }
        if let reading { world.observeTrace(reading: TraceInterest(reading), observer) } else { world.observeTrace(observer) }
        for i in 0..<3 {
            _ = world.schedule(at: .zero + .seconds(Int64(i))) {
                world.record(layer: "test", host: "client", kind: TraceKind("test.sent"), [.target: .string({ seen.built += 1; return "/\(i)" }())])
                world.call(HTTPRequest(method: "GET", authority: "server", path: "/\(i)"), from: "client") { result in
                    if case .response(let r) = result { seen.answers.append(r.status) }
                }
            }
        }
        _ = world.run()
        return (seen, world.trace.events.map(\.kind.name))
    }

    @Test func eventsNobodyReadsAreNotBuiltWhileTheTraceIsNotKept() {
        let (seen, kept) = run(keeping: false, reading: [TraceKind("test.handled")])
        #expect(seen.kinds == ["test.handled", "test.handled", "test.handled"])
        #expect(seen.built == 0, "the fields of an event nobody reads are not evaluated")
        #expect(seen.answers == [200, 200, 200])
        #expect(kept.isEmpty)
    }

    @Test func aKeptTraceStillHoldsEveryEventAndShowsThemToEveryObserver() {
        let (seen, kept) = run(keeping: true, reading: [TraceKind("test.handled")])
        #expect(kept == seen.kinds)
        #expect(kept.filter { $0 == "http.request" }.count == 3 && kept.filter { $0 == "http.response" }.count == 3)
        #expect(seen.built == 3 && seen.answers == [200, 200, 200])
    }

    @Test func anObserverThatNamesNoKindsReadsThemAll() {
        let (seen, _) = run(keeping: false, reading: nil)
        #expect(seen.kinds.count == 12 && seen.built == 3)
    }

    @Test func theMessagesAreTheSameWhateverIsRead() {
        let requestsAndResponses = run(keeping: false, reading: [TraceKind("http.request"), TraceKind("http.response")])
        #expect(requestsAndResponses.seen.kinds == ["http.request", "http.response", "http.request", "http.response", "http.request", "http.response"])
        let none = run(keeping: false, reading: [])
        #expect(none.seen.kinds.isEmpty && none.seen.answers == requestsAndResponses.seen.answers)
    }
}
