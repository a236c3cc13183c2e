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
        #expect(ids.first == "reg-000001")
        // (a && !b) || c: even and not a multiple of 5, or a multiple of 7.
        let expected = (0..<100).filter { ($0 % 2 == 0 && $0 % 5 != 0) || $0 % 7 == 0 }.count
        #expect(try w.hub.route("(a && !b) || c", platform: .apple, now: w.world.now).get() == expected)
        #expect(try w.hub.route("a", platform: .fcmV1, now: w.world.now).get() == 0)
        #expect(w.exists("reg-000100"))
        #expect(w.byChannel("0063")?.map(\.registrationID) == ["reg-000100"])   // stored upper-case, as created ones are
    }

    @Test func importAppliesTheTagRules() {
        let w = HubWorld(services: false)
        let bad = [RegistrationDescription(platform: .apple, handle: "AB", tags: ["not ok"])]
        #expect(throws: AtomProblem.self) { try w.hub.importRegistrations(bad, world: w.world).get() }
        let retired = [RegistrationDescription(platform: .gcm, handle: "x")]
        #expect(throws: AtomProblem.self) { try w.hub.importRegistrations(retired, world: w.world).get() }
    }
}
