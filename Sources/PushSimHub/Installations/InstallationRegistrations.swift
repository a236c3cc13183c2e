import PushSimKernel

/// The registrations the live hub shows for an installation.
///
/// The live hub keeps an installation as registrations, and its registration listings show them
/// among the others (the .NET SDK's recordings of a live hub, NH-DOTNET `…Tests/MockData/*.http`,
/// Citations §4.3):
/// - one native registration of the installation's platform and channel, whose `Tags` are
///   `$InstallationId:{<id>}`, then `$UserId:{<userId>}` when it has a user id, then its tags;
/// - one template registration per template, whose `Tags` are those and then the template's
///   that are not among them (its name when it was written without tags), with the template's body, `Expiry`,
///   `TemplateName` and headers;
/// - each with the installation's `PushVariables`, and the installation's expiry.
///
/// Each has a registration id of its own. PushSim gives the native one a number from the hub's
/// registration counter when the installation is created, and each template one when it first
/// appears, so they are listed in creation order with the hub's other registrations and a
/// listing's continuation token passes them as it passes any. A registration id is kept while its
/// installation (and template) lives. Their ETag is the installation's: 1 when created, one more
/// with each overwrite or patch; `published` is when the installation was created and `updated`
/// when it was last written.
///
/// They are read through the registration API (listings, by tag, by channel, by id), not written
/// through it: see ``NotificationHub`` for the answer to a PUT or DELETE of one.
extension StoredInstallation {
    /// The native registration first, then the template ones in template-name order.
    var registrations: [StoredRegistration] {
        let own = implicitTags + tags
        var out = [registration(number: registrationNumber, tags: own, template: nil)]
        for name in templateNames {
            let t = templates[name]!
            let extra = t.tags.filter { !own.contains($0) }
            out.append(registration(number: templateRegistrationNumbers[name] ?? 0, tags: own + extra, template: t))
        }
        return out
    }

    /// The registration `n` of the installation's, or nil when it has none of that number.
    func registration(number n: Int) -> StoredRegistration? {
        registrations.first { $0.number == n }
    }

    /// Every registration number it holds.
    var allRegistrationNumbers: [Int] {
        [registrationNumber] + templateNames.compactMap { templateRegistrationNumbers[$0] }
    }

    /// Makes this write of the installation follow `previous` (the installation as it was before,
    /// nil when this write creates it): its creation time and next ETag, the registration number
    /// of its native registration, and each template's that is still there; `issue` gives the
    /// numbers it lacks, native first, then templates in name order.
    mutating func follow(_ previous: StoredInstallation?, issue: () -> Int) {
        if let previous { (createdAt, etag) = (previous.createdAt, previous.etag + 1) }
        registrationNumber = previous?.registrationNumber ?? issue()
        var numbers: [String: Int] = [:]
        for name in templateNames { numbers[name] = previous?.templateRegistrationNumbers[name] ?? issue() }
        templateRegistrationNumbers = numbers
    }

    private func registration(number: Int, tags: [String], template: HubTemplate?) -> StoredRegistration {
        StoredRegistration(number: number, id: RegistrationStore.id(number), platform: platform, handle: pushChannel,
                           tags: tags, updatedAt: updatedAt, expiresAt: expiresAt, etag: etag, template: template,
                           createdAt: createdAt, pushVariables: pushVariables)
    }
}
