import PushSimKernel
import PushSimNetwork

/// Installation calls, mirroring the SDK's `CreateOrUpdateInstallationAsync`, `PatchInstallationAsync`,
/// `GetInstallationAsync`, `DeleteInstallationAsync` and `InstallationExistsAsync` (NH-DOTNET): the
/// same paths, bodies and expected statuses (200, 200, 200, 204).
extension NotificationHubClient {
    /// `PUT /installations/<id>` with the installation's JSON; 200 expected.
    public func createOrUpdateInstallation(_ installation: Installation, _ completion: @escaping (Result<Void, HubError>) -> Void) {
        guard !installation.installationID.isEmpty else { return refuse("InstallationId must be specified", completion) }
        send("PUT", "installations/\(percentEncode(installation.installationID))",
             headers: [("Content-Type", "application/json")], body: Array(InstallationJSON.encode(installation).utf8), expect: 200) {
            completion($0.map { _ in () })
        }
    }

    /// `PATCH /installations/<id>` with a JSON Patch (`application/json-patch+json`); 200 expected.
    public func patchInstallation(_ installationID: String, operations: [InstallationPatchOperation],
                                  _ completion: @escaping (Result<Void, HubError>) -> Void) {
        guard !operations.isEmpty else { return refuse("Operations list is empty", completion) }
        send("PATCH", "installations/\(percentEncode(installationID))", headers: [("Content-Type", "application/json-patch+json")],
             body: Array(InstallationPatchOperation.body(operations).utf8), expect: 200) { completion($0.map { _ in () }) }
    }

    /// `GET /installations/<id>`; 200 with the installation's JSON expected.
    public func getInstallation(_ installationID: String, _ completion: @escaping (Result<Installation, HubError>) -> Void) {
        send("GET", "installations/\(percentEncode(installationID))", expect: 200) { result in
            completion(result.flatMap { r in
                guard let json = try? JSONParser.parse(r.body) else {
                    return .failure(HubError(kind: .messaging, status: r.status, detail: "the installation could not be read"))
                }
                return InstallationJSON.decode(json, id: installationID).map { i in
                    var out = i
                    out.pushChannelExpired = json["pushChannelExpired"]?.boolValue ?? false
                    return out
                }.mapError { HubError(kind: .messaging, status: r.status, detail: $0.description) }
            })
        }
    }

    /// `DELETE /installations/<id>`; 204 expected (also when there was none).
    public func deleteInstallation(_ installationID: String, _ completion: @escaping (Result<Void, HubError>) -> Void) {
        send("DELETE", "installations/\(percentEncode(installationID))", expect: 204) { completion($0.map { _ in () }) }
    }

    /// Whether `GET /installations/<id>` answers 200 (404 is `false`, not an error).
    public func installationExists(_ installationID: String, _ completion: @escaping (Result<Bool, HubError>) -> Void) {
        getInstallation(installationID) { result in
            switch result {
            case .success: completion(.success(true))
            case .failure(let e) where e.status == 404: completion(.success(false))
            case .failure(let e): completion(.failure(e))
            }
        }
    }
}
