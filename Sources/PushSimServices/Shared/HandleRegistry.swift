import PushSimKernel
import PushSimNetwork

/// What the service knows about one handle it issued.
package struct HandleRecord: Sendable, Equatable {
    /// Primary host name of the device holding it (`fleet#12` for a member of a device fleet).
    public var device: String
    /// Bundle id (APNs topic), Android package or Windows package family.
    public var app: String
    /// Which installation of the app on the device, from 1; a reinstall gets a new handle.
    public var install: Int
    /// As registered: APNs `production` or `sandbox`; FCM the sender id; WNS empty.
    public var environment: String
    /// When the service issued the handle.
    public var issuedAt: VirtualTime
    /// When the service learned the app behind this handle is gone (APNs: the 410 `timestamp`).
    public var invalidatedAt: VirtualTime?
    /// When the handle stops working by age (WNS channels: 30 days), nil for never.
    public var expiresAt: VirtualTime?
    /// The last sign of life: issued, asked for again by the app, or a push delivered to it.
    /// FCM expires a token inactive for 270 days (F-TOK).
    public var lastActiveAt: VirtualTime
}

/// The handles a service has issued: by handle, and by (device, app, install) for re-issue.
///
/// Stored compactly, because a simulated population may hold a million of them: one row of
/// fixed-size fields per handle (times as microseconds with a sentinel for "none"; app ids and
/// environments as numbers into a small table of distinct values), the handle text once, and
/// two ``SlotTable``s (by handle, by device/app/install) that store no keys, only 8-byte
/// entries. About 100 bytes per handle besides the handle text itself.
/// Nothing here is iterated for behaviour or output but the rows, in order, by ``handles(environment:)``.
package struct HandleRegistry {
    private struct Row {
        var device: String
        var install: Int32
        var app: UInt16
        var environment: UInt16
        var issuedAt: Int64
        var invalidatedAt: Int64
        var expiresAt: Int64
        var lastActiveAt: Int64
    }
    /// Stands for "no time" in the optional time fields.
    private static let none = Int64.min

    private var rows: [Row] = []
    private var handles: [String] = []                  // slot → handle
    private var slotByHandle = SlotTable()               // keys read back from `handles`
    private var slotByInstall = SlotTable()              // keys read back from `rows`
    private var names: [String] = []                    // app ids and environments, by number
    private var nameNumbers: [String: UInt16] = [:]     // looked up only

    /// An empty registry.
    public init() {}

    /// Handles issued so far, invalidated and expired ones included.
    public var count: Int { rows.count }

    private func slot(of handle: String) -> Int32? {
        slotByHandle.slot(hash: handle.stableHash) { handles[Int($0)].sameBytes(as: handle) }
    }

    private static func installHash(device: String, app: UInt16, install: Int32) -> Int {
        var h = Hasher()
        h.combine(device)
        h.combine(app)
        h.combine(install)
        return h.finalize()
    }

    private func slot(device: String, app: UInt16, install: Int32) -> Int32? {
        slotByInstall.slot(hash: Self.installHash(device: device, app: app, install: install)) {
            let r = rows[Int($0)]
            return r.install == install && r.app == app && r.device == device
        }
    }

    /// The record of `handle`; nil if this service never issued it.
    public subscript(handle: String) -> HandleRecord? {
        guard let slot = slot(of: handle) else { return nil }
        return record(slot: slot)
    }

    private func record(slot: Int32) -> HandleRecord {
        let r = rows[Int(slot)]
        func time(_ us: Int64) -> VirtualTime? { us == Self.none ? nil : VirtualTime(microseconds: us) }
        return HandleRecord(device: r.device, app: names[Int(r.app)], install: Int(r.install), environment: names[Int(r.environment)],
                            issuedAt: VirtualTime(microseconds: r.issuedAt), invalidatedAt: time(r.invalidatedAt),
                            expiresAt: time(r.expiresAt), lastActiveAt: VirtualTime(microseconds: r.lastActiveAt))
    }

    /// ``subscript(handle:)``, for the registry a service holds: Swift copies a struct stored in
    /// a class, retaining each of its tables, to call a non-mutating method on it, but hands it
    /// over in place to a mutating one. Nothing is changed.
    mutating func recordReadInPlace(_ handle: String) -> HandleRecord? { self[handle] }

    /// The handle already issued for this installation, if any (none for an install number no
    /// handle can have: see ``canIssue(app:install:environment:)``).
    public func handle(device: String, app: String, install: Int) -> String? {
        guard let a = nameNumbers[app], let install = Int32(exactly: install),
              let slot = slot(device: device, app: a, install: install) else { return nil }
        return handles[Int(slot)]
    }

    /// Whether a handle for this install can be stored: its install number fits the row's 32
    /// bits, and its app id and environment are known or fit the table of distinct names. A
    /// request off the wire is checked with this first (``issue(_:_:)`` requires it).
    public func canIssue(app: String, install: Int, environment: String) -> Bool {
        let newNames = (nameNumbers[app] == nil ? 1 : 0) + (nameNumbers[environment] == nil && environment != app ? 1 : 0)
        return Int32(exactly: install) != nil && names.count + newNames <= Int(UInt16.max)
    }

    /// Stores `handle` for `record`, which must pass ``canIssue(app:install:environment:)``.
    public mutating func issue(_ handle: String, _ record: HandleRecord) {
        guard let install = Int32(exactly: record.install) else { preconditionFailure("install number \(record.install) does not fit in 32 bits") }
        let row = Row(device: record.device, install: install, app: number(record.app),
                      environment: number(record.environment), issuedAt: record.issuedAt.microseconds,
                      invalidatedAt: record.invalidatedAt?.microseconds ?? Self.none,
                      expiresAt: record.expiresAt?.microseconds ?? Self.none, lastActiveAt: record.lastActiveAt.microseconds)
        let index: Int32
        if let existing = slot(of: handle) {
            // Re-issued: its install entry (if it had another) keeps pointing here, as before.
            index = existing
            rows[Int(index)] = row
        } else {
            index = Int32(rows.count)
            rows.append(row)
            handles.append(handle)
            slotByHandle.insert(index, hash: handle.stableHash)
        }
        let rowsNow = rows
        slotByInstall.set(index, hash: Self.installHash(device: row.device, app: row.app, install: row.install)) {
            let r = rowsNow[Int($0)]
            return r.install == row.install && r.app == row.app && r.device == row.device
        }
    }

    /// The handles issued with `environment` (FCM: the project number), in the order they were
    /// issued, dead ones included: for an FCM condition that reaches app instances with no topics.
    /// The one walk over the rows, in their order (an array's, the same in every run).
    package func handles(environment: String) -> [String] {
        guard let e = nameNumbers[environment] else { return [] }
        return rows.indices.filter { rows[$0].environment == e }.map { handles[$0] }
    }

    /// Records a sign of life of `handle` at `time` (a delivery, a renewed registration).
    public mutating func touch(_ handle: String, at time: VirtualTime) {
        guard let place = place(of: handle) else { return }
        touch(at: place, time: time)
    }

    /// Where `handle` is kept, if it was issued: a number that stands for it from then on (rows
    /// are never removed), so that a service that looked a handle up when a message came in can
    /// record the delivery (``touch(at:time:)``) without hashing its token again.
    package mutating func place(of handle: String) -> HandlePlace? { slot(of: handle).map(HandlePlace.init) }

    /// The record of the handle at `place` (mutating only to be read in place: see
    /// ``recordReadInPlace(_:)``; nothing is changed).
    package mutating func recordReadInPlace(at place: HandlePlace) -> HandleRecord { record(slot: place.slot) }

    /// ``touch(_:at:)`` for the handle at `place`.
    package mutating func touch(at place: HandlePlace, time: VirtualTime) { rows[Int(place.slot)].lastActiveAt = time.microseconds }

    /// Marks the handle dead as of `time` (kept, so later sends can be answered with the timestamp).
    public mutating func invalidate(_ handle: String, at time: VirtualTime) {
        guard let slot = slot(of: handle), rows[Int(slot)].invalidatedAt == Self.none else { return }
        rows[Int(slot)].invalidatedAt = time.microseconds
    }

    /// The number standing for an app id or environment, added on first use.
    private mutating func number(_ name: String) -> UInt16 {
        if let n = nameNumbers[name] { return n }
        precondition(names.count < Int(UInt16.max), "more distinct app ids and environments than a registry holds")
        let n = UInt16(names.count)
        names.append(name)
        nameNumbers[name] = n
        return n
    }
}

extension HandleRegistry {
    /// Answers a device's `POST /register`: the live handle already issued to this (device, app,
    /// install), or a new one from `make` (expiring after `lifetime`, if given). A handle unused for
    /// `inactivityLimit` counts as expired (FCM: 270 days, F-TOK); asking for it again is a sign of
    /// life. `present` turns a handle into what the app receives (WNS hands out the whole channel
    /// URI). Traces `issuedKind`. Returns the request and the handle answered (nil after a 400).
    @discardableResult
    mutating func answerRegister(_ request: HTTPRequest, exchange: Exchange, world: World, service: String, issuedKind: TraceKind,
                                 lifetime: VirtualDuration? = nil, inactivityLimit: VirtualDuration? = nil,
                                 make: () -> String, present: (String) -> String = { $0 }) -> (DeviceRegisterRequest, String)? {
        // An install number past 32 bits (a device counts its installs from 1) or yet another
        // distinct app id once the registry's table is full is refused like a malformed request.
        guard let ask = DeviceRegisterRequest(body: request.body),
              canIssue(app: ask.app, install: ask.install, environment: ask.environment) else {
            world.respond(to: exchange, with: HTTPResponse(status: 400, text: "malformed register request"))
            return nil
        }
        var handle = self.handle(device: exchange.caller, app: ask.app, install: ask.install)
        if let h = handle, let r = self[h] {
            if let limit = inactivityLimit, world.now >= r.lastActiveAt + limit {
                invalidate(h, at: r.lastActiveAt + limit) // expired unused: later sends to it fail
                handle = nil
            } else if r.invalidatedAt != nil || (r.expiresAt.map { world.now >= $0 } ?? false) {
                handle = nil // dead or expired: this install gets a new one
            }
        }
        let answered: String
        if let h = handle {
            touch(h, at: world.now)
            answered = h
        } else {
            answered = make()
            issue(answered, HandleRecord(device: exchange.caller, app: ask.app, install: ask.install, environment: ask.environment,
                                         issuedAt: world.now, expiresAt: lifetime.map { world.now + $0 }, lastActiveAt: world.now))
            world.record(layer: service, host: service, kind: issuedKind,
                         [.device: .string(exchange.caller), .app: .string(ask.app), .handle: .string(shortToken(answered))])
        }
        world.respond(to: exchange, with: HTTPResponse(status: 200,
                                                       text: JSONValue.object([("handle", .string(present(answered)))]).serialized()))
        return (ask, answered)
    }
}

/// Where a ``HandleRegistry`` keeps one handle (see ``HandleRegistry/place(of:)``).
package struct HandlePlace {
    fileprivate let slot: Int32
}
