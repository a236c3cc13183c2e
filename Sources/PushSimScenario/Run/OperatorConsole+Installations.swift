import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimDevices

extension OperatorConsole {
    /// Writes the installation whose id is `device`'s name, as a backend using the SDK's
    /// installation calls would (NH-REST, NH-DOTNET): a PUT of the whole installation (the device's
    /// platform and current handle, the tags and user id given), a PATCH of one JSON Patch
    /// operation, or a DELETE. Recorded as an `installation` call with the hub's status (200 for
    /// a PUT or PATCH, 204 for a DELETE; 400, 404 or 415 when refused); a device with no handle
    /// yet cannot be put or re-channelled, and the call fails without reaching the hub.
    public func writeInstallation(of device: Device, _ change: InstallationChange) {
        world.record(layer: "operator", host: Self.name, kind: .operatorInstallation,
                     [.installation: .string(device.name), .change: .string(change.statement(device: device.name))])
        let sentAt = world.now
        let done = { [self] (status: Int, failure: HubError?) in
            let answered = failure.map { $0.status } ?? status
            finishCall(.installation, sentAt, answered, failure.flatMap { $0.status == nil ? $0.description : nil })
        }
        guard let platform = Self.registrationPlatform(device.platform) else {
            return finishCall(.installation, sentAt, nil, "the hub has no platform for \(device.platform.rawValue)")
        }
        switch change {
        case .put(let tags, let user, let templates):
            guard let handle = device.handle else { return finishCall(.installation, sentAt, nil, "\(device.name) has no push handle yet") }
            // A name written twice keeps the last, as a dictionary the SDK fills would.
            var named: [String: InstallationTemplate] = [:]
            for t in templates { named[t.name] = Self.installationTemplate(t) }
            let installation = Installation(installationID: device.name, platform: platform, pushChannel: handle, tags: tags,
                                            templates: named, userID: user)
            hub.createOrUpdateInstallation(installation) { done(200, $0.failure) }
        case .addTag(let tag):
            hub.patchInstallation(device.name, operations: [InstallationPatchOperation(.add, "/tags", .string(tag))]) { done(200, $0.failure) }
        case .removeTag(let tag):
            hub.patchInstallation(device.name, operations: [InstallationPatchOperation(.remove, "/tags/\(Self.pointerToken(tag))")]) {
                done(200, $0.failure)
            }
        case .addTemplate(let t):
            // Both SDKs type the value as a string: the template's JSON (`InstallationTemplate`
            // serialized: body, then headers, expiry and tags when given, NH-DOTNET), as the Java
            // SDK's end-to-end test sends it.
            var members: [(String, JSONValue)] = [("body", .string(t.body))]
            if !t.headers.isEmpty { members.append(("headers", .object(t.headers.map { ($0.name, .string($0.value)) }))) }
            if let expiry = t.expiry { members.append(("expiry", .string(expiry))) }
            if !t.tags.isEmpty { members.append(("tags", .array(t.tags.map(JSONValue.string)))) }
            let operation = InstallationPatchOperation(.add, "/templates/\(Self.pointerToken(t.name))", .string(JSONValue.object(members).serialized()))
            hub.patchInstallation(device.name, operations: [operation]) {
                done(200, $0.failure)
            }
        case .removeTemplate(let name):
            hub.patchInstallation(device.name, operations: [InstallationPatchOperation(.remove, "/templates/\(Self.pointerToken(name))")]) {
                done(200, $0.failure)
            }
        case .replaceChannel:
            guard let handle = device.handle else { return finishCall(.installation, sentAt, nil, "\(device.name) has no push handle yet") }
            hub.patchInstallation(device.name, operations: [InstallationPatchOperation(.replace, "/pushChannel", .string(handle))]) {
                done(200, $0.failure)
            }
        case .delete:
            hub.deleteInstallation(device.name) { done(204, $0.failure) }
        }
    }

    /// Lists the hub's registrations, all or those carrying `tag` (`GET /registrations`, `GET
    /// /tags/<tag>/registrations`, the SDK's `GetAllRegistrationsAsync` and
    /// `GetRegistrationsByTagAsync`), `top` a page, following the hub's continuation tokens to
    /// the last page, and keeps how many came back in ``listings``.
    public func listRegistrations(tag: String?, top: Int = 100) {
        world.record(layer: "operator", host: Self.name, kind: .operatorList, [.tag: .string(tag ?? "(all)")])
        readPages(tag: tag, top: top, from: "", sentAt: world.now, foundSoFar: 0)
    }

    /// Reads the page `token` names (empty: the first), then the next, until the hub gives no token.
    private func readPages(tag: String?, top: Int, from token: String, sentAt: VirtualTime, foundSoFar: Int) {
        let completion = { [self] (result: Result<RegistrationPage, HubError>) in
            switch result {
            case .success(let page):
                let found = foundSoFar + page.registrations.count
                if let next = page.continuationToken, !next.isEmpty {
                    return readPages(tag: tag, top: top, from: next, sentAt: sentAt, foundSoFar: found)
                }
                appendListing(found)
                world.record(layer: "operator", host: Self.name, kind: .operatorListed, [.registrations: .int(found)])
                finishCall(.list, sentAt, 200, nil)
            case .failure(let e): finishCall(.list, sentAt, e.status, e.status == nil ? e.description : nil)
            }
        }
        if let tag {
            hub.getRegistrationsByTag(tag, continuationToken: token, top: top, completion)
        } else {
            hub.getAllRegistrations(continuationToken: token, top: top, completion)
        }
    }

    /// The SDK's `InstallationTemplate` of a template the operator writes.
    static func installationTemplate(_ t: NamedTemplate) -> InstallationTemplate {
        InstallationTemplate(body: t.body, tags: t.tags, headers: t.headers.map { TemplateHeader($0.name, $0.value) }, expiry: t.expiry)
    }

    /// The hub's platform for a device's: the one of its service's native format.
    static func registrationPlatform(_ platform: DevicePlatform) -> RegistrationPlatform? {
        RegistrationPlatform(sendFormat: platform.service.hubFormat)
    }

    /// `tag` as one JSON Pointer token (RFC 6901): `~` as `~0`, `/` as `~1`.
    static func pointerToken(_ tag: String) -> String {
        tag.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
