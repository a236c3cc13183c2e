import PushSimKernel
import PushSimDevices

extension ScenarioRunner {
    /// Schedules a browser's or an application server's step at `time`; a step whose actor or
    /// browser the world does not have is not scheduled (the parser refuses such a scenario).
    static func schedule(_ action: WebPushAction, by actor: String, at time: VirtualTime, label: String, in simulation: Simulation) {
        if case .push(let text, let to, let options) = action {
            guard let server = simulation.applicationServer(actor), let browser = simulation.browser(to) else { return }
            return simulation.at(time, label) { server.push(text, to: browser, options: options) }
        }
        guard let browser = simulation.browser(actor) else { return }
        switch action {
        case .subscribe(let name):
            guard let server = simulation.applicationServer(name) else { return }
            simulation.at(time, label) {
                browser.subscribe(applicationServerKey: server.vapidKey.publicKey.x963Representation) { server.learn($0, of: browser.name) }
            }
        case .login(let user, let password, let template):
            simulation.at(time, label) { simulation.signIn(browser, user: user, password: password, template: template) }
        case .unsubscribe: simulation.at(time, label) { browser.unsubscribe() }
        case .clearProfile: simulation.at(time, label) { browser.clearProfile() }
        case .offline: simulation.at(time, label) { browser.goOffline() }
        case .online: simulation.at(time, label) { browser.goOnline() }
        case .push: return
        }
    }
}
