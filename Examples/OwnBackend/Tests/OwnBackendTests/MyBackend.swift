import PushSim

/// Your backend, as a host of the world: the tutorial's contract, with your rules.
public final class MyBackend: WorldHost {
    let hub: NotificationHubClient
    public init(_ simulation: Simulation) {
        hub = NotificationHubClient(connectionString: simulation.hubConnectionString, hubPath: simulation.hubPath,
                                    world: simulation.world, caller: "my-backend")!
    }
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let answer = { (status: Int, body: String) in world.respond(to: exchange, with: HTTPResponse(status: status, text: body)) }
        guard let (user, password) = request.basicCredentials, password == user else { return answer(401, "") }
        switch (request.method, request.path) {
        case ("POST", "/api/register"):
            hub.createRegistrationId { if case .success(let id) = $0 { answer(200, "\"\(id)\"") } else { answer(502, "") } }
        case ("PUT", let path) where path.hasPrefix("/api/register/"):
            guard let body = try? JSONParser.parse(request.body), let handle = body["Handle"]?.stringValue,
                  let platform = body["Platform"]?.stringValue.flatMap({ ["apns": RegistrationPlatform.apple, "fcm": .fcmV1][$0] })
            else { return answer(400, "") }
            let registration = RegistrationDescription(platform: platform, handle: handle, tags: ["username:" + user],
                                                       registrationID: String(path.dropFirst("/api/register/".count)))
            hub.createOrUpdateRegistration(registration) { answer((try? $0.get()) == nil ? 410 : 200, "") }
        case ("POST", "/api/notifications"):
            let text = JSONValue.string("From \(user): " + ((try? JSONParser.parse(request.body))?.stringValue ?? "")).serialized()
            let payload = request.queryValue("pns") == "apns" ? "{\"aps\":{\"alert\":\(text)}}" : "{\"message\":{\"data\":{\"message\":\(text)}}}"
            hub.sendNativeNotification(format: request.queryValue("pns") == "apns" ? "apple" : "fcmv1", payload: payload,
                                       tagExpression: "username:" + (request.queryValue("to_tag") ?? "")) { answer((try? $0.get()) == nil ? 502 : 200, "") }
        default: answer(404, "")
        }
    }
}
