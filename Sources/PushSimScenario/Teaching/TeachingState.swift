import PushSimKernel
import PushSimNetwork

/// What each part of the world holds after a step of a run, derived from the trace alone (no
/// access to the simulation): the hub's registrations and their tags, the notifications each push
/// service keeps for an offline device and the handles it learned are dead, and each device's
/// handle, user, registration id, connection and what it has shown. The teaching page's
/// step-through shows this state after every step.
///
/// Applied in trace order; ``apply(_:)`` says which entries an event touched, so that a page only
/// writes what changed.
package struct TeachingState: Sendable {
    /// A registration (or installation) the hub keeps, as its last `hub.*-upserted` event said.
    package struct Registration: Sendable, Equatable {
        /// The registration id (the live hub's form, `<digits>-<digits>-<digit>`) or installation id.
        package var id: String
        /// The hub's platform name (`apple`, `fcmv1`, `windows`).
        package var platform: String
        /// The handle's label as the hub traces it (`FA60BD34…9A7FFB`).
        package var handle: String
        /// Comma-separated, as stored.
        package var tags: String
        /// When it expires (`never`, or a virtual time).
        package var expires: String
        /// True once the hub answered 410 for it (`hub.registration-gone`: expired).
        package var gone = false
        /// How many registrations the page had seen before this one first appeared: lists show
        /// them in that order (the hub's ids, in the live hub's form, do not sort by age).
        package var ordinal = 0
    }

    /// A notification a push service keeps for a device it cannot reach (APNs keeps the last one
    /// per app, FCM up to 100, WNS caches toasts), until it is delivered, replaced or expires.
    package struct Held: Sendable, Equatable {
        /// `apns`, `fcm` or `wns`.
        package var service: String
        /// `apns-id`, FCM message name or WNS message id.
        package var id: String
        /// The device it waits for.
        package var device: String
    }

    /// A handle a push service has declared dead (APNs `Unregistered`, FCM `UNREGISTERED`, an
    /// expired WNS channel).
    package struct DeadHandle: Sendable, Equatable {
        /// `apns`, `fcm` or `wns`.
        package var service: String
        /// The device the handle belonged to.
        package var device: String
        /// The handle's label as traced.
        package var handle: String
        /// The service's answer that declared it dead (`410 Unregistered`).
        package var why: String
    }

    /// One device as its user and the app see it.
    package struct DeviceView: Sendable, Equatable {
        /// The device's name in the scenario.
        package var name: String
        /// Whether the app is installed.
        package var installed = false
        /// The push handle the OS gave the app (its label), nil before one came.
        package var handle: String?
        /// Who is logged in, nil when nobody is.
        package var user: String?
        /// The registration id the app keeps in its storage.
        package var registration: String?
        /// Whether the device's network is up.
        package var online = true
        /// The text of every notification shown, in order.
        package var shown: [String] = []
    }

    /// An entry ``apply(_:)`` changed (added, updated or removed).
    package enum Touched: Sendable, Equatable {
        case registration(String)
        case held(service: String, id: String)
        case dead(service: String, key: String)
        case device(String)
    }

    // Every dictionary here is only looked up; lists for output are sorted or kept in order.
    /// The hub's registrations and installations, by id.
    package private(set) var registrations: [String: Registration] = [:]
    /// What the push services keep for offline devices, by `service|id`.
    package private(set) var held: [String: Held] = [:]
    /// The handles the push services know are dead, by `service|device|handle`.
    package private(set) var dead: [String: DeadHandle] = [:]
    /// Every device, by name.
    package private(set) var devices: [String: DeviceView] = [:]

    /// The state before the first event: these devices, nothing installed, the hub empty.
    package init(devices names: [String] = []) {
        for name in names { devices[name] = DeviceView(name: name) }
    }

    /// Registration ids the hub holds, oldest first.
    package var registrationIDs: [String] {
        registrations.values.sorted { ($0.ordinal, $0.id) < ($1.ordinal, $1.id) }.map(\.id)
    }
    /// Registrations seen so far, deleted ones included (numbers each new one's ``Registration/ordinal``).
    private var registrationsSeen = 0
    /// What `service` keeps for offline devices, by id.
    package func held(by service: String) -> [Held] { held.values.filter { $0.service == service }.sorted { $0.id < $1.id } }
    /// The handles `service` has declared dead, by device then handle.
    package func deadHandles(of service: String) -> [DeadHandle] {
        dead.values.filter { $0.service == service }.sorted { ($0.device, $0.handle) < ($1.device, $1.handle) }
    }

    /// Applies one trace event; returns what it changed.
    package mutating func apply(_ e: TraceEvent) -> [Touched] {
        func f(_ key: TraceFieldName) -> String? { e[key]?.description }
        switch e.kind {
        case .hubRegistrationUpserted, .hubInstallationUpserted, .hubInstallationPatched:
            guard let id = f(.id) else { return [] }
            let ordinal = registrations[id]?.ordinal ?? registrationsSeen
            if registrations[id] == nil { registrationsSeen += 1 }
            registrations[id] = Registration(id: id, platform: f(.platform) ?? "", handle: f(.handle) ?? "",
                                             tags: f(.tags) ?? "", expires: f(.expires) ?? "never", ordinal: ordinal)
            return [.registration(id)]
        case .hubRegistrationDeleted, .hubInstallationDeleted:
            guard let id = f(.id), registrations.removeValue(forKey: id) != nil else { return [] }
            return [.registration(id)]
        case .hubRegistrationGone:
            guard let id = f(.id), registrations[id] != nil, registrations[id]?.gone == false else { return [] }
            registrations[id]!.gone = true
            return [.registration(id)]
        case .apnsStored, .fcmStored, .wnsCached:
            guard let id = heldID(e), let device = f(.device) else { return [] }
            held[e.layer + "|" + id] = Held(service: e.layer, id: id, device: device)
            return [.held(service: e.layer, id: id)]
        case .apnsDelivered, .fcmDelivered, .wnsDelivered, .notificationDropped:
            guard let id = heldID(e), held.removeValue(forKey: e.layer + "|" + id) != nil else { return [] }
            return [.held(service: e.layer, id: id)]
        case .apnsTokenInvalidated, .fcmTokenInvalidated, .wnsChannelInvalidated:
            let device = f(.device) ?? "?"
            let handle = f(.token) ?? f(.handle) ?? "channel"
            let key = device + "|" + handle
            dead[e.layer + "|" + key] = DeadHandle(service: e.layer, device: device, handle: handle, why: f(.why) ?? "")
            return [.dead(service: e.layer, key: key)]
        default:
            return applyToDevice(e)
        }
    }

    /// The message id a push service's event names, under that service's field.
    private func heldID(_ e: TraceEvent) -> String? {
        PushServiceDescriptor.named(e.layer).flatMap { e[$0.messageIDField] }?.description
    }

    private mutating func applyToDevice(_ e: TraceEvent) -> [Touched] {
        guard var d = devices[e.host] else { return [] }
        let before = d
        switch e.kind {
        case .deviceInstall: d.installed = true
        case .deviceUninstall: d = DeviceView(name: d.name, online: d.online, shown: d.shown)
        case .deviceRestore:
            d.installed = true
            d.registration = e[.storedID]?.description
        case .deviceHandleReceived: d.handle = e[.handle]?.description
        case .appLogin: d.user = e[.user]?.description
        case .appLogout:   // the app forgets the user and the registration id it kept
            d.user = nil
            d.registration = nil
        case .appRegistered: d.registration = e[.registration]?.description
        case .appRetry where e[.forgottenID] != nil: d.registration = nil
        case .hostOffline: d.online = false
        case .hostOnline: d.online = true
        case .notificationShown: d.shown.append(e[.text]?.description ?? "")
        default: return []
        }
        guard d != before else { return [] }
        devices[e.host] = d
        return [.device(e.host)]
    }
}
