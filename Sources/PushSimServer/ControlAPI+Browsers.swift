import PushSimKernel
import PushSimNetwork
import PushSimDevices
import PushSimScenario

/// The control API's simulated browsers (``Browser``): for an application server under test
/// (`pywebpush`, `web-push`) to have a real subscription to send to, and to see the text the
/// browser decrypted and showed.
///
/// | Request | Does |
/// |---|---|
/// | `POST /_pushsim/browsers {"name","vendor","permission"?,"prompt"?,"applicationServerKey"?}` | 201: a new browser (`vendor` chrome, firefox, safari or edge; `permission` default, granted or denied; `prompt` allow or deny); with a key (base64url, your VAPID public key) it subscribes at once, as the page would |
/// | `GET /_pushsim/browsers` | every browser |
/// | `GET /_pushsim/browsers/{name}` | one browser: vendor, permission, online, `subscription` (as below, or null), `subscribeErrors` (the `DOMException` names of refused `subscribe()` calls), notifications shown |
/// | `GET /_pushsim/browsers/{name}/subscription` | `PushSubscription.toJSON()`: `{"endpoint","expirationTime":null,"keys":{"p256dh","auth"}}`, what `pywebpush`'s `subscription_info` takes; 404 without one |
/// | `GET /_pushsim/browsers/{name}/notifications` | what its service worker showed, decrypted: text, virtual time |
/// | `POST /_pushsim/browsers/{name}/subscribe {"applicationServerKey"}` | `pushManager.subscribe()` |
/// | `POST /_pushsim/browsers/{name}/{unsubscribe\|clear-profile\|offline\|online}` | acts on it |
///
/// A step answers once every call the browser made meanwhile has its answer, as a device's does.
extension ControlAPI {
    func browsers(_ request: WireRequest, path p: [String]) -> Outcome {
        let m = request.method
        if p.count == 1 {
            if m == "GET" { return .answer(ServerAnswer.json(200, .object([("browsers", .array(state.simulation.browsers.map(browserJSON)))]))) }
            if m == "POST" { return createBrowser(request) }
        }
        guard p.count >= 2 else { return .answer(ServerAnswer.error(405, "\(m) is not allowed on \(request.path); use GET or POST.")) }
        guard let browser = state.simulation.browser(p[1]) else {
            let names = state.simulation.browsers.map(\.name).joined(separator: ", ")
            return .answer(ServerAnswer.error(404, "No browser named '\(p[1])'" + (names.isEmpty ? "; create one with POST /_pushsim/browsers." : "; browsers: \(names).")))
        }
        switch (m, p.count == 3 ? p[2] : "") {
        case ("GET", ""): return .answer(ServerAnswer.json(200, browserJSON(browser)))
        case ("GET", "subscription"):
            guard let s = browser.subscription else { return .answer(ServerAnswer.error(404, "'\(browser.name)' has no push subscription.")) }
            return .answer(ServerAnswer.json(200, s.json))
        case ("GET", "notifications"):
            return .answer(ServerAnswer.json(200, .object([("browser", .string(browser.name)),
                                                           ("notifications", .array(browser.inbox.map(shownJSON)))])))
        case ("POST", "subscribe"):
            let body: JSONValue
            switch Self.jsonBody(request) {
            case .failure(let refusal): return .answer(refusal.response)
            case .success(let b): body = b
            }
            guard let text = body["applicationServerKey"]?.stringValue, let key = Base64URL.decode(text) else {
                return .answer(ServerAnswer.error(400, "Give the \"applicationServerKey\": your VAPID public key, base64url (65 bytes uncompressed)."))
            }
            return act("subscribe", on: browser, status: 200) { browser.subscribe(applicationServerKey: key) }
        case ("POST", "unsubscribe"): return act("unsubscribe", on: browser, status: 200) { browser.unsubscribe() }
        case ("POST", "clear-profile"): return act("clear-profile", on: browser, status: 200) { browser.clearProfile() }
        case ("POST", "offline"): return act("offline", on: browser, status: 200) { browser.goOffline() }
        case ("POST", "online"): return act("online", on: browser, status: 200) { browser.goOnline() }
        default:
            return .answer(ServerAnswer.error(404, "No browser operation \(m) \(request.path); see GET /_pushsim/info."))
        }
    }

    private func createBrowser(_ request: WireRequest) -> Outcome {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return .answer(refusal.response)
        case .success(let b): body = b
        }
        guard let name = Self.hostName(body) else {
            return .answer(ServerAnswer.error(400, "A browser needs a \"name\" of 1 to 64 letters, digits, '-', '_' or '.'."))
        }
        guard let vendor = body["vendor"]?.stringValue.flatMap(BrowserVendor.init(rawValue:)) else {
            return .answer(ServerAnswer.error(400, "A browser needs a \"vendor\": chrome, firefox, safari or edge."))
        }
        var permission = WebNotificationPermission.default, prompt = PermissionPromptAnswer.allow
        if let text = body["permission"]?.stringValue {
            guard let p = WebNotificationPermission(rawValue: text) else { return .answer(ServerAnswer.error(400, "\"permission\" is default, granted or denied.")) }
            permission = p
        }
        if let text = body["prompt"]?.stringValue {
            guard let p = PermissionPromptAnswer(rawValue: text) else { return .answer(ServerAnswer.error(400, "\"prompt\" is allow or deny.")) }
            prompt = p
        }
        var key: [UInt8]?
        if let text = body["applicationServerKey"]?.stringValue {
            guard let bytes = Base64URL.decode(text) else { return .answer(ServerAnswer.error(400, "\"applicationServerKey\" is not base64url.")) }
            key = bytes
        }
        guard isFree(name) else {
            return .answer(ServerAnswer.error(409, "The name '\(name)' is taken by a device, a browser or a host of the world."))
        }
        let browser = state.simulation.addBrowser(name, vendor: vendor, permission: permission, promptAnswer: prompt)
        guard let key else { return .answer(ServerAnswer.json(201, browserJSON(browser))) }
        return act("subscribe", on: browser, status: 201) { browser.subscribe(applicationServerKey: key) }
    }

    private func act(_ action: String, on browser: Browser, status: Int, _ run: () -> Void) -> Outcome {
        step("\(browser.name) \(action)", by: browser.name, run: run, answer: { ServerAnswer.json(status, browserJSON(browser)) })
    }

    func browserJSON(_ b: Browser) -> JSONValue {
        .object([("name", .string(b.name)), ("vendor", .string(b.vendor.rawValue)), ("permission", .string(b.permission.rawValue)),
                 ("online", .bool(state.world.isOnline(b.name))), ("subscription", b.subscription?.json ?? .null),
                 ("subscribeErrors", .array(b.subscribeOutcomes.compactMap { $0 }.map(JSONValue.string))),
                 ("notifications", .number(JSONNumber(Int64(b.inbox.count))))])
    }

    private func shownJSON(_ n: ShownNotification) -> JSONValue {
        .object([("text", .string(n.text)), ("virtualTime", .string(n.time.description)),
                 ("unixMilliseconds", .number(JSONNumber(state.world.anchor.unixMilliseconds(n.time)))), ("correlation", .string(n.correlation))])
    }
}
