#if canImport(Glibc)
import Glibc
#endif
@testable import PushSimServer
import Testing

/// The server's readiness poller, both ways it can wait: epoll (Linux) and poll(2) (elsewhere).
@Suite struct PollerTests {
    @Test(arguments: [Poller.Kind.epoll, .poll])
    func readinessIsReportedByKeyAndFollowsTheInterest(kind: Poller.Kind) {
        let poller = Poller(kind)
        #if os(Linux)
        #expect(poller.kind == kind)
        #endif
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { _ = close($0) } }
        var events: [Poller.Event] = []
        poller.add(ends[0], key: 42, read: true, write: false)
        poller.add(ends[1], key: 7, read: false, write: true)
        poller.wait(timeoutMilliseconds: 100, into: &events)
        #expect(events.map(\.key) == [7] && events[0].writable && !events[0].readable)

        var byte: UInt8 = 1
        _ = write(ends[1], &byte, 1)
        poller.change(ends[1], key: 7, read: false, write: false)
        poller.wait(timeoutMilliseconds: 100, into: &events)
        #expect(events.map(\.key) == [42] && events[0].readable)
        // Level-triggered: still there until read.
        poller.wait(timeoutMilliseconds: 0, into: &events)
        #expect(events.map(\.key) == [42])

        poller.remove(ends[0])
        poller.wait(timeoutMilliseconds: 50, into: &events)
        #expect(events.isEmpty)

        // A reader whose writer has gone is told, even when it no longer asks to read.
        poller.add(ends[0], key: 42, read: false, write: false)
        poller.remove(ends[1])
        _ = close(ends[1])
        ends[1] = -1
        poller.wait(timeoutMilliseconds: 100, into: &events)
        #expect(events.map(\.key) == [42] && events[0].failed)
    }
}
