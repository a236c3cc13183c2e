import Testing
import PushSimKernel
@testable import PushSimHub

/// The compact registration store answers like a plain list of registrations: random writes,
/// deletes, expiries and queries, checked against a straightforward model.
@Suite("Hub registration store")
struct RegistrationStoreModelTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func storeAgreesWithAPlainModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var store = RegistrationStore()
        var model: [Int: StoredRegistration] = [:]   // live registrations by number
        var issued = 0
        var unused = Set<Int>()
        var now = VirtualTime.zero
        let handles = (0..<25).map { "H\($0)" }
        let sharedTags = ["a", "b", "c", "d", "e", "f"]
        let platforms: [RegistrationPlatform] = [.apple, .fcmV1, .windows]

        func modelExpire(_ n: Int) {
            if let r = model[n], let e = r.expiresAt, e <= now { model[n] = nil }
        }

        for step in 0..<4_000 {
            now = now + .seconds(Int64(random.int(below: 3)))
            switch random.int(below: 10) {
            case 0, 1:
                let id = store.issueID()
                issued += 1
                #expect(id == RegistrationStore.id(issued))
                unused.insert(issued)
            case 2, 3, 4:
                guard issued > 0 else { continue }
                let n = 1 + random.int(below: issued)
                var tags = sharedTags.filter { _ in random.chance(Ratio(1, 3)) }
                if random.chance(Ratio(1, 2)) { tags.append("u\(random.int(below: 400))") }
                random.shuffle(&tags)
                let id = RegistrationStore.id(n)
                let expires: VirtualTime? = random.chance(Ratio(1, 3)) ? nil : now + .seconds(Int64(1 + random.int(below: 200)))
                let r = StoredRegistration(number: n, id: id, platform: random.pick(platforms)!,
                                           handle: random.pick(handles)!, tags: tags, updatedAt: now,
                                           expiresAt: expires, etag: 1 + random.int(below: 5))
                store.upsert(r)
                model[n] = r
                unused.remove(n)
            case 5:
                guard issued > 0 else { continue }
                let n = 1 + random.int(below: issued)
                let removed = store.remove(RegistrationStore.id(n))
                #expect(removed?.id == model[n]?.id)
                model[n] = nil
            case 6:
                guard issued > 0 else { continue }
                let n = 1 + random.int(below: issued)
                modelExpire(n)
                switch store.lookup(RegistrationStore.id(n), now: now) {
                case .live(let r):
                    let m = model[n]
                    #expect(m != nil, "step \(step)")
                    #expect(r.id == m?.id && r.handle == m?.handle && r.platform == m?.platform && r.etag == m?.etag)
                    #expect(r.tags == m?.tags.sorted() && r.updatedAt == m?.updatedAt && r.expiresAt == m?.expiresAt)
                case .issuedUnused: #expect(model[n] == nil && unused.contains(n))
                case .gone: #expect(model[n] == nil && !unused.contains(n))
                }
            case 7:
                let handle = random.pick(handles)!
                for n in model.keys.sorted() where model[n]!.handle == handle { modelExpire(n) }
                let expected = model.keys.sorted().filter { model[$0]!.handle == handle }
                #expect(store.registrations(handle: handle, now: now).map(\.number) == expected, "step \(step)")
            default:
                let texts = ["a", "a && !b", "(a && !b) || c", "!a", "a && b && !c || d", "u7 || e", "!(a || u3) && f"]
                let expression = try! TagExpressionParser.parse(random.pick(texts)!).get()
                let platform = random.pick(platforms)!
                let expected = model.keys.sorted().filter { n in
                    let r = model[n]!
                    return r.platform == platform && (r.expiresAt.map { $0 > now } ?? true) && expression.matches { r.tags.contains($0) }
                }
                let numbers = store.matchingNumbers(expression, platform: platform, now: now)
                #expect(numbers.map(Int.init) == expected, "step \(step)")
                // The fan-out's lazily built targets are those of the registrations themselves.
                let targets = SendTargets(registrations: numbers, of: store.snapshot, then: [])
                #expect(targets.count == expected.count && targets.platforms == (expected.isEmpty ? [] : [platform]))
                for (k, n) in expected.enumerated() {
                    let t = targets[k], m = model[n]!
                    #expect(t.label == m.id && t.registrationID == m.id && t.handle == m.handle && t.platform == m.platform
                            && t.updatedAt == m.updatedAt && t.template == nil && t.ordinal == k, "step \(step)")
                }
            }
            #expect(store.count == model.count, "step \(step)")
        }
    }

    /// A snapshot (what a fan-out reads its registrations from) keeps them as they were when it
    /// was taken, whatever is written to the store afterwards.
    @Test func aSnapshotKeepsTheRegistrationsAsTheyWere() {
        var store = RegistrationStore()
        for n in 1...3 {
            _ = store.issueID()
            store.upsert(StoredRegistration(number: n, id: RegistrationStore.id(n), platform: .apple, handle: "H\(n)", tags: ["t"],
                                            updatedAt: .zero, expiresAt: nil, etag: 1))
        }
        let targets = SendTargets(registrations: [1, 2, 3], of: store.snapshot, then: [])
        store.upsert(StoredRegistration(number: 2, id: RegistrationStore.id(2), platform: .fcmV1, handle: "NEW", tags: [],
                                        updatedAt: .zero + .seconds(9), expiresAt: nil, etag: 2))
        store.remove(RegistrationStore.id(3))
        _ = store.issueID()
        #expect((0..<3).map { targets[$0].handle } == ["H1", "H2", "H3"])
        #expect((0..<3).map { targets[$0].label } == (1...3).map(RegistrationStore.id))
        #expect(targets[1].platform == .apple && targets[1].updatedAt == .zero)
        guard case .live(let now2) = store.lookup(RegistrationStore.id(2), now: .zero) else { Issue.record("registration 2 is gone"); return }
        #expect(now2.handle == "NEW" && now2.id == RegistrationStore.id(2))
    }

    /// Enough keys for hash fingerprints to collide and runs to wrap around the table's end.
    @Test func postingsIndexAgreesWithADictionary() {
        var random = SeededRandom(seed: 7)
        var index = PostingsIndex()
        var keys: [Int32: String] = [:]          // member → its one key
        var expected: [String: [Int32]] = [:]
        let keyOf: PostingsIndex.KeyOf = { n, _ in keys[n]! }
        for n in Int32(1)...60_000 {
            let key = random.chance(Ratio(1, 20)) ? "shared\(random.int(below: 50))" : "k\(random.hex(bytes: 8))"
            keys[n] = key
            index.add(n, position: 0, key: key, keyOf: keyOf)
            expected[key, default: []].append(n)
        }
        for n in Int32(1)...60_000 where random.chance(Ratio(2, 3)) {
            let key = keys[n]!
            index.remove(n, key: key, keyOf: keyOf, positionIn: { _ in 0 })
            expected[key]!.removeAll { $0 == n }
            keys[n] = nil
        }
        index.shrinkToFit()
        for (_, key) in keys.sorted(by: { $0.key < $1.key }) {
            #expect(index.members(of: key, keyOf: keyOf) == expected[key]!)
        }
        #expect(index.members(of: "absent", keyOf: keyOf).isEmpty)
    }
}
