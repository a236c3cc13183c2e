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
/// | `POST /_pushsim/devices {"name","platform","client"?,"user"?,"firebase"?,"os"?}` | 201: a new device, app installed, with its push handle (`"firebase":true`: an iPhone app with the Firebase SDK, which also gets an FCM token bound to its APNs token; `"os":18`: the OS major version, which a Live Activity on a broadcast channel needs) |
/// | `GET /_pushsim/devices/{name}` | one device: name, platform, client, installed, online, handle, `fcmToken` (an iPhone Firebase app's FCM token; null elsewhere), `fid` (an Android app's Firebase installation ID, the target of an FCM `message.fid` send; null elsewhere), `topics` (the FCM topics its token is subscribed to, sorted; empty elsewhere), pushService, user, notifications, `permission`, `disabledChannels`, `suppressed` |
/// | `POST /_pushsim/devices/{name}/{install|uninstall|launch|offline|online|refresh-handle|clear-data}` | acts on it |
/// | `POST /_pushsim/devices/{name}/{deny-notifications|allow-notifications|…|disable-channel}` | the user's notification settings (see `ControlAPI+Permission.swift`) |
/// | `POST /_pushsim/devices/{name}/start-live-activity {"attributesType","contentState","channel"?,…}` | the app starts a Live Activity, on an APNs broadcast channel when `channel` names APNs' id (see `ControlAPI+LiveActivities.swift`) |
/// | `GET /_pushsim/devices/{name}/notifications[?settle=1s \| ?wait=5s&count=n]` | what it showed (text, payload text, service, virtual time); `wait` is a long poll |
/// | `GET /_pushsim/journal[?since=n&host=&path=&status=&from=&to=]` | the world's request journal, filtered |
/// | `GET /_pushsim/hub/registrations[?top=n]` | the hub's live registrations (read through its REST API) |
/// | `GET /_pushsim/hub/key`, `POST /_pushsim/hub/key {"key":"full"\|"listen"\|"<policy>"}` | the hub policy whose key the world's backends call the hub with (see `ControlAPI+Hub.swift`) |
/// | `GET /_pushsim/apns/broadcast`, `POST /_pushsim/apns/broadcast {"enabled":false}` | the app's APNs Broadcast capability; off, channel management and broadcasts answer 400 `FeatureNotEnabled` (see `ControlAPI+APNsBroadcast.swift`) |
/// | `GET /_pushsim/fcm/apns-key`, `POST /_pushsim/fcm/apns-key {"state":"uploaded"\|"missing"\|"wrong-team"}` or `{"keyId","teamId","p8"}` | the Firebase project's APNs auth key, which FCM relays iOS sends with (see `ControlAPI+FCM.swift`) |
/// | `POST /_pushsim/faults {"service","kind",…}` | 201: a fault injected now (see `ControlAPI+Faults.swift`) |
/// | `GET /_pushsim/faults` | the faults not yet over, with what is left of each |
/// | `DELETE /_pushsim/faults[/{id}]` | ends one fault, or all |
/// | `POST /_pushsim/expect {"expect":"…"}` | one expectation in the scenario language, judged now (or waited for, with `by`) |
/// | `GET /_pushsim/page` | the session as a teaching page (HTML; see `ControlAPI+Page.swift`) |
/// | `GET`, `POST /_pushsim/browsers[/{name}[/…]]` | simulated browsers: make one (subscribed with an application server key when given), list them, read one's subscription JSON and notifications, act on it (see `ControlAPI+Browsers.swift`) |
/// | `POST`, `GET`, `DELETE /_pushsim/webpush/subscriptions` | browsers' push subscriptions: make one, list them, unsubscribe (see `ControlAPI+WebPush.swift`) |
/// | `GET /_pushsim/keys`, `GET /_pushsim/keys/apns.p8`, `GET /_pushsim/keys/service-account.json` | the keys the fakes verify signatures with; the world's own key files |
/// | `POST /_pushsim/keys/apns {"keyId","teamId","publicKey"\|"p8"}`, `POST /_pushsim/keys/fcm {"clientEmail","publicKey"\|"privateKey"}` | 201: a key of your own registered (see `ControlAPI+Keys.swift`) |
///
/// A device action starts a new causal chain and answers with the device once every call it made
/// since has its answer (see ``perform(_:on:status:)``). A handler answers at once or gives a
/// ``Wait`` (see ``WorldState``).
struct ControlAPI {
    let state: WorldState
    /// In a replay of `POST /_pushsim/reset` under `wall`: the anchor the recorded reset took.
    var replayAnchor: CalendarAnchor? = nil
    /// Virtual time the world runs after a device action's own calls are answered (`manual` only).
    static let actionSettle = VirtualDuration.seconds(1)
    /// The longest a long poll (`?wait=`) may wait, in wall-clock seconds.
    static let longestWait = 300.0

    func handle(_ request: WireRequest) -> Outcome {
        if let token = state.controlToken, request.header("Authorization") != "Bearer " + token {
            return .answer(ServerAnswer.error(401, "The control API needs the server's control token: Authorization: Bearer <token> "
                + "(pushsim serve --control-token)."))
        }
        let parts = request.path.split(separator: "/").map { percentDecode($0) }.dropFirst()   // drop "_pushsim"
        let query = splitTarget(request.target).query
        func value(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
        let m = request.method
        let p = Array(parts)
        if p.first == "browsers" { return browsers(request, path: p) }
        let route = p.count >= 2 && p[0] == "devices" ? ["devices", "{name}"] + p.dropFirst(2) : p
        switch (m, route.joined(separator: "/")) {
        case ("GET", ""), ("GET", "info"):
            return .answer(ServerAnswer.json(200, ConnectionInfo(simulation: state.simulation, baseURL: state.baseURL)
                .json(keyFiles: state.keyFiles)))
        case ("GET", "clock"): return .answer(ServerAnswer.json(200, state.clockJSON()))
        case ("POST", "clock/advance"): return .answer(advance(request))
        case ("POST", "reset"):
            state.reset(anchor: replayAnchor)
            return .answer(ServerAnswer.json(200, .object(["reset": true, "clock": state.clockJSON()])))
        case ("GET", "devices"):
            return .answer(ServerAnswer.json(200, .object(["devices": .array(state.simulation.devices.map(deviceJSON))])))
        case ("POST", "devices"): return createDevice(request)
        case ("GET", "devices/{name}"):
            guard let device = state.simulation.device(p[1]) else { return .answer(noDevice(p[1])) }
            return .answer(ServerAnswer.json(200, deviceJSON(device)))
        case ("GET", "devices/{name}/notifications"):
            guard let device = state.simulation.device(p[1]) else { return .answer(noDevice(p[1])) }
            return notifications(of: device, settle: value("settle"), wait: value("wait"), count: value("count"))
        case ("POST", _) where p.count == 3 && p[0] == "devices": return act(p[2], on: p[1], request)
        case ("GET", "journal"):
            switch ControlJournal.parse(value) {
            case .failure(let refusal): return .answer(refusal.response)
            case .success(let filter): return .answer(ServerAnswer.json(200, filter.json(state.world)))
            }
        case ("GET", "hub/registrations"): return registrations(top: Int(value("top") ?? "") ?? 100)
        case ("GET", "hub/key"): return .answer(ServerAnswer.json(200, hubKeyJSON()))
        case ("POST", "hub/key"): return .answer(useHubKey(request))
        case ("GET", "hub/browser-credential"): return .answer(hubBrowserCredentialAnswer())
        case ("GET", "apns/broadcast"): return .answer(ServerAnswer.json(200, apnsBroadcastJSON()))
        case ("POST", "apns/broadcast"): return .answer(setAPNsBroadcast(request))
        case ("GET", "fcm/apns-key"): return .answer(ServerAnswer.json(200, fcmAPNsKeyJSON()))
        case ("POST", "fcm/apns-key"): return .answer(setFCMAPNsKey(request))
        case (_, "faults"): return .answer(faults(request, id: nil))
        case ("POST", "expect"): return expect(request)
        case ("GET", "page"): return .answer(page())
        case (_, "webpush/subscriptions"): return .answer(webPush(request, query: query))
        case ("GET", "keys"): return .answer(ServerAnswer.json(200, keysJSON()))
        case ("GET", "keys/apns.p8"): return .answer(apnsKeyFile())
        case ("GET", "keys/service-account.json"): return .answer(serviceAccountFile())
        case ("POST", "keys/apns"): return .answer(registerAPNsKey(request))
        case ("POST", "keys/fcm"): return .answer(registerServiceAccountKey(request))
        case ("DELETE", _) where p.count == 2 && p[0] == "faults": return .answer(faults(request, id: p[1]))
        default:
            let known = ["info", "clock", "reset", "devices", "journal", "hub", "fcm", "faults", "expect", "page", "webpush", "keys", "browsers"]
            if let first = p.first, known.contains(first) {
                return .answer(ServerAnswer.error(405, "\(m) is not allowed on \(request.path), or the path is incomplete; see GET /_pushsim/info."))
            }
            return .answer(ServerAnswer.error(404, "No control operation at \(m) \(request.path)."))
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

    // MARK: Notifications

    /// `GET /_pushsim/devices/{name}/notifications[?settle=d | ?wait=d[&count=n]]`.
    ///
    /// - `settle=d`: the world runs `d` further first. Under `manual` that is an advance (it moves
    ///   the clock and counts in `advancedMicroseconds`); under `wall` the answer waits until the
    ///   wall clock has brought the world `d` further.
    /// - `wait=d&count=n` (a long poll): answers as soon as the device has shown `n` notifications
    ///   since it was made (default 1), or when `d` of wall time has passed, saying which
    ///   (`"waited":{"count":n,"reached":true|false}`). Waiting never moves virtual time.
    private func notifications(of device: Device, settle: String?, wait: String?, count: String?) -> Outcome {
        let answer = { () -> HTTPResponse in notificationsAnswer(device, waited: nil) }
        if let settle {
            guard wait == nil else { return .answer(ServerAnswer.error(400, "Give settle or wait, not both.")) }
            guard let d = VirtualDuration.parse(Substring(settle)), d.microseconds >= 0 else { return .answer(badDuration(settle, "settle")) }
            if state.policy == .manual { state.advance(by: d); return .answer(answer()) }
            let target = state.world.now + d
            let world = state.world
            return .wait(Wait(isDone: { world.now >= target }, finish: answer, virtualLimit: d))
        }
        guard let wait else {
            if count != nil { return .answer(ServerAnswer.error(400, "count goes with wait: ?wait=5s&count=2.")) }
            return .answer(answer())
        }
        guard let d = VirtualDuration.parse(Substring(wait)), d.microseconds >= 0,
              Double(d.microseconds) / 1e6 <= Self.longestWait else {
            return .answer(ServerAnswer.error(400, "'\(wait)' is not a wait: a wall-clock duration up to 300s, e.g. 500ms or 5s."))
        }
        var wanted = 1
        if let count {
            guard let n = Int(count), n >= 0, n <= 1_000_000 else {
                return .answer(ServerAnswer.error(400, "'\(count)' is not a count: a whole number of notifications from 0 to 1000000."))
            }
            wanted = n
        }
        let reached = { device.shownCount >= wanted }
        return .wait(Wait(isDone: reached,
                          finish: { notificationsAnswer(device, waited: (wanted, true)) },
                          wallSeconds: min(Double(d.microseconds) / 1e6, state.longestWait),
                          expire: { notificationsAnswer(device, waited: (wanted, reached())) }))
    }

    private func notificationsAnswer(_ device: Device, waited: (count: Int, reached: Bool)?) -> HTTPResponse {
        var members: [(String, JSONValue)] = [
            ("device", .string(device.name)), ("clock", state.clockJSON()),
            ("shown", .number(JSONNumber(Int64(device.shownCount)))),
            ("dropped", .number(JSONNumber(Int64(device.inboxDropped)))),
        ]
        if let waited {
            members.append(("waited", .object(["count": .number(JSONNumber(Int64(waited.count))), "reached": .bool(waited.reached)])))
        }
        members.append(("notifications", .array(device.inbox.map { notificationJSON($0) })))
        return ServerAnswer.json(200, .object(members))
    }

    // MARK: Devices

    private func createDevice(_ request: WireRequest) -> Outcome {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return .answer(refusal.response)
        case .success(let b): body = b
        }
        guard let name = Self.hostName(body) else {
            return .answer(ServerAnswer.error(400, "A device needs a \"name\" of 1 to 64 letters, digits, '-', '_' or '.'."))
        }
        guard let platformText = body["platform"]?.stringValue, let platform = DevicePlatform(rawValue: platformText) else {
            return .answer(ServerAnswer.error(400, "A device needs a \"platform\": ios, android or windows."))
        }
        var client = ClientFlavour.tutorial
        if let c = body["client"]?.stringValue {
            guard let flavour = ClientFlavour(rawValue: c) else { return .answer(ServerAnswer.error(400, "\"client\" is tutorial or recommended, not '\(c)'.")) }
            client = flavour
        }
        guard isFree(name) else {
            return .answer(ServerAnswer.error(409, "The name '\(name)' is taken by a device or a host of the world."))
        }
        // "os": the OS major version (Live Activities need iOS 16, push-to-start 17); the platform's default when absent.
        var os: Int?
        if let given = body["os"] {
            guard let n = given.int64Value, (1...99).contains(n) else { return .answer(ServerAnswer.error(400, "\"os\" is a major version from 1 to 99, e.g. 18.")) }
            os = Int(n)
        }
        let device = state.simulation.addDevice(name, platform, client: client, user: body["user"]?.stringValue, osVersion: os,
                                                firebase: body["firebase"]?.boolValue ?? false)
        state.adopt(device)
        return perform("install", on: device, status: 201)
    }

    /// A body's `name`: 1 to 64 token characters, no `#` (a fleet member's mark); nil otherwise.
    static func hostName(_ body: JSONValue) -> String? {
        guard let name = body["name"]?.stringValue, !name.isEmpty, name.utf8.count <= 64,
              name.allBytes({ isTokenByte($0) && $0 != UInt8(ascii: "#") }) else { return nil }
        return name
    }

    /// Whether no host of the world, nor the server's own callers, has the name `name`.
    func isFree(_ name: String) -> Bool {
        state.world.primaryName(name) == nil && name != WorldState.callerName && name != WorldState.controlName
    }

    private func act(_ action: String, on name: String, _ request: WireRequest) -> Outcome {
        guard let device = state.simulation.device(name) else { return .answer(noDevice(name)) }
        if Self.liveActivityActionNames.contains(action) {
            switch liveActivityStep(request, action: action) {
            case .failure(let refusal): return .answer(refusal.response)
            case .success(let step): return perform(action, on: device, status: 200, step: step)
            }
        }
        if let channelAction = Self.channelActions[action] {
            switch channelStep(request, enabled: channelAction) {
            case .failure(let refusal): return .answer(refusal.response)
            case .success(let step): return perform(action, on: device, status: 200, step: step)
            }
        }
        return perform(action, on: device, status: 200)
    }

    /// Runs a device action as a causal chain of its own and answers `status` with the device once
    /// every call the device made since has its answer: under `manual` the world runs on the spot
    /// (then ``actionSettle`` more, as an advance, so that what the services send back arrives);
    /// under `wall` the answer waits for the world to get there.
    /// `step` is what the action does when it needs more than its name (a channel's id), and
    /// `\(action) \(detail)` labels it.
    private func perform(_ action: String, on device: Device, status: Int, step: (label: String, run: (Device) -> Void)? = nil) -> Outcome {
        let actions: [String: (Device) -> Void] = [
            "install": { $0.install() }, "uninstall": { $0.uninstall() }, "launch": { $0.launch() },
            "offline": { $0.goOffline() }, "online": { $0.goOnline() }, "refresh-handle": { $0.refreshHandle() },
            "clear-data": { $0.clearData() },
        ].merging(Self.permissionActions) { first, _ in first }
        guard let run = step?.run ?? actions[action] else {
            return .answer(ServerAnswer.error(404, "No device action '\(action)'; the actions are install, uninstall, launch, offline, online, "
                + "refresh-handle, clear-data, \(Self.permissionActionNames), \(Self.liveActivityActionNames.joined(separator: ", "))."))
        }
        return self.step("\(device.name) \(step?.label ?? action)", by: device.name, run: { run(device) },
                         answer: { ServerAnswer.json(status, deviceJSON(device)) })
    }

    /// Runs `run` (a step of the host `actor`, labelled `label` in the trace) as a causal chain of
    /// its own, and gives `answer` once every call `actor` made since has its answer (see
    /// ``perform(_:on:status:)``).
    func step(_ label: String, by actor: String, run: () -> Void, answer: @escaping () -> HTTPResponse) -> Outcome {
        let world = state.world
        let firstEntry = world.journal.count
        world.newCorrelation()
        world.record(layer: "server", host: WorldState.controlName, kind: .controlStep, [.step: .string(label)])
        run()
        let callsDone = { world.journal.entries(from: firstEntry).allSatisfy { $0.from != actor || $0.result != nil } }
        if state.policy == .manual {
            state.runWorld(to: world.now + WorldState.callTimeout + .seconds(1), until: callsDone)
            state.advance(by: Self.actionSettle)
            return .answer(answer())
        }
        return .wait(Wait(isDone: callsDone, finish: answer, virtualLimit: WorldState.callTimeout + .seconds(1)))
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
        let fields: JSONValue = .object([
            "name": .string(d.name), "platform": .string(d.platform.rawValue), "client": .string(d.client.rawValue),
            "installed": .bool(d.isAppInstalled), "online": .bool(state.world.isOnline(d.name)),
            "handle": d.handle.map { .string($0) } ?? .null,
            "fcmToken": d.fcmToken.map { .string($0) } ?? .null,
            "fid": d.firebaseInstallationID.map { .string($0) } ?? .null,
            "topics": .array(d.platform == .android ? (d.handle.map { state.simulation.fcm.topics(of: $0).map { .string($0.topic) } } ?? []) : []),
            "pushService": .string(d.platform.registrationPlatform),
            "user": d.loggedInUser.map { .string($0) } ?? .null,
            "notifications": .number(JSONNumber(Int64(d.shownCount))),
        ])
        guard case .object(let pairs) = fields else { return fields }
        return .object(pairs + permissionJSON(d) + liveActivityJSON(d))
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
