import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimDevices
import PushSimScenario

/// The control API under `/_pushsim/`: JSON in, JSON out; every error is
/// `{"error":{"status":…,"message":…}}`. Runs on the world's queue (see ``WorldBridge``).
///
/// | Request | Does |
/// |---|---|
/// | `GET /_pushsim/info` | what a client needs (hub connection string, FCM project, APNs key id, …) |
/// | `GET /_pushsim/clock` | virtual now, its Unix time, the sum of advances |
/// | `POST /_pushsim/clock/advance {"by":"91d"}` | moves virtual time; everything due runs (registrations expire) |
/// | `POST /_pushsim/reset` | a fresh world from the same setup (same seed; new anchor under `wall`) |
/// | `GET /_pushsim/devices` | every device |
/// | `POST /_pushsim/devices {"name","platform","client"?,"user"?}` | 201: a new device, app installed, with its push handle |
/// | `GET /_pushsim/devices/{name}` | one device |
/// | `POST /_pushsim/devices/{name}/{install|uninstall|launch|offline|online|refresh-handle}` | acts on it |
/// | `GET /_pushsim/devices/{name}/notifications[?settle=1s]` | what it showed (text, payload text, service, virtual time) |
/// | `GET /_pushsim/journal[?since=n]` | the world's request journal from entry `n` |
/// | `GET /_pushsim/hub/registrations[?top=n]` | the hub's live registrations (read through its REST API) |
///
/// A device action starts a new causal chain, then runs the world until every call the device
/// made since has its answer, then 1 s of virtual time more so that what the services send back
/// (notifications kept while it was offline) arrives; the answer is the device afterwards.
struct ControlAPI {
    let state: WorldState
    /// Virtual time the world runs after a device action's own calls are answered.
    static let actionSettle = VirtualDuration.seconds(1)

    func handle(_ request: WireRequest) -> HTTPResponse {
        let parts = request.path.split(separator: "/").map { percentDecode($0) }.dropFirst()   // drop "_pushsim"
        let query = splitTarget(request.target).query
        func value(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
        let m = request.method
        let p = Array(parts)
        let route = p.count >= 2 && p[0] == "devices" ? ["devices", "{name}"] + p.dropFirst(2) : p
        switch (m, route.joined(separator: "/")) {
        case ("GET", ""), ("GET", "info"):
            return ServerAnswer.json(200, ConnectionInfo(simulation: state.simulation, baseURL: state.baseURL)
                .json(serviceAccountPath: state.serviceAccountPath))
        case ("GET", "clock"): return ServerAnswer.json(200, state.clockJSON())
        case ("POST", "clock/advance"): return advance(request)
        case ("POST", "reset"):
            state.reset()
            return ServerAnswer.json(200, .object(["reset": true, "clock": state.clockJSON()]))
        case ("GET", "devices"):
            return ServerAnswer.json(200, .object(["devices": .array(state.simulation.devices.map(deviceJSON))]))
        case ("POST", "devices"): return createDevice(request)
        case ("GET", "devices/{name}"):
            guard let device = state.simulation.device(p[1]) else { return noDevice(p[1]) }
            return ServerAnswer.json(200, deviceJSON(device))
        case ("GET", "devices/{name}/notifications"):
            guard let device = state.simulation.device(p[1]) else { return noDevice(p[1]) }
            if let settle = value("settle") {
                guard let d = VirtualDuration.parse(Substring(settle)) else { return badDuration(settle, "settle") }
                state.settle(for: d)
            }
            return ServerAnswer.json(200, .object(["device": .string(p[1]), "clock": state.clockJSON(),
                                                   "notifications": .array(device.inbox.map { notificationJSON($0) })]))
        case ("POST", _) where p.count == 3 && p[0] == "devices": return act(p[2], on: p[1])
        case ("GET", "journal"):
            let since = Int(value("since") ?? "0") ?? 0
            return ServerAnswer.json(200, ControlJournal.json(state.world, since: max(0, since)))
        case ("GET", "hub/registrations"): return registrations(top: Int(value("top") ?? "") ?? 100)
        default:
            let known = ["info", "clock", "reset", "devices", "journal", "hub"]
            if let first = p.first, known.contains(first) {
                return ServerAnswer.error(405, "\(m) is not allowed on \(request.path), or the path is incomplete; see GET /_pushsim/info.")
            }
            return ServerAnswer.error(404, "No control operation at \(m) \(request.path).")
        }
    }

    // MARK: Clock

    private func advance(_ request: WireRequest) -> HTTPResponse {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return refusal.response
        case .success(let b): body = b
        }
        guard let text = body["by"]?.stringValue else { return ServerAnswer.error(400, #"Say how far to advance: {"by":"91d"} (units us ms s m h d)."#) }
        guard let d = VirtualDuration.parse(Substring(text)), d.microseconds >= 0 else { return badDuration(text, "by") }
        state.advance(by: d)
        return ServerAnswer.json(200, state.clockJSON())
    }

    // MARK: Devices

    private func createDevice(_ request: WireRequest) -> HTTPResponse {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return refusal.response
        case .success(let b): body = b
        }
        guard let name = body["name"]?.stringValue, !name.isEmpty, name.utf8.count <= 64,
              name.allBytes({ isTokenByte($0) && $0 != UInt8(ascii: "#") }) else {
            return ServerAnswer.error(400, "A device needs a \"name\" of 1 to 64 letters, digits, '-', '_' or '.'.")
        }
        guard let platformText = body["platform"]?.stringValue, let platform = DevicePlatform(rawValue: platformText) else {
            return ServerAnswer.error(400, "A device needs a \"platform\": ios, android or windows.")
        }
        var client = ClientFlavour.tutorial
        if let c = body["client"]?.stringValue {
            guard let flavour = ClientFlavour(rawValue: c) else { return ServerAnswer.error(400, "\"client\" is tutorial or recommended, not '\(c)'.") }
            client = flavour
        }
        let world = state.world
        guard world.primaryName(name) == nil, name != WorldState.callerName, name != WorldState.controlName else {
            return ServerAnswer.error(409, "The name '\(name)' is taken by a device or a host of the world.")
        }
        let device = state.simulation.addDevice(name, platform, client: client, user: body["user"]?.stringValue)
        if let problem = perform("install", on: device) { return problem }
        return ServerAnswer.json(201, deviceJSON(device))
    }

    private func act(_ action: String, on name: String) -> HTTPResponse {
        guard let device = state.simulation.device(name) else { return noDevice(name) }
        if let problem = perform(action, on: device) { return problem }
        return ServerAnswer.json(200, deviceJSON(device))
    }

    /// Runs a device action as a causal chain of its own and waits for its work; nil when done.
    private func perform(_ action: String, on device: Device) -> HTTPResponse? {
        let actions: [String: (Device) -> Void] = [
            "install": { $0.install() }, "uninstall": { $0.uninstall() }, "launch": { $0.launch() },
            "offline": { $0.goOffline() }, "online": { $0.goOnline() }, "refresh-handle": { $0.refreshHandle() },
        ]
        guard let run = actions[action] else {
            return ServerAnswer.error(404, "No device action '\(action)'; the actions are install, uninstall, launch, offline, online, refresh-handle.")
        }
        let world = state.world
        let firstEntry = world.journal.entries.count
        world.newCorrelation()
        world.record(layer: "server", host: WorldState.controlName, kind: .controlStep, [.step: "\(device.name) \(action)"])
        run(device)
        state.drive(until: {
            world.journal.entries[firstEntry...].allSatisfy { $0.from != device.name || $0.result != nil }
        }, limit: WorldState.callTimeout + .seconds(1))
        state.settle(for: Self.actionSettle)
        return nil
    }

    private func noDevice(_ name: String) -> HTTPResponse {
        let names = state.simulation.devices.map(\.name).joined(separator: ", ")
        let hint = names.isEmpty ? "; create one with POST /_pushsim/devices." : "; devices: " + names + "."
        return ServerAnswer.error(404, "No device named '\(name)'" + hint)
    }

    private func badDuration(_ text: String, _ field: String) -> HTTPResponse {
        ServerAnswer.error(400, "'\(text)' is not a duration for \"\(field)\": write digits and a unit, e.g. 500ms, 30s, 2h, 91d.")
    }

    func deviceJSON(_ d: Device) -> JSONValue {
        .object([
            "name": .string(d.name), "platform": .string(d.platform.rawValue), "client": .string(d.client.rawValue),
            "installed": .bool(d.isAppInstalled), "online": .bool(state.world.isOnline(d.name)),
            "handle": d.handle.map { .string($0) } ?? .null,
            "pushService": .string(d.platform.registrationPlatform),
            "user": d.loggedInUser.map { .string($0) } ?? .null,
            "notifications": .number(JSONNumber(Int64(d.inbox.count))),
        ])
    }

    private func notificationJSON(_ n: ShownNotification) -> JSONValue {
        let anchor = state.world.anchor
        return .object([
            "text": .string(n.text), "service": .string(n.service),
            "virtualTime": .string(n.time.description), "virtualMicroseconds": .number(JSONNumber(n.time.microseconds)),
            "unixMilliseconds": .number(JSONNumber(anchor.unixMilliseconds(n.time))),
            "correlation": .string(n.correlation),
            "badge": n.badge.map { .number(JSONNumber(Int64($0))) } ?? .null,
            "sound": n.sound.map { .string($0) } ?? .null,
            "collapseId": n.collapseID.map { .string($0) } ?? .null,
            "replaced": .bool(n.isReplaced),
        ])
    }

    /// The request's body as a JSON object, or the 400/415 answer saying why it is not one.
    static func jsonBody(_ request: WireRequest) -> Result<JSONValue, ControlRefusal> {
        if request.body.isEmpty { return .success(.object([])) }
        guard let value = try? JSONParser.parse(request.body) else {
            return .failure(ControlRefusal(response: ServerAnswer.error(400, "The body is not JSON.")))
        }
        guard value.objectMembers != nil else { return .failure(ControlRefusal(response: ServerAnswer.error(400, "The body must be a JSON object."))) }
        return .success(value)
    }
}

/// A control request refused before it ran: the answer to give.
struct ControlRefusal: Error {
    var response: HTTPResponse
}
