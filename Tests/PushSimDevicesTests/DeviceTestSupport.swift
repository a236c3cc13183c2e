import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimBackend
import PushSimDevices
import PushSimScenario

/// `seconds` after the start of the run.
func t(_ seconds: Int64) -> VirtualTime { .zero + .seconds(seconds) }

extension Simulation {
    /// Trace events of one kind, in order.
    func events(_ kind: String) -> [TraceEvent] { world.trace.events.filter { $0.kind.name == kind } }

    /// Trace events of one kind recorded by one host.
    func events(_ kind: String, on host: String) -> [TraceEvent] { events(kind).filter { $0.host == host } }

    /// Requests a device made to the backend, in order.
    func backendRequests(from device: Device) -> [HTTPRequest] {
        world.journal.requests(to: TutorialBackend.name).filter { $0.from == device.name }.map(\.request)
    }

    /// Installs the app at `time` and logs `user` in one second later (the handle has arrived by then).
    func installAndLogIn(_ device: Device, as user: String, at time: VirtualTime) {
        at(time, "install \(device.name)") { device.install() }
        at(time + .seconds(1), "log in \(device.name)") { device.login(user: user, password: user) }
    }

    /// Hands `payload` straight to `device` over its push service's device channel at `time`,
    /// as the service would after accepting a notification. Tests what the device shows.
    func push(_ payload: String, to device: Device, headers: [(String, String)] = [], at time: VirtualTime) {
        let service: String
        switch device.platform {
        case .ios: service = APNsService.name
        case .android: service = FCMService.name
        case .windows: service = WNSService.name
        }
        at(time, "push to \(device.name)") { [world] in
            world.pushToDevice(service: service, device: device.name, handle: device.handle ?? "", app: "app",
                               headers: headers, payload: Array(payload.utf8)) { _ in }
        }
    }
}

/// Texts a device has shown, in order.
func shown(_ device: Device) -> [String] { device.inbox.map(\.text) }

/// A JSON field of a request body, as a string.
func field(_ name: String, of request: HTTPRequest) -> String? {
    (try? JSONParser.parse(request.body))?[name]?.stringValue
}

/// A stand-in for the app backend in a bare world (no hub): it answers `POST /api/register` with
/// the next id of `ids` (as a JSON string, like Web API) and `PUT /api/register/<id>` with
/// `putStatus(id)`. Used where the tutorial backend cannot help: it never passes a 410 on (defect e).
final class FakeBackend: Host {
    private var ids: [String]
    private let putStatus: (String) -> Int
    /// `METHOD path` of every request, in order.
    private(set) var log: [String] = []

    init(world: World, ids: [String], putStatus: @escaping (String) -> Int) {
        self.ids = ids
        self.putStatus = putStatus
        world.register(self, name: TutorialBackend.name, aliases: [TutorialBackend.publicHost])
    }

    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        log.append("\(request.method) \(request.path)")
        let segments = request.path.split(separator: "/").map(String.init)
        switch (request.method, segments.count) {
        case ("POST", 2) where segments[1] == "register" && !ids.isEmpty:
            world.respond(to: exchange, with: HTTPResponse(status: 200, text: "\"\(ids.removeFirst())\""))
        case ("PUT", 3) where segments[1] == "register":
            world.respond(to: exchange, with: HTTPResponse(status: putStatus(segments[2])))
        default:
            world.respond(to: exchange, with: HTTPResponse(status: 404))
        }
    }
}

/// A bare world: fake APNs for the device's token, the fake backend, and one iPhone.
struct BareWorld {
    let world: World
    let backend: FakeBackend
    let phone: Device

    init(client: ClientFlavour, ids: [String], putStatus: @escaping (String) -> Int) {
        world = World(seed: 7)
        _ = APNsService(world: world, configuration: APNsConfiguration(keys: []))
        backend = FakeBackend(world: world, ids: ids, putStatus: putStatus)
        let app = AppIdentity(bundleID: "com.example.app", androidPackage: "com.example.app", fcmSenderID: "1",
                              windowsPackageFamily: "Example_1", backendHost: TutorialBackend.publicHost)
        phone = Device(world: world, name: "phone", platform: .ios, client: client, app: app)
        let phone = self.phone
        world.schedule(at: t(1)) { phone.install() }
        world.schedule(at: t(2)) { phone.login(user: "alice", password: "alice") }
    }

    func kinds(_ kind: String) -> [TraceEvent] { world.trace.events.filter { $0.kind.name == kind } }
}
