import PushSimKernel
import PushSimNetwork

/// One registration as the hub holds it, read back by a test (not through the REST API: no SAS,
/// no network, no trace event).
public struct HubRegistrationSnapshot: Sendable, Equatable {
    /// The registration id (`3280667865762611323-1797531224048185179-3`, the live hub's form, from the hub's counter).
    public var id: String
    /// The push service its handle belongs to.
    public var platform: RegistrationPlatform
    /// The PNS handle: an APNs device token, an FCM registration token or a WNS channel URI.
    public var handle: String
    /// The tags, sorted.
    public var tags: [String]
    /// When it expires (virtual time); nil when the hub keeps registrations for ever.
    public var expiresAt: VirtualTime?
    /// Whether it is a template registration.
    public var isTemplate: Bool
}

extension NotificationHub {
    /// The live registrations at `now`, all of them or those carrying `tag`, in id order.
    /// Expired registrations are left out, as the hub's own reads leave them out.
    public func registrations(tag: String? = nil, now: VirtualTime) -> [HubRegistrationSnapshot] {
        let expression = tag.map { TagExpression.tag($0) }
        let found = RegistrationPlatform.allCases.flatMap { store.matching(expression, platform: $0, now: now) }
        return found.sorted { $0.number < $1.number }.map {
            HubRegistrationSnapshot(id: $0.id, platform: $0.platform, handle: $0.handle, tags: $0.tags.sorted(),
                                    expiresAt: $0.expiresAt, isTemplate: $0.template != nil)
        }
    }

    /// The live installations at `now`, in id order, as `GET /installations/{id}` would show them
    /// (times written with `anchor`, the world's calendar).
    public func installations(now: VirtualTime, anchor: CalendarAnchor) -> [Installation] {
        installations.live(now: now).map { $0.model(anchor: anchor) }
    }
}
