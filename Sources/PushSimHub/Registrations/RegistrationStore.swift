import PushSimKernel

/// The hub's registrations, indexed by id, by handle and by tag, with expiry in virtual time.
///
/// Ids come from a counter, written in the live hub's form (``RegistrationID``), so a
/// registration's number is its slot: lookups by id are array accesses, and "ascending number" is creation order, the order fan-out visits
/// registrations in. The tag index keeps, per tag, the numbers in ascending order, so a tag
/// expression is answered by merging sorted arrays (intersection, union, difference) instead of
/// looking at every registration; only expressions the merge cannot settle (a bare `!a`) scan.
/// No set or dictionary is ever iterated for behaviour or output.
///
/// The layout is compact, for populations of a million (`hub-bench` reports the resident bytes per
/// registration). Registrations are kept column by column, one array per field indexed by number,
/// and handed out as `StoredRegistration` values: per number a one-byte `SlotState` (gone,
/// issued-unused, or live with platform, template flag and whether its tags are sorted), the
/// handle (16 bytes plus its own storage, shared with the caller's string), the tags (8 bytes
/// plus the array, kept in the order given so that it is shared with the caller's; sorted when
/// handed out), `updatedAt` and expiry as Int64 microseconds and the etag as Int32: 45 bytes. The
/// id is not stored, it is rebuilt from the number; templates and the creation times of
/// registrations written more than once are remembered aside. Numbers are Int32. Handles
/// and tags are indexed by `PostingsIndex`, about 10 bytes per key with one member.
struct RegistrationStore {
    /// The registrations themselves, column by column (see ``RegistrationColumns``). The store
    /// reaches each column through a forwarding property of the same name, so its code reads
    /// as if they were its own.
    private var columns = RegistrationColumns()
    private var states: [RegistrationColumns.SlotState] { _read { yield columns.states } _modify { yield &columns.states } }
    private var handles: [String] { _read { yield columns.handles } _modify { yield &columns.handles } }
    private var tagLists: [[String]] { _read { yield columns.tagLists } _modify { yield &columns.tagLists } }
    private var updateTimes: [Int64] { _read { yield columns.updateTimes } _modify { yield &columns.updateTimes } }
    private var expiryTimes: [Int64] { _read { yield columns.expiryTimes } _modify { yield &columns.expiryTimes } }
    private var etags: [Int32] { _read { yield columns.etags } _modify { yield &columns.etags } }
    private var templates: [Int32: HubTemplate] { _read { yield columns.templates } _modify { yield &columns.templates } }
    private var creationTimes: [Int32: Int64] { _read { yield columns.creationTimes } _modify { yield &columns.creationTimes } }
    private var pushVariables: [Int32: [String: String]] { _read { yield columns.pushVariables } _modify { yield &columns.pushVariables } }
    private var byHandle = PostingsIndex()   // handle → numbers, ascending
    private var byTag = PostingsIndex()      // tag → numbers, ascending
    private(set) var count = 0

    /// The expiry of a registration that never expires.
    private static let never = RegistrationColumns.never
    private typealias SlotState = RegistrationColumns.SlotState

    /// The columns as they are now, for a fan-out to read its registrations from later (see
    /// ``SendTargets``): a copy-on-write value, so taking it copies nothing, and a column written
    /// while the copy is held is copied once.
    var snapshot: RegistrationColumns { columns }

    /// A new id (Create Registration ID).
    mutating func issueID() -> String {
        let n = states.count
        precondition(n < Int(Int32.max), "registration numbers are Int32")
        states.append(.issuedUnused)
        handles.append("")
        tagLists.append([])
        updateTimes.append(0)
        expiryTimes.append(0)
        etags.append(0)
        return Self.id(n)
    }

    /// A new number that no registration written through the registration API will ever hold (its
    /// slot stays gone): for the registrations the hub shows for an installation
    /// (``StoredInstallation/registrations``).
    mutating func reserveNumber() -> Int {
        let n = states.count
        _ = issueID()
        states[n] = .gone
        return n
    }

    /// Makes room for `registrations` more numbers and `tags` more distinct tags at most, so a
    /// large bulk import grows each column and index once; `fitIndexes` gives back what it did not
    /// use. It sizes exactly, like `Array.reserveCapacity`: for large batches, not in a loop.
    mutating func reserveCapacity(registrations: Int, tags: Int) {
        let total = states.count + registrations
        states.reserveCapacity(total)
        handles.reserveCapacity(total)
        tagLists.reserveCapacity(total)
        updateTimes.reserveCapacity(total)
        expiryTimes.reserveCapacity(total)
        etags.reserveCapacity(total)
        byHandle.reserveCapacity(registrations)
        byTag.reserveCapacity(tags)
    }

    /// Shrinks the indexes to fit their keys, after `reserveCapacity` made room for every tag a
    /// bulk import named (repeats included).
    mutating func fitIndexes() {
        byHandle.shrinkToFit()
        byTag.shrinkToFit()
    }

    /// The id issued for number `n`, in the live hub's form (``RegistrationID``).
    static func id(_ n: Int) -> String { RegistrationID.id(n) }

    enum Lookup { case live(StoredRegistration), issuedUnused, gone }

    /// The number `id` names; 0 for a text that is no id the store issues.
    static func number(of id: String) -> Int { RegistrationID.number(of: id) }

    private func slot(_ id: String) -> Int? {
        let n = Self.number(of: id)
        return n > 0 && n < states.count ? n : nil
    }

    /// Looks an id up, removing it first if it has expired by `now`.
    mutating func lookup(_ id: String, now: VirtualTime) -> Lookup {
        guard let n = slot(id) else { return .gone }
        return lookup(number: n, now: now)
    }

    private mutating func lookup(number n: Int, now: VirtualTime) -> Lookup {
        let state = states[n]
        if state.isLive {
            if isExpired(n, now: now) { removeLive(n); return .gone }
            return .live(registration(n))
        }
        return state == .issuedUnused ? .issuedUnused : .gone
    }

    /// Whether live registration `n` has expired by `now` (without removing it).
    private func isExpired(_ n: Int, now: VirtualTime) -> Bool {
        let expiry = expiryTimes[n]
        return expiry != Self.never && expiry <= now.microseconds
    }

    /// Live registration `n` as a value.
    private func registration(_ n: Int) -> StoredRegistration { columns.registration(n) }

    /// Live registration `n` as a send's target (``RegistrationColumns/sendTarget(_:)``).
    func sendTarget(_ n: Int) -> SendTarget { columns.sendTarget(n) }

    mutating func upsert(_ r: StoredRegistration) {
        guard r.number > 0 && r.number < states.count else { preconditionFailure("registration \(r.id) was never issued") }
        let n = r.number
        if states[n].isLive { removeLive(n) }
        precondition(r.expiresAt?.microseconds != Self.never, "expiry \(Self.never) µs means never")
        states[n] = .live(r.platform, template: r.template != nil,
                          tagsUnsorted: zip(r.tags, r.tags.dropFirst()).contains { !($0 < $1) })
        handles[n] = r.handle
        tagLists[n] = r.tags
        updateTimes[n] = r.updatedAt.microseconds
        expiryTimes[n] = r.expiresAt?.microseconds ?? Self.never
        etags[n] = Int32(r.etag)
        if let template = r.template { templates[Int32(n)] = template }
        if let created = r.createdAt, created != r.updatedAt { creationTimes[Int32(n)] = created.microseconds }
        if !r.pushVariables.isEmpty { pushVariables[Int32(n)] = r.pushVariables }
        count += 1
        addToIndexes(n)
    }

    @discardableResult
    mutating func remove(_ id: String) -> StoredRegistration? {
        guard let n = slot(id), states[n].isLive else { return nil }
        let r = registration(n)
        removeLive(n)
        return r
    }

    private mutating func removeLive(_ n: Int) {
        removeFromIndexes(n)
        if states[n].isTemplate { templates[Int32(n)] = nil }
        states[n] = .gone
        handles[n] = ""
        tagLists[n] = []
        if !creationTimes.isEmpty { creationTimes[Int32(n)] = nil }
        if !pushVariables.isEmpty { pushVariables[Int32(n)] = nil }
        count -= 1
    }

    // The indexes read keys back from the columns; the closures capture local copies (the same
    // storage, not a copy), which end with these functions, before any column is written again.
    private mutating func addToIndexes(_ n: Int) {
        let handles = self.handles, tagLists = self.tagLists
        let number = Int32(n)
        byHandle.add(number, position: 0, key: handles[n]) { m, _ in handles[Int(m)] }
        for (position, tag) in tagLists[n].enumerated() {
            byTag.add(number, position: position, key: tag) { m, p in tagLists[Int(m)][p] }
        }
    }

    private mutating func removeFromIndexes(_ n: Int) {
        let handles = self.handles, tagLists = self.tagLists
        let number = Int32(n)
        byHandle.remove(number, key: handles[n], keyOf: { m, _ in handles[Int(m)] }, positionIn: { _ in 0 })
        for tag in tagLists[n] {
            byTag.remove(number, key: tag, keyOf: { m, p in tagLists[Int(m)][p] },
                         positionIn: { m in tagLists[Int(m)].firstIndex(of: tag)! })
        }
    }

    private func numbers(tag: String) -> [Int32] {
        let tagLists = self.tagLists
        return byTag.members(of: tag) { m, p in tagLists[Int(m)][p] }
    }

    private func numbers(handle: String) -> [Int32] {
        let handles = self.handles
        return byHandle.members(of: handle) { m, _ in handles[Int(m)] }
    }

    /// Live registrations holding `handle`, oldest first; expired ones are removed on the way.
    mutating func registrations(handle: String, now: VirtualTime) -> [StoredRegistration] {
        var out: [StoredRegistration] = []
        for n in numbers(handle: handle) {
            if case .live(let r) = lookup(number: Int(n), now: now) { out.append(r) }
        }
        return out
    }

    /// Live registrations of `platform` matching `expression` (nil: all), oldest first.
    /// `template`: true for template registrations only, false for native ones only, nil for both.
    func matching(_ expression: TagExpression?, platform: RegistrationPlatform, now: VirtualTime,
                  template: Bool? = nil) -> [StoredRegistration] {
        matchingNumbers(expression, platform: platform, now: now, template: template).map { registration(Int($0)) }
    }

    /// ``matchingNumbers(_:platform:now:template:)`` for a store held in a class (the hub's), read
    /// in place instead of copied, for the reason ``SendTargets/readInPlace(_:)`` gives. Nothing is changed.
    mutating func matchingNumbersReadInPlace(_ expression: TagExpression?, platform: RegistrationPlatform, now: VirtualTime,
                                             template: Bool? = nil) -> [Int32] {
        matchingNumbers(expression, platform: platform, now: now, template: template)
    }

    /// The numbers of the registrations `matching` returns. Candidates are read in place
    /// (member by member), never copied whole: routing a million registrations stays cheap.
    func matchingNumbers(_ expression: TagExpression?, platform: RegistrationPlatform, now: VirtualTime,
                         template: Bool? = nil) -> [Int32] {
        // A slot qualifies when its live and platform bits, and its template bit if asked for,
        // are those of `wanted`.
        let wanted = SlotState.live(platform, template: template ?? false).bits
        let mask: UInt8 = template == nil ? 0x8E : 0x8F
        var out: [Int32] = []
        func consider(_ n: Int, check: Bool) {
            guard states[n].bits & mask == wanted & mask, !isExpired(n, now: now) else { return }
            if check, let expression, !expression.matches({ tagLists[n].contains($0) }) { return }
            out.append(Int32(n))
        }
        if let expression, let (numbers, exact) = candidates(expression) {
            out.reserveCapacity(numbers.count)
            for n in numbers { consider(Int(n), check: !exact) }
        } else {
            for n in 1..<states.count where states[n].isLive { consider(n, check: true) }
        }
        return out
    }

    /// The numbers that can match `e`, ascending, and whether they are exactly the matches (so no
    /// registration needs its tags checked); nil when the index cannot narrow it (`!a` alone).
    private func candidates(_ e: TagExpression) -> (numbers: [Int32], exact: Bool)? {
        switch e {
        case .tag(let t):
            return (numbers(tag: t), true)
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
}

/// Linear-time set operations on ascending arrays of distinct elements (registration numbers).
enum SortedMerge {
    static func intersection<T: Comparable>(_ a: [T], _ b: [T]) -> [T] {
        var out: [T] = []
        out.reserveCapacity(min(a.count, b.count))
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] { i += 1 } else if a[i] > b[j] { j += 1 } else { out.append(a[i]); i += 1; j += 1 }
        }
        return out
    }

    static func union<T: Comparable>(_ a: [T], _ b: [T]) -> [T] {
        var out: [T] = []
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
    static func difference<T: Comparable>(_ a: [T], _ b: [T]) -> [T] {
        var out: [T] = []
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
    static func lowerBound<T: Comparable>(_ list: [T], _ n: T) -> Int {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid] < n { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
