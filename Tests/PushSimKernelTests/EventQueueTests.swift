import Testing
@testable import PushSimKernel

@Suite("EventQueue")
struct EventQueueTests {
    private func t(_ us: Int64) -> VirtualTime { VirtualTime(microseconds: us) }

    private func drain<P>(_ q: inout EventQueue<P>) -> [EventQueue<P>.Entry] {
        var out: [EventQueue<P>.Entry] = []
        while let e = q.pop() { out.append(e) }
        return out
    }

    @Test func emptyQueuePopsNil() {
        var q = EventQueue<Int>()
        #expect(q.isEmpty)
        #expect(q.count == 0)
        #expect(q.first == nil)
        #expect(q.pop() == nil)
    }

    @Test func popsInTimeOrder() {
        // Timeline: pushed out of order, due at 30, 10, 20, 0, 50, 40.
        var q = EventQueue<String>()
        q.push("c", at: t(30))
        q.push("a", at: t(10))
        q.push("b", at: t(20))
        q.push("start", at: t(0))
        q.push("e", at: t(50))
        q.push("d", at: t(40))
        #expect(q.count == 6)
        #expect(q.first?.payload == "start")
        let popped = drain(&q)
        #expect(popped.map(\.payload) == ["start", "a", "b", "c", "d", "e"])
        #expect(popped.map(\.time.microseconds) == [0, 10, 20, 30, 40, 50])
        #expect(q.isEmpty)
    }

    @Test func pushReturnsIncreasingSequenceNumbers() {
        var q = EventQueue<Int>()
        let s0 = q.push(0, at: t(5))
        let s1 = q.push(1, at: t(1))
        let s2 = q.push(2, at: t(5))
        #expect([s0, s1, s2] == [0, 1, 2])
        let popped = drain(&q)
        #expect(popped.map(\.sequence) == [1, 0, 2])
    }

    @Test func sameTimeEventsComeOutInInsertionOrder() {
        // 1000 events due at t=500, interleaved with 3000 others before, at and after it.
        var rng = SeededRandom(seed: 42)
        var q = EventQueue<Int>()
        var order = 0
        for i in 0..<1000 {
            for _ in 0..<3 {
                q.push(-1, at: t(rng.int(in: 0...1_000)))   // may also land on 500: payload -1
            }
            q.push(i, at: t(500))
            order += 1
        }
        #expect(order == 1000)
        let popped = drain(&q)
        #expect(popped.count == 4000)
        // Non-decreasing times; sequence ascending within one time.
        for (a, b) in zip(popped, popped.dropFirst()) {
            #expect(a.time < b.time || (a.time == b.time && a.sequence < b.sequence))
        }
        let marked = popped.filter { $0.time == t(500) && $0.payload >= 0 }.map(\.payload)
        #expect(marked == Array(0..<1000))
    }

    @Test func matchesSortedReferenceOverRandomPushesAndPops() {
        var rng = SeededRandom(seed: 2026)
        var q = EventQueue<Int>()
        // Reference: (time, sequence, payload) kept sorted descending so popLast is the minimum.
        var reference: [(time: Int64, seq: UInt64, payload: Int)] = []
        var pops = 0
        for i in 0..<10_000 {
            if reference.isEmpty || rng.int(below: 5) < 3 {   // ~60% pushes, ~40% pops
                let time = rng.int(in: 0...200)                 // narrow range: many ties
                let seq = q.push(i, at: t(time))
                reference.append((time, seq, i))
                reference.sort { ($0.time, $0.seq) > ($1.time, $1.seq) }
            } else {
                let expected = reference.removeLast()
                guard let got = q.pop() else {
                    Issue.record("queue empty at step \(i), reference has \(reference.count + 1)")
                    return
                }
                pops += 1
                #expect(got.time.microseconds == expected.time)
                #expect(got.sequence == expected.seq)
                #expect(got.payload == expected.payload)
            }
            #expect(q.count == reference.count)
        }
        #expect(pops > 3_000)
        let rest = drain(&q)
        #expect(rest.map(\.payload) == reference.reversed().map(\.payload))
    }
}
