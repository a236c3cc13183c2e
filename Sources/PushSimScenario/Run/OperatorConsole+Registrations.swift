import PushSimKernel
import PushSimHub
import PushSimDevices

extension OperatorConsole {
    /// Reads the registration whose id `device`'s app stored, then updates it unchanged (a PUT
    /// with `If-Match`, as the SDK's `UpdateRegistrationAsync` sends) or deletes it (a DELETE with
    /// `If-Match`), naming the version `ifMatch` says (`any` is for deletes: the SDK's update
    /// always names a version). Recorded as a `register` (update) or
    /// `unregister` (delete) call with the hub's status: 200/201, 412 for a stale ETag, 404 or 410
    /// for a registration that is not there (NH-REST; see the hub's `HubFidelityRules.swift`).
    public func writeRegistration(of device: Device, delete: Bool, ifMatch: IfMatchChoice) {
        let operation: AppOperation = delete ? .unregister : .register
        world.record(layer: "operator", host: Self.name, kind: .operatorRegistration,
                     [.device: .string(device.name), .write: delete ? "delete" : "update", .ifMatch: .string(ifMatch.rawValue)])
        let sentAt = world.now
        guard let id = device.storage[Device.registrationIDKey] else {
            return finishCall(operation, sentAt, nil, "\(device.name) has stored no registration id")
        }
        // The hub's status: on success the one it answered with (a delete's 200; an update's 200
        // or 201, as `hub registration status` says), on failure the error's (a failure without
        // one is recorded by its description).
        let done = { [self] (status: Int?, failure: HubError?) in
            finishCall(operation, sentAt, failure.map(\.status) ?? status, failure.flatMap { $0.status == nil ? $0.description : nil })
        }
        hub.getRegistration(id) { [self] read in
            guard case .success(var registration) = read else { return done(nil, read.failure) }
            let current = Int(registration.etag ?? "") ?? 1
            let etag: String
            switch ifMatch {
            case .current: etag = String(current)
            case .stale: etag = String(current - 1)
            case .any: etag = ""
            }
            if delete {
                hub.deleteRegistration(id, etag: etag) { done(200, $0.failure) }
            } else {
                registration.etag = etag
                hub.updateRegistrationAnswered(registration) { done((try? $0.get())?.status, $0.failure) }
            }
        }
    }

    /// Records the call's outcome, like a device's backend call.
    func finishCall(_ operation: AppOperation, _ sentAt: VirtualTime, _ status: Int?, _ failure: String?) {
        recordCall(AppCallRecord.make(operation: operation, sentAt: sentAt, completedAt: world.now, status: status, failure: failure))
        world.record(layer: "operator", host: Self.name, kind: .operatorResult, [.result: .string(status.map(String.init) ?? (failure ?? "no HTTP answer"))])
    }
}

extension Result {
    /// The error, or nil on success.
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
