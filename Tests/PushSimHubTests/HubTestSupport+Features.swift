import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Helpers for installations, templates, scheduled, direct and test sends, and telemetry.
extension HubWorld {
    /// Like `wait`, but runs the world for one virtual second only, so that later work (a scheduled
    /// send) stays pending.
    func soon<T>(_ start: (@escaping (T) -> Void) -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> T? {
        var out: T?
        start { out = $0 }
        world.run(until: world.now + .seconds(1))
        if out == nil { Issue.record("the operation did not complete within a second", sourceLocation: sourceLocation) }
        return out
    }

    // MARK: Installations

    @discardableResult
    func install(_ i: Installation, sourceLocation: SourceLocation = #_sourceLocation) -> Result<Void, HubError>? {
        wait({ client.createOrUpdateInstallation(i, $0) }, sourceLocation: sourceLocation)
    }

    func installation(_ id: String) -> Result<Installation, HubError>? { wait { client.getInstallation(id, $0) } }

    func patch(_ id: String, _ ops: [InstallationPatchOperation]) -> Result<Void, HubError>? {
        wait { client.patchInstallation(id, operations: ops, $0) }
    }

    /// Raw PUT of an installation body.
    func putInstallation(_ id: String, json: String) -> HTTPResponse? {
        raw("PUT", path("installations/\(id)"), headers: [("Content-Type", "application/json")], body: Array(json.utf8))
    }

    /// Raw PATCH with a JSON body.
    func rawPatch(_ id: String, json: String, contentType: String = "application/json-patch+json") -> HTTPResponse? {
        raw("PATCH", path("installations/\(id)"), headers: [("Content-Type", contentType)], body: Array(json.utf8))
    }

    // MARK: Templates

    /// A template registration through the client; returns its id.
    @discardableResult
    func registerTemplate(_ platform: RegistrationPlatform, _ handle: String, body: String, name: String? = nil,
                          tags: [String] = [], headers: [TemplateHeader] = [],
                          sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let id = createID(sourceLocation: sourceLocation)
        let d = RegistrationDescription(platform: platform, handle: handle, tags: tags, registrationID: id,
                                        template: RegistrationTemplate(bodyTemplate: body, templateName: name, wnsHeaders: headers))
        let r = wait({ client.createOrUpdateRegistration(d, $0) }, sourceLocation: sourceLocation)
        if case .failure(let e)? = r { Issue.record("template registration failed: \(e)", sourceLocation: sourceLocation) }
        return id
    }

    func sendTemplate(_ properties: [(String, String)], tags: String? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) -> Result<NotificationOutcome, HubError>? {
        wait({ client.sendTemplateNotification(properties: properties, tagExpression: tags, $0) }, sourceLocation: sourceLocation)
    }

    // MARK: Telemetry

    /// The telemetry of `id`, read within a second (pending scheduled sends stay pending).
    func details(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) -> NotificationDetails? {
        guard case .success(let d)? = soon({ client.getNotificationOutcomeDetails(id, $0) }, sourceLocation: sourceLocation) else {
            Issue.record("no details for \(id)", sourceLocation: sourceLocation)
            return nil
        }
        return d
    }

    /// The notification id of a successful outcome.
    func id(_ outcome: Result<NotificationOutcome, HubError>?, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        guard case .success(let o)? = outcome, let id = o.notificationID else {
            Issue.record("send failed: \(String(describing: outcome))", sourceLocation: sourceLocation)
            return "?"
        }
        return id
    }
}

extension Payload {
    static let appleTemplate = ##"{"aps":{"alert":"$(message)","badge":"#(badge)"}}"##
    static let fcmTemplate = #"{"message":{"notification":{"title":"$(title)","body":"$(message)"}}}"#
    static let toastTemplate = #"<toast><visual><binding template="ToastGeneric"><text>$(message)</text></binding></visual></toast>"#
}
