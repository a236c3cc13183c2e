import PushSimKernel
import PushSimNetwork

/// The installation REST API (Citations §4.1, §4.3; NH-REST, NH-REG):
///
/// | request | success | errors |
/// |---|---|---|
/// | `PUT /{hub}/installations/{id}` JSON body | 200 (create or overwrite) | 400 bad body, platform, tags or template |
/// | `PATCH /{hub}/installations/{id}`, `application/json-patch+json` or `application/json` | 200 | 400 bad op, path or value; 404 unknown id; 415 other content type |
/// | `GET /{hub}/installations/{id}` | 200 JSON (with `pushChannelExpired`) | 404 |
/// | `DELETE /{hub}/installations/{id}` | 204, also when there was none | – |
///
/// DELETE answering 204 for an absent installation is **unconfirmed** (Citations §7); the
/// SDK's `DeleteInstallationAsync` expects exactly 204 (NH-DOTNET), so a 404 would surface as an
/// exception there; PushSim answers 204 and traces `existed: false`.
/// Tags follow the registration rules (60 tags, charset, 120 characters; NH-TAGS, NH-REG), counted
/// without the implicit `$InstallationId:{id}` and `$UserId:{userId}`. `gcm` and `mpns` are refused
/// as retired, like their registration descriptions (AZ-FCMLEG, MPNS-NH).
extension NotificationHub {
    func putInstallation(_ id: String, _ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        let installation: Installation
        switch InstallationJSON.decode(request.body, id: id) {
        case .failure(let p): return fail(400, p.description, exchange, world)
        case .success(let i): installation = i
        }
        switch checkInstallation(installation, world: world) {
        case .failure(let p): fail(400, p.description, exchange, world)
        case .success(var stored):
            stored.follow(installations.lookup(id, now: world.now), issue: { store.reserveNumber() })
            installations.upsert(stored)
            traceUpsert(stored, kind: .hubInstallationUpserted, world: world)
            respond(to: exchange, with: HTTPResponse(status: 200), world)
        }
    }

    func patchInstallation(_ id: String, _ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        let type = (request.headers["Content-Type"] ?? "").split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        // The page names `application/json-patch+json`, which the .NET SDK sends; Microsoft's Java SDK
        // sends `application/json; charset=UTF-8` and its end-to-end test patches a live hub so
        // (NH-JAVA `NotificationHub.patchInstallationInternalAsync`, `InstallationCrudsE2E`). What
        // the live hub answers to other types is not documented: PushSim answers 415.
        guard type == "application/json-patch+json" || type == "application/json" else {
            return fail(415, "A PATCH of an installation must be sent as application/json-patch+json.", exchange, world)
        }
        guard let current = installations.lookup(id, now: world.now) else {
            return fail(404, "Installation not found.", exchange, world)   // the live hub's words (NH-DOTNET's recordings)
        }
        let operations: [InstallationPatchOperation]
        switch InstallationPatchOperation.parse(request.body) {
        case .failure(let p): return fail(400, p.description, exchange, world)
        case .success(let ops): operations = ops
        }
        var model = current.model(anchor: world.anchor)
        // Keep the current expiry unless the patch touches it (the model shows it as a date).
        model.expirationTime = current.expiresAt.map { world.anchor.iso8601($0) }
        let patched: Installation
        switch InstallationPatchOperation.apply(operations, to: model) {
        case .failure(let p): return fail(400, p.description, exchange, world)
        case .success(let i): patched = i
        }
        let keepsExpiry = !operations.contains { $0.path == "/expirationTime" }
        switch checkInstallation(patched, world: world, currentExpiry: keepsExpiry ? .some(current.expiresAt) : nil) {
        case .failure(let p): fail(400, p.description, exchange, world)
        case .success(var stored):
            // The dead-channel mark stays until the channel itself is rewritten.
            if stored.pushChannel == current.pushChannel { stored.pushChannelExpired = current.pushChannelExpired }
            stored.follow(current, issue: { store.reserveNumber() })
            installations.upsert(stored)
            traceUpsert(stored, kind: .hubInstallationPatched, world: world,
                        operations: operations.map { "\($0.op.rawValue) \($0.path)" }.joined(separator: ", "))
            respond(to: exchange, with: HTTPResponse(status: 200), world)
        }
    }

    func getInstallation(_ id: String, _ exchange: Exchange, _ world: World) {
        guard let i = installations.lookup(id, now: world.now) else {
            return fail(404, "Installation not found.", exchange, world)   // the live hub's words (NH-DOTNET's recordings)
        }
        // The live hub labels the JSON `application/xml; charset=utf-8` (NH-DOTNET's recordings).
        respond(to: exchange, with: HTTPResponse(status: 200, headers: ["Content-Type": "application/xml; charset=utf-8"],
                                                 text: InstallationJSON.hubAnswer(i.model(anchor: world.anchor))), world)
    }

    func deleteInstallation(_ id: String, _ exchange: Exchange, _ world: World) {
        let existed = installations.lookup(id, now: world.now) != nil
        installations.remove(id)
        world.record(layer: "hub", host: Self.name, kind: .hubInstallationDeleted, [.id: .string(id), .existed: .bool(existed)])
        respond(to: exchange, with: HTTPResponse(status: 204), world)
    }

    /// Checks an installation and compiles its templates. `currentExpiry` (for a PATCH that does
    /// not touch `/expirationTime`) keeps the stored expiry as it was.
    private func checkInstallation(_ i: Installation, world: World,
                                   currentExpiry: VirtualTime?? = nil) -> Result<StoredInstallation, InstallationProblem> {
        if i.platform.isRetired {
            return .failure(InstallationProblem("The platform '\(i.platform.installationPlatform)' is no longer supported by Notification Hubs; use fcmV1 or wns."))
        }
        if let problem = TagRules.problem(with: i.tags) { return .failure(InstallationProblem(problem)) }
        var templates: [String: HubTemplate] = [:]
        for name in i.templates.keys.sorted() {
            let t = i.templates[name]!
            guard !name.isEmpty else { return .failure(InstallationProblem("A template name cannot be empty.")) }
            if let problem = TagRules.problem(with: t.tags) { return .failure(InstallationProblem("Template '\(name)': \(problem)")) }
            // A template written without tags takes its name as its one tag: the live hub reads it
            // back so and keeps it among the tags of the registration it makes of the template
            // (NH-DOTNET's recordings, Citations §4.3), so a send to that tag selects it.
            let tags = t.tags.isEmpty ? [name] : Self.sortedUnique(t.tags)
            switch HubTemplate.make(platform: i.platform, body: t.body, name: name, headers: t.headers, tags: tags, expiry: t.expiry,
                                  jsonForWNS: true) {
            case .failure(let why): return .failure(InstallationProblem("The template '\(name)' is invalid: \(why)"))
            case .success(let compiled): templates[name] = compiled
            }
        }
        var expiresAt: VirtualTime?
        if let kept = currentExpiry {
            expiresAt = kept
        } else if let text = i.expirationTime {
            guard let seconds = CalendarAnchor.unixSeconds(iso8601: Self.wholeSeconds(text)) else {
                return .failure(InstallationProblem("expirationTime '\(text)' is not a date (yyyy-MM-ddTHH:mm:ssZ)."))
            }
            expiresAt = seconds >= 253_402_300_799 ? nil : world.anchor.virtualTime(unixSeconds: seconds)
        } else {
            expiresAt = configuration.registrationTimeToLive.map { world.now + $0 }
        }
        // The hub keeps APNs tokens upper-cased (NH-REST), as for registrations.
        let channel = i.platform == .apple ? i.pushChannel.uppercased() : i.pushChannel
        return .success(StoredInstallation(id: i.installationID, platform: i.platform, pushChannel: channel,
                                           tags: Self.sortedUnique(i.tags), templates: templates, userID: i.userID,
                                           pushVariables: i.pushVariables,
                                           expiresAt: expiresAt, pushChannelExpired: false, updatedAt: world.now, createdAt: world.now))
    }

    private func traceUpsert(_ s: StoredInstallation, kind: TraceKind, world: World, operations: String? = nil) {
        let expires = s.expiresAt.map { "\($0)" } ?? "never"
        if let operations {
            world.record(layer: "hub", host: Self.name, kind: kind,
                         [.id: .string(s.id), .operations: .string(operations), .platform: .string(s.platform.installationPlatform), .handle: .string(handleLabel(s.pushChannel)),
                          .tags: .string(s.tags.joined(separator: ",")), .templates: .string(s.templateNames.joined(separator: ",")), .expires: .string(expires)])
        } else {
            world.record(layer: "hub", host: Self.name, kind: kind,
                         [.id: .string(s.id), .platform: .string(s.platform.installationPlatform), .handle: .string(handleLabel(s.pushChannel)),
                          .tags: .string(s.tags.joined(separator: ",")), .templates: .string(s.templateNames.joined(separator: ",")), .expires: .string(expires)])
        }
    }

    static func sortedUnique(_ tags: [String]) -> [String] {
        var out: [String] = []
        for t in tags.sorted() where out.last != t { out.append(t) }
        return out
    }

    /// Drops fractional seconds (`2026-01-01T00:00:00.000Z`), as .NET writes them.
    static func wholeSeconds(_ text: String) -> String {
        guard let dot = text.firstIndex(of: ".") else { return text }
        return String(text[..<dot]) + (text.hasSuffix("Z") ? "Z" : "")
    }
}
