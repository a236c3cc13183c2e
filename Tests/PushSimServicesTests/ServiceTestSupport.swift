import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

// Shared pieces for the service tests: a provider-side host that records answers, a device that
// speaks the device channel, and a few readers for traces and JSON bodies. Each test builds its
// own `World` from a fixed seed; nothing here is global.

/// A provider-side host (an app server or the hub): sends requests and keeps every answer in order.
final class Probe: Host {
    let name: String
    private(set) var results: [CallResult] = []

    init(world: World, name: String = "provider") {
        self.name = name
        world.register(self, name: name)
    }

    /// Nobody calls a provider in these tests; answer 404 if someone does.
    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        world.respond(to: exchange, with: HTTPResponse(status: 404))
    }

    /// Sends `request` without running the world; its answer is appended to `results` when it arrives.
    func send(_ request: HTTPRequest, in world: World) {
        world.call(request, from: name) { [self] result in results.append(result) }
    }

    /// Sends `request`, runs the world until nothing is left, and returns the answer. A transport
    /// failure is recorded as a test issue and comes back as status 0.
    func roundTrip(_ request: HTTPRequest, in world: World, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse {
        let before = results.count
        send(request, in: world)
        world.run()
        guard results.count == before + 1, let response = results.last?.response else {
            Issue.record("no HTTP answer to \(request.method) \(request.authority)\(request.path): \(results.last?.summary ?? "none")",
                         sourceLocation: sourceLocation)
            return HTTPResponse(status: 0)
        }
        return response
    }
}

/// A phone or PC as a push service sees it through ``DeviceChannel``: it asks for handles
/// (`POST /register`), reconnects (`POST /connect`), and answers `POST /push` with 200 while the
/// app is installed and 410 once it is gone.
final class FakeDevice: Host {
    struct Push {
        var time: VirtualTime
        var headers: HTTPHeaders
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let name: String
    let world: World
    /// The service's device-facing host, e.g. `courier.push.apple.com`.
    let serviceHost: String
    /// False after ``uninstall()``: pushes are then refused with 410.
    private(set) var appInstalled = true
    /// Pushes shown, in order of arrival.
    private(set) var pushes: [Push] = []
    /// Pushes refused with 410.
    private(set) var refused = 0

    init(world: World, name: String, serviceHost: String) {
        self.world = world
        self.name = name
        self.serviceHost = serviceHost
        world.register(self, name: name)
    }

    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        guard request.method == "POST", request.path == DeviceChannel.pushPath else {
            return world.respond(to: exchange, with: HTTPResponse(status: 404))
        }
        guard appInstalled else {
            refused += 1
            return world.respond(to: exchange, with: HTTPResponse(status: 410))
        }
        pushes.append(Push(time: world.now, headers: request.headers, body: request.body))
        world.respond(to: exchange, with: HTTPResponse(status: 200))
    }

    /// Asks the service for a handle, runs the world, and returns the handle ("" on failure, as a test issue).
    /// `installation` is the Firebase installation ID an Android app names (FCM only).
    func register(app: String, install: Int = 1, environment: String, installation: String? = nil,
                  sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let ask = DeviceRegisterRequest(app: app, install: install, environment: environment, installation: installation)
        var handle = ""
        world.call(HTTPRequest(method: "POST", authority: serviceHost, path: DeviceChannel.registerPath, body: ask.body),
                   from: name) { result in
            guard let r = result.response, r.status == 200, let h = (try? JSONParser.parse(r.body))?["handle"]?.stringValue else {
                Issue.record("register failed: \(result.summary)", sourceLocation: sourceLocation)
                return
            }
            handle = h
        }
        world.run()
        return handle
    }

    /// The app is removed; the service is not told (it learns from the next push).
    func uninstall() { appInstalled = false }

    /// The app is installed again; it must ask for a handle with a new install number.
    func reinstall() { appInstalled = true }

    func goOffline() { world.setOnline(name, false) }

    /// Back on the network; the OS reconnects to its push service, which sends what it kept.
    /// The caller runs the world.
    func goOnline() {
        world.setOnline(name, true)
        world.call(HTTPRequest(method: "POST", authority: serviceHost, path: DeviceChannel.connectPath), from: name) { _ in }
    }
}

/// How a provider request is authenticated.
enum Auth {
    /// The test bench's current, valid credential.
    case current
    /// No `authorization` header.
    case missing
    /// This exact `authorization` header value.
    case header(String)
}

extension World {
    /// Runs everything due in the next `duration`, leaving the clock at `now + duration`.
    func advance(by duration: VirtualDuration) { run(until: now + duration) }

    /// Trace events of one kind, in order.
    func events(_ kind: String) -> [TraceEvent] { trace.events.filter { $0.kind.name == kind } }

    /// The `reason` field of every `notification.dropped` event, in order.
    var dropReasons: [String] { events("notification.dropped").map { $0[.reason]?.description ?? "" } }
}

/// The body parsed as JSON, or nil.
func json(_ response: HTTPResponse) -> JSONValue? { try? JSONParser.parse(response.body) }

/// A string of exactly `count` ASCII bytes that is valid inside a JSON string.
func filler(_ count: Int) -> String { String(repeating: "x", count: count) }

/// True for a canonical lowercase version-4 UUID.
func isLowercaseUUIDv4(_ s: String) -> Bool {
    let parts = s.split(separator: "-", omittingEmptySubsequences: false)
    let hex = Set("0123456789abcdef")
    return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(hex.contains) }
        && parts[2].first == "4" && "89ab".contains(parts[3].first!)
}
