import PushSimKernel
import PushSimNetwork
import PushSimDevices

/// Browsers and the application servers that push to them.
extension Simulation {
    /// Adds a simulated browser of `vendor` (see ``Browser``).
    @discardableResult
    public func addBrowser(_ name: String, vendor: BrowserVendor, permission: WebNotificationPermission = .default,
                           promptAnswer: PermissionPromptAnswer = .allow) -> Browser {
        let browser = Browser(world: world, name: name, vendor: vendor, permission: permission, promptAnswer: promptAnswer)
        browsers.append(browser)
        return browser
    }

    /// Adds a site's application server with its own VAPID key (see ``WebPushApplicationServer``).
    @discardableResult
    public func addApplicationServer(_ name: String, subject: String = "mailto:push@example.com") -> WebPushApplicationServer {
        let server = WebPushApplicationServer(world: world, name: name, subject: subject)
        applicationServers.append(server)
        return server
    }

    /// The browser named `name`, if any (a scenario has a few: searched, not indexed).
    public func browser(_ name: String) -> Browser? { browsers.first { $0.name == name } }

    /// The application server named `name`, if any.
    public func applicationServer(_ name: String) -> WebPushApplicationServer? { applicationServers.first { $0.name == name } }

    /// What device or browser `name` showed, in order (empty for a name that is neither).
    public func shown(on name: String) -> [ShownNotification] {
        if let device = device(name) { return device.inbox }
        return browser(name)?.inbox ?? []
    }
}
