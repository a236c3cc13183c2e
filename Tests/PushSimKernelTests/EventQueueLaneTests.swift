import Testing
@testable import PushSimKernel

@Suite("EventQueue lanes")
struct EventQueueLaneTests {
    private func t(_ us: Int64) -> VirtualTime { VirtualTime(microseconds: us) }

    @Test func laneEventsInterleaveWithHeapEventsByTimeThenSequence() {
        var q = EventQueue<String>()
        let lane = q.addLane()
        q.push("timeout-1", at: t(30), lane: lane)
        q.push("arrive-a", at: t(10))
        q.push("timeout-2", at: t(30), lane: lane)   // same time as timeout-1: scheduled later, comes later
        q.push("arrive-b", at: t(30))                // same time again: scheduled after both timeouts
        q.push("arrive-c", at: t(5))
        #expect(q.count == 5)
        var out: [String] = []
        while let e = q.pop() { out.append(e.payload) }
        #expect(out == ["arrive-c", "arrive-a", "timeout-1", "timeout-2", "arrive-b"])
        #expect(q.isEmpty)
    }

    /// Lanes are an optimisation only: the order handed out must be exactly a single heap's.
    @Test func lanesGiveTheSameOrderAsOneHeapOverSeededWorkloads() {
        for seed in UInt64(1)...20 {
            var random = SeededRandom(seed: seed)
            var withLanes = EventQueue<Int>()
            var heapOnly = EventQueue<Int>()
            let lanes = [withLanes.addLane(), withLanes.addLane()]
            var now: Int64 = 0
            var id = 0
            for _ in 0..<2_000 {
                if random.chance(Ratio(1, 3)), let a = withLanes.pop(), let b = heapOnly.pop() {
                    #expect(a.payload == b.payload && a.time == b.time)
                    now = a.time.microseconds
                    continue
                }
                id += 1
                let which = Int(random.next() % 3)
                if which < 2 {
                    // A fixed delay per lane keeps each lane in time order, as timeouts are.
                    let at = t(now + (which == 0 ? 30 : 10))
                    withLanes.push(id, at: at, lane: lanes[which])
                    heapOnly.push(id, at: at)
                } else {
                    let at = t(now + Int64(random.next() % 50))
                    withLanes.push(id, at: at)
                    heapOnly.push(id, at: at)
                }
            }
            while let a = withLanes.pop() {
                let b = heapOnly.pop()
                #expect(a.payload == b?.payload)
            }
            #expect(heapOnly.isEmpty)
        }
    }

    /// A lane longer than many chunks keeps first-in first-out order through pushes between
    /// pops, and holds no chunk but its front once drained.
    @Test func aLaneKeepsOrderAcrossChunksAndFreesThem() {
        var q = EventQueue<Int>()
        let lane = q.addLane()
        let chunk = EventQueue<Int>.Lane.chunkSize
        var next = 0, expected = 0
        var random = SeededRandom(seed: 3)
        for _ in 0..<(12 * chunk) {
            if random.chance(Ratio(2, 3)) {
                q.push(next, at: t(Int64(next)), lane: lane)
                next += 1
            } else if let e = q.pop() {
                #expect(e.payload == expected)
                expected += 1
            }
        }
        #expect(q.lanes[lane].back.count >= 2)
        while let e = q.pop() {
            #expect(e.payload == expected)
            expected += 1
        }
        #expect(expected == next && q.isEmpty)
        #expect(q.lanes[lane].back.isEmpty && q.lanes[lane].front.capacity <= 2 * chunk)
    }

    @Test func aLaneStaysUsableAfterDraining() {
        var q = EventQueue<Int>()
        let lane = q.addLane()
        for i in 0..<10_000 { q.push(i, at: t(Int64(i)), lane: lane) }
        for i in 0..<9_000 { #expect(q.pop()?.payload == i) }
        q.push(10_000, at: t(10_000), lane: lane)
        var rest: [Int] = []
        while let e = q.pop() { rest.append(e.payload) }
        #expect(rest == Array(9_000...10_000))
        q.push(7, at: t(20_000), lane: lane)
        #expect(q.pop()?.payload == 7)
    }
    /// After a burst (a million devices registering at one instant), emptied buffers can be given
    /// back, and the order handed out stays that of time, then sequence.
    @Test func buffersGrownByABurstAreGivenBackAndOrderIsKept() {
        var q = EventQueue<Int>()
        let lane = q.addLane()
        for i in 0..<20_000 {
            q.push(i, at: t(Int64(i % 100)))
            q.push(100_000 + i, at: t(1_000), lane: lane)
        }
        var last: (Int64, Int) = (-1, -1)
        var popped = 0
        while let e = q.pop() {
            let key = (e.time.microseconds, e.payload)
            #expect(key.0 >= last.0)
            last = key
            popped += 1
        }
        #expect(popped == 40_000)
        q.releaseUnusedCapacity()
        #expect(q.heap.capacity <= 8_192)
        #expect(q.lanes[lane].back.isEmpty && q.lanes[lane].front.capacity <= 2 * EventQueue<Int>.Lane.chunkSize)
        // Still usable after giving memory back.
        q.push(1, at: t(5))
        q.push(2, at: t(2_000), lane: lane)
        q.push(3, at: t(3))
        #expect([q.pop()?.payload, q.pop()?.payload, q.pop()?.payload, q.pop()?.payload] == [3, 1, 2, nil])
    }

    /// `peek` names the entry `pop` would take and where it waits; `pop(from:)` takes just that.
    @Test func peekThenPopFromGivesWhatPopGives() {
        var a = EventQueue<Int>(), b = EventQueue<Int>()
        let lanes = [a.addLane(), a.addLane()]
        _ = (b.addLane(), b.addLane())
        var random = SeededRandom(seed: 5)
        var now: Int64 = 0
        for id in 0..<500 {
            let which = Int(random.next() % 3)
            if which < 2 {
                a.push(id, at: t(now + 100 * Int64(which + 1)), lane: lanes[which])
                b.push(id, at: t(now + 100 * Int64(which + 1)), lane: lanes[which])
            } else {
                let at = t(now + random.int(in: 0...250))
                a.push(id, at: at)
                b.push(id, at: at)
            }
            if random.chance(Ratio(1, 2)), let (first, source) = a.peek() {
                let taken = a.pop(from: source), expected = b.pop()!
                #expect(first.payload == taken.payload && taken.payload == expected.payload && taken.time == expected.time)
                #expect(source == EventQueue<Int>.heapSource || lanes.contains(source))
                now = taken.time.microseconds
            }
        }
        while let (_, source) = a.peek() { #expect(a.pop(from: source).payload == b.pop()!.payload) }
        #expect(a.isEmpty && b.isEmpty && a.peek() == nil)
    }
}
