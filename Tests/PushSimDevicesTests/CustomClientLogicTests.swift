import Testing
import PushSimKernel
import PushSimNetwork
import PushSimDevices
@testable import PushSimScenario

/// Client logic of a user's own: a device runs it instead of a built-in flavour's, through the
/// device's public API only.
@Suite("Custom client logic")
struct CustomClientLogicTests {
    /// Registers in one call it makes itself (`POST` then `PUT`), sends messages as JSON, and
    /// notes every hook the device calls.
    final class NotingLogic: AppClientLogic {
        var hooks: [String] = []
        func register(on device: Device, handle: String) {
            hooks.append("register")
            device.callBackend(.createID, "POST", "/api/register", query: [("handle", handle.uppercased())]) { result in
                guard let id = result.response.flatMap({ try? JSONParser.parse($0.body) })?.stringValue else { return }
                device.storage[Device.registrationIDKey] = id
                let body = "{\"Platform\":\"apns\",\"Handle\":\"\(handle.uppercased())\",\"Tags\":[]}"
                device.callBackend(.register, "PUT", "/api/register/\(id)", contentType: "application/json", body: body) { _ in
                    device.record(.appRegistered, [.registration: .string(id)])
                }
            }
        }
        func handleReceived(on device: Device, changed: Bool) { hooks.append("handle changed=\(changed)") }
        func logout(on device: Device, registrationID: String?, forget: () -> Void) {
            hooks.append("logout \(registrationID ?? "none")")
            forget()
        }
        func resumed(on device: Device) { hooks.append("resumed") }
    }

    @Test func aDeviceRunsTheLogicItIsGiven() {
        let simulation = Simulation(seed: 5, options: { var o = Simulation.Options(); o.backend = .hardened; return o }())
        let logic = NotingLogic()
        let bob = simulation.addDevice("bob-iphone", .ios, user: "bob", logic: logic)
        let alice = simulation.addDevice("alice-pixel", .android, client: .recommended, user: "alice")
        simulation.at(.zero) { bob.install(); alice.install() }
        simulation.at(.zero + .seconds(1)) { bob.login(user: "bob", password: "bob"); alice.login(user: "alice", password: "alice") }
        simulation.at(.zero + .seconds(5)) { alice.send("Hi Bob", to: "bob", via: [.apns]) }
        simulation.at(.zero + .seconds(9)) { bob.logout() }
        simulation.run()
        #expect(bob.logic === logic)
        #expect(logic.hooks == ["resumed", "handle changed=true", "register", "logout 76592028274533430-4765052952699024478-2"])
        #expect(bob.inbox.map(\.text) == ["From alice: Hi Bob"])
        #expect(bob.calls.map(\.status) == [200, 200])
        #expect(bob.storage[Device.registrationIDKey] == nil, "forget() ran")
        #expect(simulation.world.trace.events.contains { $0.host == "bob-iphone" && $0.kind.name == "app.registered" })
    }

    @Test func theBuiltInFlavoursAreTheirLogics() {
        #expect(ClientFlavour.tutorial.makeLogic() is TutorialClientLogic)
        #expect(ClientFlavour.recommended.makeLogic() is RecommendedClientLogic)
        #expect(TutorialClientLogic().messageBody("a\"b") == "\"a\"b\"")   // defect d: not escaped
        #expect(RecommendedClientLogic().messageBody("a\"b") == "\"a\\\"b\"")
    }
}
