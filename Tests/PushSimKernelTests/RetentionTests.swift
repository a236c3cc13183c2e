import PushSimKernel
import Testing

@Suite struct RetentionTests {
    /// Nothing goes until the list is an eighth (plus one) past the limit; then it is cut back to
    /// the limit, the oldest first.
    @Test func dropsTheOldestInBatches() {
        let keep = Retention(keeping: 16)
        var items: [Int] = []
        var dropped = 0
        for i in 0..<100 {
            items.append(i)
            dropped += keep.trim(&items)
            #expect(items.count <= 16 + 2 + 1)
            #expect(items.last == i)
        }
        #expect(dropped + items.count == 100)
        #expect(items == Array((100 - items.count)..<100))
    }

    @Test func trimNowCutsToTheLimitAtOnce() {
        var items = Array(0..<10)
        #expect(Retention(keeping: 4).trim(&items, now: true) == 6)
        #expect(items == [6, 7, 8, 9])
        #expect(Retention(keeping: 4).trim(&items, now: true) == 0)
        var none = [1, 2]
        #expect(Retention(keeping: -3).trim(&none, now: true) == 2)
        #expect(none.isEmpty)
    }
}
