/// A hub credential for one push service. Each type is declared in its adapter's file
/// (``APNsCredential`` in `APNsAdapter.swift`, …), with its typed accessor on
/// ``HubConfiguration`` (`configuration.apns`, …), so a new service's credential needs no edit
/// outside its own adapter file.
protocol PNSCredential: Sendable {
    /// The adapter that uses it: its slot in ``PNSCredentials``.
    static var adapter: PNSAdapter { get }
}

/// The hub's credentials for the push services it sends to, at most one per service and none by
/// default: a copy for a service whose credential is missing is dropped ("the hub has no apple
/// credentials"). Held by adapter (one slot per `PNSAdapter` case, its raw value) rather than as
/// one stored property per service.
public struct PNSCredentials: Sendable {
    private var slots: [CredentialSlot?] = Array(repeating: nil, count: PNSAdapter.allCases.count)

    /// No credentials.
    public init() {}

    /// The credential of type `C`, or nil when the hub has none for its service. Read for every
    /// copy of a fan-out: an array index and a class cast (a metadata compare), where a protocol
    /// existential would cost a dynamic cast and a copy out of its box (~370 instructions a copy
    /// in the 30,000-device broadcast bench).
    subscript<C: PNSCredential>(_ type: C.Type) -> C? {
        get { (slots[C.adapter.rawValue] as? Slot<C>)?.credential }
        set { slots[C.adapter.rawValue] = newValue.map(Slot.init) }
    }

    /// True when the hub holds a credential for `adapter`'s service.
    func has(_ adapter: PNSAdapter) -> Bool { slots[adapter.rawValue] != nil }

    /// A slot's content, whatever the service. Immutable: setting a credential replaces the slot.
    private class CredentialSlot: @unchecked Sendable {}

    /// A slot holding a credential of type `C` (immutable, and `C` is Sendable).
    private final class Slot<C: PNSCredential>: CredentialSlot, @unchecked Sendable {
        let credential: C
        init(_ credential: C) { self.credential = credential }
    }
}
