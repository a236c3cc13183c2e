import PushSimKernel

/// An installation as the hub keeps it: the client's fields, checked and with templates compiled,
/// plus what only the hub knows (when it was written, when it expires, whether its channel is dead).
struct StoredInstallation {
    var id: String
    var platform: RegistrationPlatform
    var pushChannel: String
    /// The client's tags, sorted and unique.
    var tags: [String]
    /// Looked up by name; iterated only through `templateNames`.
    var templates: [String: HubTemplate]
    var userID: String?
    /// The client's push variables (kept and read back only).
    var pushVariables: [String: String] = [:]
    /// Nil: never.
    var expiresAt: VirtualTime?
    var pushChannelExpired: Bool
    var updatedAt: VirtualTime
    /// When it was first written (kept across overwrites and patches).
    var createdAt: VirtualTime
    /// 1 when created, one more with each overwrite or patch: the ETag of the registrations the
    /// hub shows for it (see ``registrations``).
    var etag = 1
    /// The registration number of its native registration and of each template's, from the hub's
    /// registration counter (see ``registrations``); 0 until the hub assigns them.
    var registrationNumber = 0
    var templateRegistrationNumbers: [String: Int] = [:]

    var templateNames: [String] { templates.keys.sorted() }

    /// `$InstallationId:{id}` and, with a user id, `$UserId:{userId}` (NH-REG), in that order.
    var implicitTags: [String] { [Installation.installationTag(id)] + (userID.map { [Installation.userTag($0)] } ?? []) }

    /// Every tag a send can select it by: its implicit tags, its own, and its templates'.
    var indexedTags: [String] {
        var all = implicitTags + tags
        for name in templateNames { all += templates[name]!.tags }
        return all
    }

    /// Whether the installation carries `tag`: its own tags plus `$InstallationId:{id}` and, with a
    /// user id, `$UserId:{userId}` (NH-REG).
    func hasTag(_ tag: String) -> Bool {
        tag == Installation.installationTag(id) || (userID.map { tag == Installation.userTag($0) } ?? false)
            || tags.contains(tag)
    }

    /// The installation as the REST API shows it.
    func model(anchor: CalendarAnchor) -> Installation {
        var i = Installation(installationID: id, platform: platform, pushChannel: pushChannel, tags: tags,
                             userID: userID, expirationTime: expiresAt.map(anchor.iso8601) ?? Installation.neverExpires)
        for name in templateNames {
            let t = templates[name]!
            i.templates[name] = InstallationTemplate(body: t.compiled.source, tags: t.tags, headers: t.sourceHeaders,
                                                     expiry: t.expiry)
        }
        i.pushVariables = pushVariables
        i.pushChannelExpired = pushChannelExpired
        return i
    }
}

/// The hub's installations by id, with expiry in virtual time. Ids are kept in a sorted array, so
/// fan-out visits installations in id order; the dictionary is only looked up, never iterated.
/// It also knows which installation each of the registration numbers it was given belongs to (see
/// ``StoredInstallation/registrations``).
struct InstallationStore {
    private var byID: [String: StoredInstallation] = [:]
    private var sortedIDs: [String] = []
    /// Registration number → the id of the installation whose registration it is.
    private var ownerByRegistrationNumber: [Int: String] = [:]
    /// Push channel → the installations holding it: a backend looks a handle up on every
    /// registration, so that lookup does not visit every installation.
    private var byChannel = IDIndex()
    /// Tag → the installations that carry it, implicitly (`$InstallationId:{…}`, `$UserId:{…}`),
    /// as their own or on one of their templates: a send to a tag expression visits only the
    /// installations that can match it (see ``candidates(_:)``).
    private var byTag = IDIndex()

    var count: Int { byID.count }

    /// The id of the installation that registration number `n` belongs to, or nil.
    func owner(ofRegistrationNumber n: Int) -> String? { ownerByRegistrationNumber[n] }

    /// The installation, unless absent or expired by `now` (an expired one is removed).
    mutating func lookup(_ id: String, now: VirtualTime) -> StoredInstallation? {
        guard let i = byID[id] else { return nil }
        if let e = i.expiresAt, e <= now {
            remove(id)
            return nil
        }
        return i
    }

    mutating func upsert(_ i: StoredInstallation) {
        if let old = byID[i.id] {
            unindex(old)
        } else {
            sortedIDs.insert(i.id, at: IDIndex.insertionIndex(i.id, in: sortedIDs))
        }
        byID[i.id] = i
        for n in i.allRegistrationNumbers { ownerByRegistrationNumber[n] = i.id }
        byChannel.add(i.id, under: i.pushChannel)
        for t in i.indexedTags { byTag.add(i.id, under: t) }
    }

    /// Removes an installation; false if there was none.
    @discardableResult
    mutating func remove(_ id: String) -> Bool {
        guard let old = byID.removeValue(forKey: id) else { return false }
        unindex(old)
        let k = IDIndex.insertionIndex(id, in: sortedIDs)
        if k < sortedIDs.count, sortedIDs[k] == id { sortedIDs.remove(at: k) }
        return true
    }

    /// Takes `old` out of the registration-number owners and the channel and tag indexes.
    private mutating func unindex(_ old: StoredInstallation) {
        for n in old.allRegistrationNumbers { ownerByRegistrationNumber[n] = nil }
        byChannel.remove(old.id, from: old.pushChannel)
        for t in old.indexedTags { byTag.remove(old.id, from: t) }
    }

    /// Live installations in id order (expired ones are skipped, not removed).
    func live(now: VirtualTime) -> [StoredInstallation] {
        sortedIDs.compactMap { id in
            guard let i = byID[id] else { return nil }
            if let e = i.expiresAt, e <= now { return nil }
            return i
        }
    }

    /// Live installations holding `channel`, in id order (through the channel index: as many
    /// steps as there are such installations, not as there are installations).
    func installations(channel: String, now: VirtualTime) -> [StoredInstallation] {
        live(byChannel.ids(channel), now: now)
    }

    /// Live installations that may match `expression` (nil: all), in id order: those the tag
    /// index cannot rule out. The caller still checks each one, with its templates' tags.
    func candidates(_ expression: TagExpression?, now: VirtualTime) -> [StoredInstallation] {
        guard let expression, let ids = candidateIDs(expression) else { return live(now: now) }
        return live(ids, now: now)
    }

    /// The ids, ascending, of every installation that can match `e` (a superset), or nil when
    /// the index cannot narrow it (`!a` alone).
    private func candidateIDs(_ e: TagExpression) -> [String]? {
        switch e {
        case .tag(let t): return byTag.ids(t)
        case .not: return nil
        case .and(let a, let b):
            switch (candidateIDs(a), candidateIDs(b)) {
            case let (x?, y?): return SortedMerge.intersection(x, y)
            case let (x?, nil): return x
            case let (nil, y?): return y
            case (nil, nil): return nil
            }
        case .or(let a, let b):
            guard let x = candidateIDs(a), let y = candidateIDs(b) else { return nil }
            return SortedMerge.union(x, y)
        }
    }

    /// The installations of `ids` (ascending) that are live at `now`, in that order.
    private func live(_ ids: [String], now: VirtualTime) -> [StoredInstallation] {
        ids.compactMap { id in
            guard let i = byID[id] else { return nil }
            if let e = i.expiresAt, e <= now { return nil }
            return i
        }
    }
}

/// Keys (channels, tags) → the ids of the installations under each, ascending and unique.
private struct IDIndex {
    private var idsByKey: [String: [String]] = [:]

    /// The ids under `key`, ascending.
    func ids(_ key: String) -> [String] { idsByKey[key] ?? [] }

    // Both change the array inside the dictionary in place: a copy taken out and written back
    // would copy every id under a tag that many installations share, once per write.

    mutating func add(_ id: String, under key: String) {
        let k = Self.insertionIndex(id, in: idsByKey[key] ?? [])
        guard !Self.holds(idsByKey[key], id, at: k) else { return }
        idsByKey[key, default: []].insert(id, at: k)
    }

    mutating func remove(_ id: String, from key: String) {
        let k = Self.insertionIndex(id, in: idsByKey[key] ?? [])
        guard Self.holds(idsByKey[key], id, at: k) else { return }
        idsByKey[key]?.remove(at: k)
        if idsByKey[key]?.isEmpty == true { idsByKey[key] = nil }
    }

    /// Whether `ids` has `id` at `k` (no copy of `ids` outlives the call).
    private static func holds(_ ids: [String]?, _ id: String, at k: Int) -> Bool {
        guard let ids, k < ids.count else { return false }
        return ids[k] == id
    }

    /// Where `id` goes in the ascending `ids`.
    static func insertionIndex(_ id: String, in ids: [String]) -> Int {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
