import PushSimKernel
import PushSimNetwork

/// Bulk operations for large simulated populations, standing in for the hub's bulk import job
/// (NH-FAQ: "bulk import/export", Standard tier; the SDK's `SubmitNotificationHubJobAsync` with
/// `ImportCreateRegistrations`). They act on the store directly, without one HTTP exchange per
/// registration, so a million registrations load in seconds.
extension NotificationHub {
    /// Creates one registration per description (ids are issued as Create Registration ID would),
    /// applying the same tag rules as create-or-update; returns the ids, or the first problem.
    public func importRegistrations(_ descriptions: [RegistrationDescription], world: World) -> Result<[String], AtomProblem> {
        var ids: [String] = []
        ids.reserveCapacity(descriptions.count)
        // A batch at least as large as the store sizes it once: columns and indexes, with room for
        // every tag the batch names, given back to fit the distinct ones afterwards. Smaller
        // batches let the store grow as usual (geometrically), so many small imports stay linear.
        let sizesStore = descriptions.count >= store.count
        if sizesStore {
            store.reserveCapacity(registrations: descriptions.count, tags: descriptions.reduce(0) { $0 + $1.tags.count })
        }
        defer { if sizesStore { store.fitIndexes() } }
        for d in descriptions {
            if d.platform.isRetired { return .failure(AtomProblem("\(d.platform.descriptionElement) is no longer supported")) }
            if let problem = TagRules.problem(with: d.tags) { return .failure(AtomProblem(problem)) }
            let id = store.issueID()
            store.upsert(StoredRegistration(number: RegistrationStore.number(of: id), id: id, platform: d.platform,
                                            handle: Self.storedHandle(d), tags: Self.storedTags(d.tags),
                                            updatedAt: world.now, expiresAt: configuration.registrationTimeToLive.map { world.now + $0 },
                                            etag: 1))
            ids.append(id)
        }
        world.record(layer: "hub", host: Self.name, kind: .hubBulkImport, [.registrations: .int(ids.count)])
        return .success(ids)
    }

    /// The handle as the hub stores it: APNs tokens upper-cased (NH-REST). A token that already is
    /// (ASCII, no lower-case letter) is kept as given, so the store shares the caller's string
    /// instead of holding a copy.
    private static func storedHandle(_ d: RegistrationDescription) -> String {
        guard d.platform == .apple else { return d.handle }
        let needsUppercasing = d.handle.utf8.contains { $0 >= 0x80 || (0x61...0x7A).contains($0) }
        return needsUppercasing ? d.handle.uppercased() : d.handle
    }

    /// The tags without repeats, as the store takes them (in any order: it hands them out
    /// sorted). A list without repeats is passed on as given, so the store shares the caller's
    /// array instead of holding a sorted copy.
    private static func storedTags(_ given: [String]) -> [String] {
        let sorted = given.count <= 8 ? nil : given.sorted()
        let hasRepeats = sorted.map { zip($0, $0.dropFirst()).contains { $0 == $1 } }
            ?? given.indices.contains { i in given[(i + 1)...].contains(given[i]) }
        guard hasRepeats else { return given }
        var tags: [String] = []
        for t in sorted ?? given.sorted() where tags.last != t { tags.append(t) }
        return tags
    }

    /// How many live registrations and installations of `platform` a native send to `expression`
    /// would reach now: the routing step of a send, without the send.
    public func route(_ expression: String, platform: RegistrationPlatform, now: VirtualTime) -> Result<Int, TagExpressionError> {
        TagExpressionParser.parse(expression).map { targets(native: platform, expression: $0, now: now).count }
    }
}
