import PushSimKernel

/// The hub's registrations, with indexes by id, by handle and by tag, and expiry in virtual time.
///
/// Ids come from a counter (`reg-000042`), so "sorted by number" is creation order, which is
/// the order fan-out visits registrations in. No set or dictionary is ever iterated for output.
struct RegistrationStore {
    private(set) var byID: [String: StoredRegistration] = [:]
    private var byHandle: [String: [String]] = [:]          // handle → ids
    private var byTag: [String: Set<Int>] = [:]             // tag → registration numbers
    private var idOfNumber: [Int: String] = [:]
    /// Ids handed out by Create Registration ID and not used yet.
    private var issued: Set<String> = []
    private var counter = 0

    var count: Int { byID.count }

    /// A new id (Create Registration ID).
    mutating func issueID() -> String {
        counter += 1
        let id = "reg-" + String(repeating: "0", count: max(0, 6 - String(counter).count)) + String(counter)
        issued.insert(id)
        return id
    }

    enum Lookup { case live(StoredRegistration), issuedUnused, gone }

    /// Looks an id up, removing it first if it has expired by `now`.
    mutating func lookup(_ id: String, now: VirtualTime) -> Lookup {
        if let r = byID[id] {
            if let e = r.expiresAt, e <= now { remove(id); return .gone }
            return .live(r)
        }
        return issued.contains(id) ? .issuedUnused : .gone
    }

    /// Whether a live registration has expired by `now` (without removing it).
    func isExpired(_ r: StoredRegistration, now: VirtualTime) -> Bool { r.expiresAt.map { $0 <= now } ?? false }

    mutating func upsert(_ r: StoredRegistration) {
        if byID[r.id] != nil { remove(r.id) }
        issued.remove(r.id)
        byID[r.id] = r
        idOfNumber[r.number] = r.id
        byHandle[r.handle, default: []].append(r.id)
        for t in r.tags { byTag[t, default: []].insert(r.number) }
    }

    @discardableResult
    mutating func remove(_ id: String) -> StoredRegistration? {
        guard let r = byID.removeValue(forKey: id) else { return nil }
        idOfNumber[r.number] = nil
        byHandle[r.handle]?.removeAll { $0 == id }
        if byHandle[r.handle]?.isEmpty == true { byHandle[r.handle] = nil }
        for t in r.tags {
            byTag[t]?.remove(r.number)
            if byTag[t]?.isEmpty == true { byTag[t] = nil }
        }
        return r
    }

    /// Live registrations holding `handle`, oldest first; expired ones are removed on the way.
    mutating func registrations(handle: String, now: VirtualTime) -> [StoredRegistration] {
        let ids = byHandle[handle] ?? []
        var out: [StoredRegistration] = []
        for id in ids { if case .live(let r) = lookup(id, now: now) { out.append(r) } }
        return out.sorted { $0.number < $1.number }
    }

    static func number(of id: String) -> Int { Int(id.dropFirst(4)) ?? 0 }

    /// Live registrations of `platform` matching `expression` (nil: all), oldest first.
    /// Candidates come from the tag index when the expression needs a tag to match.
    /// `template`: true for template registrations only, false for native ones only, nil for both.
    func matching(_ expression: TagExpression?, platform: RegistrationPlatform, now: VirtualTime,
                  template: Bool? = nil) -> [StoredRegistration] {
        var numbers: [Int]
        if let expression, let candidates = candidateNumbers(expression) {
            numbers = candidates.sorted()
        } else {
            numbers = idOfNumber.keys.sorted()
        }
        var out: [StoredRegistration] = []
        for n in numbers {
            guard let id = idOfNumber[n], let r = byID[id], r.platform == platform, !isExpired(r, now: now) else { continue }
            if let template, (r.template != nil) != template { continue }
            if let expression, !expression.matches({ r.tags.contains($0) }) { continue }
            out.append(r)
        }
        return out
    }

    /// Registration numbers that can possibly match, or nil when any registration might (e.g. `!a`).
    private func candidateNumbers(_ e: TagExpression) -> Set<Int>? {
        switch e {
        case .tag(let t): return byTag[t] ?? []
        case .not: return nil
        case .and(let a, let b):
            switch (candidateNumbers(a), candidateNumbers(b)) {
            case let (x?, y?): return x.intersection(y)
            case let (x?, nil): return x
            case let (nil, y?): return y
            case (nil, nil): return nil
            }
        case .or(let a, let b):
            guard let x = candidateNumbers(a), let y = candidateNumbers(b) else { return nil }
            return x.union(y)
        }
    }
}
