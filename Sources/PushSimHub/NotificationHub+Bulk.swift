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
        for d in descriptions {
            if d.platform.isRetired { return .failure(AtomProblem("\(d.platform.descriptionElement) is no longer supported")) }
            if let problem = TagRules.problem(with: d.tags) { return .failure(AtomProblem(problem)) }
            let id = store.issueID()
            var tags: [String] = []
            for t in d.tags.sorted() where tags.last != t { tags.append(t) }
            store.upsert(StoredRegistration(number: RegistrationStore.number(of: id), id: id, platform: d.platform,
                                            handle: d.platform == .apple ? d.handle.uppercased() : d.handle, tags: tags,
                                            updatedAt: world.now, expiresAt: configuration.registrationTimeToLive.map { world.now + $0 },
                                            etag: 1))
            ids.append(id)
        }
        world.record(layer: "hub", host: Self.name, kind: "hub.bulk-import", ["registrations": ids.count])
        return .success(ids)
    }

    /// How many live registrations of `platform` a send to `expression` would reach now: the
    /// routing step of a send, without the send.
    public func route(_ expression: String, platform: RegistrationPlatform, now: VirtualTime) -> Result<Int, TagExpressionError> {
        TagExpressionParser.parse(expression).map { store.matchingNumbers($0, platform: platform, now: now).count }
    }
}
