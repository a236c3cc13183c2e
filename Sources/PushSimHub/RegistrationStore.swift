import PushSimKernel

/// The hub's registrations, indexed by id, by handle and by tag, with expiry in virtual time.
///
/// Ids come from a counter (`reg-000042`), so a registration's number is its slot: lookups by id
/// are array accesses, and "ascending number" is creation order, the order fan-out visits
/// registrations in. The tag index keeps, per tag, the numbers in ascending order, so a tag
/// expression is answered by merging sorted arrays (intersection, union, difference) instead of
/// looking at every registration; only expressions the merge cannot settle (a bare `!a`) scan.
/// No set or dictionary is ever iterated for behaviour or output.
struct RegistrationStore {
    /// Slot `n` holds registration number `n` while it is live (slot 0 is unused).
    private var slots: [StoredRegistration?] = [nil]
    /// Per number: issued by Create Registration ID but not used yet.
    private var issuedUnused: [Bool] = [false]
    private var byHandle: [String: [Int]] = [:]   // handle → numbers, ascending
    private var byTag: [String: [Int]] = [:]      // tag → numbers, ascending
    private(set) var count = 0

    /// A new id (Create Registration ID).
    mutating func issueID() -> String {
        slots.append(nil)
        issuedUnused.append(true)
        let n = slots.count - 1
        return "reg-" + String(repeating: "0", count: max(0, 6 - String(n).count)) + String(n)
    }

    enum Lookup { case live(StoredRegistration), issuedUnused, gone }

    static func number(of id: String) -> Int {
        guard id.hasPrefix("reg-"), let n = Int(id.dropFirst(4)) else { return 0 }
        return n
    }

    private func slot(_ id: String) -> Int? {
        let n = Self.number(of: id)
        return n > 0 && n < slots.count ? n : nil
    }

    /// Looks an id up, removing it first if it has expired by `now`.
    mutating func lookup(_ id: String, now: VirtualTime) -> Lookup {
        guard let n = slot(id) else { return .gone }
        if let r = slots[n] {
            if isExpired(r, now: now) { remove(id); return .gone }
            return .live(r)
        }
        return issuedUnused[n] ? .issuedUnused : .gone
    }

    /// Whether a live registration has expired by `now` (without removing it).
    func isExpired(_ r: StoredRegistration, now: VirtualTime) -> Bool { r.expiresAt.map { $0 <= now } ?? false }

    mutating func upsert(_ r: StoredRegistration) {
        guard r.number > 0 && r.number < slots.count else { preconditionFailure("registration \(r.id) was never issued") }
        if slots[r.number] != nil { remove(r.id) }
        issuedUnused[r.number] = false
        slots[r.number] = r
        count += 1
        Self.insert(r.number, into: &byHandle[r.handle, default: []])
        for t in r.tags { Self.insert(r.number, into: &byTag[t, default: []]) }
    }

    @discardableResult
    mutating func remove(_ id: String) -> StoredRegistration? {
        guard let n = slot(id), let r = slots[n] else { return nil }
        slots[n] = nil
        count -= 1
        Self.erase(n, from: &byHandle, key: r.handle)
        for t in r.tags { Self.erase(n, from: &byTag, key: t) }
        return r
    }

    /// Live registrations holding `handle`, oldest first; expired ones are removed on the way.
    mutating func registrations(handle: String, now: VirtualTime) -> [StoredRegistration] {
        var out: [StoredRegistration] = []
        for n in byHandle[handle] ?? [] {
            if case .live(let r) = lookup(slots[n]?.id ?? "", now: now) { out.append(r) }
        }
        return out
    }

    /// Live registrations of `platform` matching `expression` (nil: all), oldest first.
    /// `template`: true for template registrations only, false for native ones only, nil for both.
    func matching(_ expression: TagExpression?, platform: RegistrationPlatform, now: VirtualTime,
                  template: Bool? = nil) -> [StoredRegistration] {
        matchingNumbers(expression, platform: platform, now: now, template: template).map { slots[$0]! }
    }

    /// The numbers of the registrations `matching` returns. Candidates are read in place
    /// (member by member), never copied whole: routing a million registrations stays cheap.
    func matchingNumbers(_ expression: TagExpression?, platform: RegistrationPlatform, now: VirtualTime,
                         template: Bool? = nil) -> [Int] {
        var out: [Int] = []
        func consider(_ n: Int, check: Bool) {
            guard slots[n]?.platform == platform else { return }
            if let e = slots[n]!.expiresAt, e <= now { return }
            if let template, (slots[n]!.template != nil) != template { return }
            if check, let expression, !expression.matches({ slots[n]!.tags.contains($0) }) { return }
            out.append(n)
        }
        if let expression, let (numbers, exact) = candidates(expression) {
            out.reserveCapacity(numbers.count)
            for n in numbers { consider(n, check: !exact) }
        } else {
            for n in 1..<slots.count where slots[n] != nil { consider(n, check: true) }
        }
        return out
    }

    /// The numbers that can match `e`, ascending, and whether they are exactly the matches (so no
    /// registration needs its tags checked); nil when the index cannot narrow it (`!a` alone).
    private func candidates(_ e: TagExpression) -> (numbers: [Int], exact: Bool)? {
        switch e {
        case .tag(let t):
            return (byTag[t] ?? [], true)
        case .not:
            return nil
        case .and(let a, .not(let b)), .and(.not(let b), let a):
            guard let x = candidates(a) else { return nil }
            guard let y = candidates(b), y.exact else { return (x.numbers, false) }
            return (SortedMerge.difference(x.numbers, y.numbers), x.exact)
        case .and(let a, let b):
            switch (candidates(a), candidates(b)) {
            case let (x?, y?): return (SortedMerge.intersection(x.numbers, y.numbers), x.exact && y.exact)
            case let (x?, nil): return (x.numbers, false)
            case let (nil, y?): return (y.numbers, false)
            case (nil, nil): return nil
            }
        case .or(let a, let b):
            guard let x = candidates(a), let y = candidates(b) else { return nil }
            return (SortedMerge.union(x.numbers, y.numbers), x.exact && y.exact)
        }
    }

    /// Inserts `n` into an ascending array (appending when it is the largest, the common case).
    private static func insert(_ n: Int, into list: inout [Int]) {
        if let last = list.last, last >= n {
            let i = SortedMerge.lowerBound(list, n)
            if i < list.count && list[i] == n { return }
            list.insert(n, at: i)
        } else {
            list.append(n)
        }
    }

    private static func erase(_ n: Int, from index: inout [String: [Int]], key: String) {
        guard var list = index[key] else { return }
        let i = SortedMerge.lowerBound(list, n)
        if i < list.count && list[i] == n { list.remove(at: i) }
        index[key] = list.isEmpty ? nil : list
    }
}

/// Linear-time set operations on ascending arrays of distinct integers.
enum SortedMerge {
    static func intersection(_ a: [Int], _ b: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(min(a.count, b.count))
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] { i += 1 } else if a[i] > b[j] { j += 1 } else { out.append(a[i]); i += 1; j += 1 }
        }
        return out
    }

    static func union(_ a: [Int], _ b: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) { out.append(a[i]); i += 1 }
            else if i == a.count || b[j] < a[i] { out.append(b[j]); j += 1 }
            else { out.append(a[i]); i += 1; j += 1 }
        }
        return out
    }

    /// `a` without the elements of `b`.
    static func difference(_ a: [Int], _ b: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(a.count)
        var j = 0
        for x in a {
            while j < b.count && b[j] < x { j += 1 }
            if j < b.count && b[j] == x { continue }
            out.append(x)
        }
        return out
    }

    /// The first index whose element is not less than `n`.
    static func lowerBound(_ list: [Int], _ n: Int) -> Int {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid] < n { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
