import PushSimKernel
import PushSimNetwork

extension Device {
    /// The user logs in. As in the tutorial, this only builds the Basic `Authorization` value
    /// and registers; the Log In button stays disabled until the push handle has arrived.
    public func login(user: String, password: String) {
        guard isAppInstalled else { return record(.appIgnored, [.action: "login", .why: "the app is not installed"]) }
        guard handle != nil else {
            return record(.appIgnored, [.action: "login", .why: "the Log In button is disabled until the push handle arrives"])
        }
        authorization = Base64.encode(Array("\(user):\(password)".utf8))
        loggedInUser = user
        record(.appLogin, [.user: .string(user)])
        register()
    }

    /// Runs the registration routine of this device's client logic.
    public func register() {
        guard isAppInstalled, let handle, authorization != nil else {
            return record(.appIgnored, [.action: "register", .why: "needs the app installed, a handle and a login"])
        }
        logic.register(on: self, handle: handle)
    }

    /// Registers again, asking for `tags` besides the user tag (a client that asks for tags it
    /// should not have, e.g. `username:someone-else`, is how defect i is shown).
    public func register(withTags tags: [String]) {
        requestedTags = tags
        record(.appTagsRequested, [.tags: .string(tags.joined(separator: ","))])
        register()
    }

    /// Logs out: the client logic deletes the registration through the backend
    /// (`DELETE /api/register/<id>`: once for the tutorial app, retried until answered for the
    /// recommended one), and the app forgets the stored id and the credentials. (The tutorial app
    /// has no logout; this is the obvious one on top of the tutorial backend's DELETE.)
    public func logout() {
        guard isAppInstalled, authorization != nil else {
            return record(.appIgnored, [.action: "logout", .why: "nobody is logged in"])
        }
        record(.appLogout, [.user: .string(loggedInUser ?? "")])
        logic.logout(on: self, registrationID: storage[Device.registrationIDKey]) {
            storage[Device.registrationIDKey] = nil
            authorization = nil
            loggedInUser = nil
            requestedTags = []
        }
    }

    /// Sends a request written out by hand to the backend (not the app's logic): for showing
    /// how the backend answers malformed or unauthenticated calls. `target` is `path?query`.
    public func request(_ method: String, _ target: String, authorization auth: RequestAuthorization, body: String?) {
        let (path, query) = splitTarget(target)
        var headers = HTTPHeaders()
        switch auth {
        case .none: break
        case .basic(let user, let password): headers.add("Authorization", "Basic " + Base64.encode(Array("\(user):\(password)".utf8)))
        case .header(let value): headers.add("Authorization", value)
        }
        if body != nil { headers.add("Content-Type", "application/json") }
        record(.appRequest, [.method: .string(method), .target: .string(target)])
        send(HTTPRequest(method: method, authority: app.backendHost, path: path, query: query, headers: headers,
                         body: Array((body ?? "").utf8)), as: .request) { _ in }
    }


    /// The user sends `message` to `recipient`, once per enabled switch, in the tutorial app's
    /// order (WNS, GCM, APNS). The body is the message wrapped in quotes without escaping, as the
    /// tutorial's `"\"%@\""` format does (defect d).
    public func send(_ message: String, to recipient: String, via switches: [PushSwitch]) {
        guard isAppInstalled, authorization != nil else {
            return record(.appIgnored, [.action: "send", .why: "the Send button needs a login"])
        }
        let body = logic.messageBody(message)
        for pns in switches.sorted(by: { $0.sendOrder < $1.sendOrder }) {
            record(.appSend, [.pns: .string(pns.rawValue), .to: .string(recipient), .message: .string(message)])
            callBackend(.send, "POST", "/api/notifications", query: [("pns", pns.rawValue), ("to_tag", recipient)],
                        contentType: "application/json;charset=utf-8", body: body) { _ in }
        }
    }

    /// One call to the backend with the Basic header (the logged-in user's, or `authorization`
    /// when given), recorded for expectations (`<device> <op> status <code>`); `then` gets the
    /// result, unless the app was removed meanwhile. The call times out after 60 s.
    public func callBackend(_ op: AppOperation, _ method: String, _ path: String, query: [(String, String)] = [],
                     contentType: String? = nil, body: String = "", authorization: String? = nil,
                     then: @escaping (CallResult) -> Void) {
        var headers = HTTPHeaders([("Authorization", "Basic \(authorization ?? self.authorization ?? "")")])
        if let contentType { headers.add("Content-Type", contentType) }
        send(HTTPRequest(method: method, authority: app.backendHost, path: path, query: query, headers: headers,
                         body: Array(body.utf8)), as: op, then: then)
    }

    /// Sends `request` to the backend, records the outcome under `op`, and continues with `then`
    /// unless the app was removed meanwhile.
    private func send(_ request: HTTPRequest, as op: AppOperation, then: @escaping (CallResult) -> Void) {
        let sentAt = world.now
        let generation = self.generation
        world.call(request, from: name, timeout: .seconds(60)) { [self] result in
            calls.append(AppCallRecord(operation: op, sentAt: sentAt, completedAt: world.now, status: result.status,
                                       failure: result.status == nil ? result.summary : nil))
            record(.appCallResult, [.operation: .string(op.rawValue), .result: .string(result.summary)])
            guard generation == self.generation else { return } // the app was removed meanwhile
            then(result)
        }
    }
}
