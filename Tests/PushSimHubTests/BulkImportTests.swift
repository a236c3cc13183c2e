import Testing
import PushSimKernel
import PushSimNetwork
@testable import PushSimHub

/// The bulk import and the routing query used by the scale benchmark.
@Suite("Hub bulk import and routing")
struct BulkImportTests {
    @Test func importedRegistrationsAreRoutedLikeCreatedOnes() throws {
        let w = HubWorld(services: false)
        var descriptions: [RegistrationDescription] = []
        for i in 0..<100 {
            var tags = ["username:u\(i)"]
            if i % 2 == 0 { tags.append("a") }
            if i % 5 == 0 { tags.append("b") }
            if i % 7 == 0 { tags.append("c") }
            let hex = String(i, radix: 16)
            descriptions.append(RegistrationDescription(platform: .apple, handle: String(repeating: "0", count: 4 - hex.count) + hex, tags: tags))
        }
        let ids = try w.hub.importRegistrations(descriptions, world: w.world).get()
        #expect(ids.count == 100)
        #expect(ids.first == "76592028274533430-4765052952699024478-2")
        // (a && !b) || c: even and not a multiple of 5, or a multiple of 7.
        let expected = (0..<100).filter { ($0 % 2 == 0 && $0 % 5 != 0) || $0 % 7 == 0 }.count
        #expect(try w.hub.route("(a && !b) || c", platform: .apple, now: w.world.now).get() == expected)
        #expect(try w.hub.route("a", platform: .fcmV1, now: w.world.now).get() == 0)
        #expect(w.exists("5405055771169034372-8853756230710598892-3"))
        #expect(w.byChannel("0063")?.map(\.registrationID) == ["5405055771169034372-8853756230710598892-3"])   // stored upper-case, as created ones are
    }

    @Test func importAppliesTheTagRules() {
        let w = HubWorld(services: false)
        let bad = [RegistrationDescription(platform: .apple, handle: "AB", tags: ["not ok"])]
        #expect(throws: AtomProblem.self) { try w.hub.importRegistrations(bad, world: w.world).get() }
        let retired = [RegistrationDescription(platform: .gcm, handle: "x")]
        #expect(throws: AtomProblem.self) { try w.hub.importRegistrations(retired, world: w.world).get() }
    }
}

/// The tag index answers expressions exactly like evaluating each registration's tags.
@Suite("Hub tag index")
struct TagIndexTests {
    @Test func sortedMergesAreSetOperations() {
        #expect(SortedMerge.intersection([1, 3, 5, 7], [3, 4, 5, 8]) == [3, 5])
        #expect(SortedMerge.union([1, 3, 5], [2, 3, 6]) == [1, 2, 3, 5, 6])
        #expect(SortedMerge.difference([1, 2, 3, 4, 5], [2, 4, 9]) == [1, 3, 5])
        #expect(SortedMerge.union([], [4]) == [4])
        #expect(SortedMerge.lowerBound([1, 3, 5], 4) == 2)
        #expect(SortedMerge.lowerBound([1, 3, 5], 0) == 0)
        #expect(SortedMerge.lowerBound([1, 3, 5], 9) == 3)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func indexRoutingEqualsBruteForce(seed: UInt64) throws {
        let w = HubWorld(services: false)
        var random = SeededRandom(seed: seed)
        let tagNames = ["a", "b", "c", "d"]
        var tagsOf: [[String]] = []
        var descriptions: [RegistrationDescription] = []
        for i in 0..<400 {
            let tags = tagNames.filter { _ in random.chance(Ratio(1, 3)) }
            tagsOf.append(tags)
            descriptions.append(RegistrationDescription(platform: random.chance(Ratio(1, 5)) ? .fcmV1 : .apple,
                                                        handle: "h\(i)", tags: tags))
        }
        let ids = try w.hub.importRegistrations(descriptions, world: w.world).get()
        // Delete some and re-upsert others with new tags, so the index sees removals and moves.
        for i in stride(from: 0, to: 400, by: 13) { _ = w.raw("DELETE", w.path("registrations/\(ids[i])")) }
        let expressions = ["a", "!a", "a && b", "a || b", "a && !b", "!a && b", "(a && !b) || c", "!(a || b)", "a && b && !c || d",
                           "(a || b) && (c || d)", "!a && !b", "a && (b || !c)"]
        for text in expressions {
            let expression = try TagExpressionParser.parse(text).get()
            let expected = (0..<400).filter { i in
                i % 13 != 0 && descriptions[i].platform == .apple && expression.matches { tagsOf[i].contains($0) }
            }.count
            #expect(try w.hub.route(text, platform: .apple, now: w.world.now).get() == expected, "\(text)")
        }
    }
}
