import Testing
@testable import PushSimKernel

@Suite("EventLoop")
struct EventLoopTests {
    private func s(_ n: Int64) -> VirtualTime { .zero + .seconds(n) }

    /// Runs `loop` to its end, returning the payloads handed out with the clock at each, and the end.
    private func run(_ loop: inout EventLoop<String>, until stop: VirtualTime? = nil,
                     isLive: (String) -> Bool = { _ in true }) -> (steps: [String], end: RunEnd) {
        var steps: [String] = []
        while true {
            switch loop.next(until: stop, isLive: isLive) {
            case .event(let p): steps.append("\(loop.now) \(p)")
            case .end(let end): return (steps, end)
            }
        }
    }

    @Test func nowAdvancesToEachEventTime() {
        var loop = EventLoop<String>()
        loop.schedule("b", at: s(2))
        loop.schedule("a", at: s(1))
        loop.schedule("b2", at: s(2))
        loop.schedule("c", at: .zero + .milliseconds(5_120))
        #expect(loop.now == .zero)
        let (steps, end) = run(&loop)
        #expect(steps == ["0+00:00:01.000 a", "0+00:00:02.000 b", "0+00:00:02.000 b2", "0+00:00:05.120 c"])
        #expect(end == .quiescent)
        #expect(loop.now == .zero + .milliseconds(5_120))
        #expect(loop.processed == 4)
        #expect(loop.queue.isEmpty)
    }

    @Test func handlersCanScheduleAtNowAndLater() {
        var loop = EventLoop<String>()
        loop.schedule("ping", at: s(1))
        var log: [String] = []
        while case .event(let p) = loop.next() {
            log.append("\(loop.now) \(p)")
            if p == "ping" {
                loop.schedule("same-instant", at: loop.now)
                loop.schedule("pong", at: loop.now + .milliseconds(250))
            }
        }
        #expect(log == ["0+00:00:01.000 ping", "0+00:00:01.000 same-instant", "0+00:00:01.250 pong"])
    }

    @Test func stopTimeEndsWithStoppedAtAndMovesTheClock() {
        var loop = EventLoop<String>()
        loop.schedule("early", at: s(1))
        loop.schedule("late", at: s(10))
        let first = run(&loop, until: s(5))
        #expect(first.steps == ["0+00:00:01.000 early"])
        #expect(first.end == .stoppedAt(s(5)))
        #expect(loop.now == s(5))
        #expect(loop.queue.count == 1)
        // An event exactly at the stop time still runs.
        let second = run(&loop, until: s(10))
        #expect(second.steps == ["0+00:00:10.000 late"])
        #expect(second.end == .quiescent)
        #expect(loop.now == s(10))
    }

    @Test func quiescentWithStopMovesTheClockToStop() {
        var loop = EventLoop<String>()
        loop.schedule("only", at: s(1))
        let (_, end) = run(&loop, until: s(30))
        #expect(end == .quiescent)
        #expect(loop.now == s(30))
        // Without a stop the clock stays where the last event left it.
        var other = EventLoop<String>()
        other.schedule("only", at: s(1))
        _ = run(&other)
        #expect(other.now == s(1))
    }

    @Test func stopInThePastDoesNotMoveTheClockBack() {
        var loop = EventLoop<String>()
        loop.schedule("a", at: s(5))
        loop.schedule("b", at: s(9))
        _ = loop.next()
        #expect(loop.now == s(5))
        #expect(loop.next(until: s(2)).endValue == .stoppedAt(s(2)))
        #expect(loop.now == s(5))
    }

    @Test func deadEventsAreSkippedWithoutMovingTheClock() {
        var loop = EventLoop<String>()
        loop.schedule("cancelled-1", at: s(3))
        loop.schedule("cancelled-2", at: s(4))
        let (steps, end) = run(&loop, isLive: { !$0.hasPrefix("cancelled") })
        #expect(steps.isEmpty)
        #expect(end == .quiescent)
        #expect(loop.now == .zero)
        #expect(loop.processed == 0)
        #expect(loop.queue.isEmpty)
    }

    @Test func deadEventsBeforeALiveOneAreSkipped() {
        var loop = EventLoop<String>()
        loop.schedule("cancelled", at: s(3))
        loop.schedule("live", at: s(7))
        loop.schedule("cancelled", at: s(8))
        let (steps, end) = run(&loop, isLive: { $0 == "live" })
        #expect(steps == ["0+00:00:07.000 live"])
        #expect(end == .quiescent)
        #expect(loop.now == s(7))
        #expect(loop.processed == 1)
    }

    /// An event queued under a sequence number reserved earlier comes out where an event pushed
    /// then would have: after those scheduled before the reservation, before those scheduled after.
    @Test func aReservedSequenceKeepsItsPlace() {
        var loop = EventLoop<String>()
        loop.schedule("before", at: s(1))
        let reserved = loop.reserveSequence()
        loop.schedule("after", at: s(1))
        loop.schedule("reserved", at: s(1), sequence: reserved)
        #expect(run(&loop).steps == ["0+00:00:01.000 before", "0+00:00:01.000 reserved", "0+00:00:01.000 after"])
    }

    /// A postponed event moves to its new time and sequence without moving the clock, and is
    /// asked again when it comes up there.
    @Test func postponedEventsMoveWithoutMovingTheClock() {
        var loop = EventLoop<String>()
        loop.schedule("deadline", at: s(1))
        let second = loop.reserveSequence()
        loop.schedule("other", at: s(3))
        loop.schedule("last", at: s(5))
        var asked: [String] = []
        var steps: [String] = []
        while case .event(let p) = loop.next(liveness: { entry in
            asked.append("\(entry.time) \(entry.payload)")
            if entry.payload == "deadline" && entry.time == s(1) { return .postponed(s(3), sequence: second) }
            return .live
        }) { steps.append("\(loop.now) \(p)") }
        #expect(steps == ["0+00:00:03.000 deadline", "0+00:00:03.000 other", "0+00:00:05.000 last"])
        #expect(asked.first == "0+00:00:01.000 deadline")
        #expect(loop.processed == 3)
    }

    @Test func maxEventsEndsWithLimitReached() {
        var loop = EventLoop<String>(limits: RunLimits(maxEvents: 3))
        for i in 1...5 { loop.schedule("e\(i)", at: s(Int64(i))) }
        loop.schedule("cancelled", at: s(0))   // dead events do not count
        let (steps, end) = run(&loop, isLive: { $0 != "cancelled" })
        #expect(steps.count == 3)
        #expect(loop.processed == 3)
        #expect(loop.now == s(3))
        guard case .limitReached(let message) = end else {
            Issue.record("expected limitReached, got \(end)")
            return
        }
        #expect(end.isLimit)
        #expect(message.contains("event limit"))
        #expect(message.contains("3 events"))
        #expect(message.contains("limit events"))
    }

    @Test func maxTimeEndsWithLimitReached() {
        let limit = s(10)
        var loop = EventLoop<String>(limits: RunLimits(maxTime: limit))
        loop.schedule("at-limit", at: limit)                // allowed: not after the limit
        loop.schedule("too-late", at: limit + .microseconds(1))
        let (steps, end) = run(&loop)
        #expect(steps == ["0+00:00:10.000 at-limit"])
        #expect(loop.now == limit)
        guard case .limitReached(let message) = end else {
            Issue.record("expected limitReached, got \(end)")
            return
        }
        #expect(message.contains("time limit"))
        #expect(message.contains(limit.description))
        #expect(message.contains("limit time"))
    }

    @Test func defaultLimits() {
        let limits = RunLimits()
        #expect(limits.maxEvents == 20_000_000)
        #expect(limits.maxTime == .zero + .days(3_650))
        #expect(!RunEnd.quiescent.isLimit && !RunEnd.stoppedAt(.zero).isLimit)
    }
}

private extension EventLoop.Step {
    var endValue: RunEnd? { if case .end(let e) = self { return e } else { return nil } }
}
