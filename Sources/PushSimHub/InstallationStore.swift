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
    /// Push channel → the ids of the installations holding it, sorted: a backend looks a handle up
    /// on every registration, so that lookup does not visit every installation.
    private var idsByChannel: [String: [String]] = [:]

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
            for n in old.allRegistrationNumbers { ownerByRegistrationNumber[n] = nil }
            if old.pushChannel != i.pushChannel { forget(i.id, channel: old.pushChannel) }
        } else {
            sortedIDs.insert(i.id, at: Self.insertionIndex(i.id, in: sortedIDs))
        }
        byID[i.id] = i
        for n in i.allRegistrationNumbers { ownerByRegistrationNumber[n] = i.id }
        var holders = idsByChannel[i.pushChannel] ?? []
        let k = Self.insertionIndex(i.id, in: holders)
        if k == holders.count || holders[k] != i.id { holders.insert(i.id, at: k) }
        idsByChannel[i.pushChannel] = holders
    }

    /// Removes an installation; false if there was none.
    @discardableResult
    mutating func remove(_ id: String) -> Bool {
        guard let old = byID.removeValue(forKey: id) else { return false }
        for n in old.allRegistrationNumbers { ownerByRegistrationNumber[n] = nil }
        forget(id, channel: old.pushChannel)
        let k = Self.insertionIndex(id, in: sortedIDs)
        if k < sortedIDs.count, sortedIDs[k] == id { sortedIDs.remove(at: k) }
        return true
    }

    /// Takes `id` off the installations holding `channel`.
    private mutating func forget(_ id: String, channel: String) {
        guard var holders = idsByChannel[channel] else { return }
        let k = Self.insertionIndex(id, in: holders)
        if k < holders.count, holders[k] == id { holders.remove(at: k) }
        idsByChannel[channel] = holders.isEmpty ? nil : holders
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
        (idsByChannel[channel] ?? []).compactMap { id in
            guard let i = byID[id] else { return nil }
            if let e = i.expiresAt, e <= now { return nil }
            return i
        }
    }

    /// Where `id` goes in the sorted `ids`.
    private static func insertionIndex(_ id: String, in ids: [String]) -> Int {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
