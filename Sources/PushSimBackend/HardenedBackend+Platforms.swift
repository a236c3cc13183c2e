import PushSimKernel
import PushSimNetwork
import PushSimHub

/// A push service as the hardened backend's clients name it (`Platform` of a registration, `pns`
/// of a send): the name, the service it means, and the hub registration platform it maps to.
struct HardenedPlatform {
    /// What the client sends, lower case: a service's name (`apns`, `fcm`, `wns`), an old name
    /// (`gcm`), or `browser`.
    let name: String
    /// The push service it means.
    let service: PushServiceDescriptor
    /// The hub registration platform of the service (its native format is ``PushServiceDescriptor/hubFormat``).
    let registrationPlatform: RegistrationPlatform
}

extension HardenedBackend {
    /// The handle of a browser registration from a `PUT api/register/<id>` body: its
    /// `Subscription` as the page's `PushSubscription.toJSON()` gives it (`endpoint`, `keys.p256dh`,
    /// `keys.auth`; W3C Push API), or a `Handle` already in the hub's form
    /// (``BrowserPushChannel/pnsHandle``); the hub's own check refuses unusable keys.
    static func browserHandle(_ json: JSONValue) -> Result<String, InstallationProblem> {
        do throws(InstallationProblem) {
            if let subscription = json["Subscription"], subscription.objectMembers != nil {
                guard let endpoint = subscription["endpoint"]?.stringValue, let p256dh = subscription["keys"]?["p256dh"]?.stringValue,
                      let auth = subscription["keys"]?["auth"]?.stringValue else {
                    throw InstallationProblem("Subscription must be a PushSubscription's JSON: endpoint and keys.p256dh, keys.auth")
                }
                return .success(try BrowserPushChannel(endpoint: endpoint, p256dh: p256dh, auth: auth).pnsHandle)
            }
            guard let handle = json["Handle"]?.stringValue, !handle.isEmpty else {
                throw InstallationProblem("a browser registration needs its Subscription (or its Handle)")
            }
            return .success(try BrowserPushChannel(pnsHandle: handle).pnsHandle)
        } catch {
            return .failure(error)
        }
    }

    /// Old names the backend still takes: `gcm` for FCM, the name the tutorial's iOS app still
    /// sends (the tutorial's backend answers it 400: defect b).
    static let oldServiceNames: [(name: String, service: PushServiceDescriptor)] = [("gcm", .fcm)]

    /// Every name a client may send, made once from ``PushServiceDescriptor/all`` (each service by
    /// its name, then its old names), in that order, then `browser`. A service the hub takes no registrations for
    /// is left out, so a client naming it gets a 400 like any unknown name.
    static let platforms: [HardenedPlatform] = PushServiceDescriptor.all.flatMap { service -> [HardenedPlatform] in
        guard let platform = RegistrationPlatform(sendFormat: service.hubFormat) else { return [] }
        let names = [service.name] + oldServiceNames.filter { $0.service == service }.map(\.name)
        return names.map { HardenedPlatform(name: $0, service: service, registrationPlatform: platform) }
    } + [browser]

    /// `browser`: a browser's Web Push subscription, which the hub reaches with its own VAPID key
    /// (NH-BROWSER). Named as the hub's format is, since its services are the browser vendors'.
    static let browser = HardenedPlatform(name: RegistrationPlatform.browser.sendFormat, service: .webPush, registrationPlatform: .browser)

    /// The platform a client means by `name` (any case), or nil for a name the backend does not know.
    static func platform(named name: String) -> HardenedPlatform? {
        let name = name.lowercased()
        return platforms.first { $0.name == name }
    }

    /// The names clients may send, as the backend's 400s spell them: `apns, fcm, wns or browser`,
    /// or with `oldNames` `apns, fcm (or gcm), wns or browser`.
    static func serviceNames(oldNames: Bool) -> String {
        let spelled = PushServiceDescriptor.all.filter { service in platforms.contains { $0.service == service } }.map { service in
            let old = oldNames ? oldServiceNames.filter { $0.service == service }.map(\.name) : []
            return service.name + (old.isEmpty ? "" : " (or \(old.joined(separator: ", ")))")
        } + [browser.name]
        guard let last = spelled.last else { return "" }
        return spelled.count == 1 ? last : spelled.dropLast().joined(separator: ", ") + " or " + last
    }
}
