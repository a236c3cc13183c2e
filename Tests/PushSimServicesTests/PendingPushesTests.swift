import Testing
@testable import PushSimServices

@Suite struct PendingPushesTests {
    @Test func eachTagGivesBackItsOwnPushAndIsReused() {
        var pushes = PendingPushes<String>()
        let a = pushes.add("a"), b = pushes.add("b")
        #expect(a != b)
        #expect(pushes.take(a) == "a")
        let c = pushes.add("c")
        #expect(c == a)                       // the freed slot is reused
        #expect(pushes.take(b) == "b")
        #expect(pushes.take(c) == "c")
    }

    @Test func aBurstLargerThanTheKeptSlabStillAnswersEveryTag() {
        var pushes = PendingPushes<Int>()
        let tags = (0..<5000).map { pushes.add($0) }
        for (i, tag) in tags.enumerated() { #expect(pushes.take(tag) == i) }
        // The slab was given back when the last push was answered; new tags start over.
        #expect(pushes.add(7) == 0)
    }
}
