import PushSimKernel
import PushSimNetwork
import PushSimCrypto
import PushSimHub
import PushSimBackend
import PushSimDevices

/// A browser registering with the notification hub through the hardened backend, as a site that
/// uses the hub for Web Push does (NH-BROWSER): the page subscribes with the hub's VAPID public
/// key as its `applicationServerKey` (the key of the hub's browser credential, which the site
/// publishes), then signs the user in on the backend and registers the subscription there, which
/// writes it to the hub as a browser registration.
extension Simulation {
    /// The VAPID subject of the hub's browser credential in a simulation.
    public static let hubVAPIDSubject = "mailto:push@pushsim.example"
    /// The seed of the hub's VAPID key in a simulation (the same in every run).
    static let hubVAPIDKeySeed = "PushSim hub VAPID key"

    /// The hub's browser credential: its VAPID key pair, made from ``hubVAPIDKeySeed``.
    static var hubBrowserCredential: BrowserCredential? {
        try? BrowserCredential(subject: hubVAPIDSubject, key: DerivedKeyMemo.p256Key(derivedFrom: hubVAPIDKeySeed))
    }

    /// The page signs `user` in (Basic `user:password`) and registers its subscription with the
    /// hardened backend: `POST /api/register?handle=<the hub's handle of the subscription>` for an
    /// id (the backend reuses the one the hub holds for it), then `PUT /api/register/<id>` with
    /// `{"Platform": "browser", "Subscription": <PushSubscription.toJSON()>}`, and the template's
    /// body when given. Subscribes first (with the hub's key) when the page has no subscription.
    /// Each call's answer is traced as `app.call-result` of the browser; a user without an
    /// account gets one (password = user name), as a device's user does.
    public func signIn(_ browser: Browser, user: String, password: String, template: String? = nil) {
        if options.accounts == nil, hardenedBackend.accounts[user] == nil { hardenedBackend.accounts[user] = user }
        guard let key = hub.configuration.browser.flatMap({ Base64URL.decode($0.vapidPublicKey) }) else {
            return world.record(layer: "browser", host: browser.name, kind: .appCallResult,
                                [.operation: "login", .result: "the hub has no browser credential to subscribe with"])
        }
        browser.subscribe(applicationServerKey: key) { [self] subscription in
            register(subscription, of: browser, authorization: Base64.encode(Array("\(user):\(password)".utf8)), template: template)
        }
    }

    /// The two calls of ``signIn(_:user:password:template:)`` once the page has its subscription.
    private func register(_ subscription: BrowserPushSubscription, of browser: Browser, authorization: String, template: String?) {
        guard let channel = try? BrowserPushChannel(endpoint: subscription.endpoint, p256dh: Base64URL.encode(subscription.p256dh),
                                                    auth: Base64URL.encode(subscription.authSecret)) else { return }
        let headers = HTTPHeaders([("Authorization", "Basic " + authorization)])
        let ask = HTTPRequest(method: "POST", authority: HardenedBackend.publicHost, path: "/api/register",
                              query: [("handle", channel.pnsHandle)], headers: headers)
        call(ask, from: browser, operation: .createID) { [self] answer in
            guard answer.status == 200, let id = (try? JSONParser.parse(answer.body))?.stringValue else { return }
            var members: [(String, JSONValue)] = [("Platform", .string("browser")), ("Subscription", subscription.json)]
            if let template { members.append(("Template", .string(template))) }
            let put = HTTPHeaders([("Authorization", "Basic " + authorization), ("Content-Type", "application/json")])
            let write = HTTPRequest(method: "PUT", authority: HardenedBackend.publicHost, path: "/api/register/\(id)", headers: put,
                                    body: JSONValue.object(members).serializedBytes())
            call(write, from: browser, operation: .register) { _ in }
        }
    }

    /// One call of the page to the backend, its answer traced; `then` gets the answer.
    private func call(_ request: HTTPRequest, from browser: Browser, operation: AppOperation, then: @escaping (HTTPResponse) -> Void) {
        world.call(request, from: browser.name, timeout: .seconds(60)) { [self] result in
            world.record(layer: "browser", host: browser.name, kind: .appCallResult,
                         [.operation: .string(operation.rawValue), .result: .string(result.summary)])
            if let response = result.response { then(response) }
        }
    }
}
