import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices
import PushSimScenario

/// `seconds` after the start of the run.
func t(_ seconds: Int64) -> VirtualTime { .zero + .seconds(seconds) }

/// What a test puts in the `Authorization` header of a request to the backend.
enum Credentials {
    /// No `Authorization` header at all.
    case none
    /// `Basic base64(user:password)`.
    case basic(String, String)
    /// The header value exactly as given.
    case header(String)

    /// The tutorial's stand-in login: password equal to the user name.
    static func user(_ name: String) -> Credentials { .basic(name, name) }

    var headerValue: String? {
        switch self {
        case .none: return nil
        case .basic(let u, let p): return "Basic " + Base64.encode(Array("\(u):\(p)".utf8))
        case .header(let h): return h
        }
    }
}

/// The answer to one request a test sent to the backend, filled in when it arrives.
final class Answer {
    var result: CallResult?
    var status: Int? { result?.status }
    var body: String { result?.response?.bodyText ?? "" }
    /// The body read as a JSON string (the registration id of `POST /api/register`), or "".
    var id: String { (try? JSONParser.parse(Array(body.utf8)))?.stringValue ?? "" }
}

extension Simulation {
    /// Sends one request to the app backend (`to`: the tutorial one unless told) at `time`, from a
    /// test host named `tester`. `path` and `body` are evaluated when the request is sent, so they
    /// may use earlier answers and the state devices have reached by then.
    @discardableResult
    func request(at time: VirtualTime, _ method: String, _ path: @escaping @autoclosure () -> String,
                 query: [(String, String)] = [], auth: Credentials = .user("alice"), body: @escaping @autoclosure () -> String = "",
                 contentType: String? = "application/json", to backend: BackendFlavour = .tutorial) -> Answer {
        let answer = Answer()
        at(time, "\(method) by tester") { [world] in
            var headers = HTTPHeaders()
            if let value = auth.headerValue { headers.add("Authorization", value) }
            if let contentType { headers.add("Content-Type", contentType) }
            let host = backend == .hardened ? HardenedBackend.publicHost : TutorialBackend.publicHost
            let request = HTTPRequest(method: method, authority: host, path: path(),
                                      query: query, headers: headers, body: Array(body().utf8))
            world.call(request, from: "tester", timeout: .seconds(120)) { answer.result = $0 }
        }
        return answer
    }

    /// Trace events of one kind, in order.
    func events(_ kind: String) -> [TraceEvent] { world.trace.events.filter { $0.kind.name == kind } }

    /// Requests the tutorial backend made to the hub, as `METHOD path` (hub path without the hub name).
    var hubCalls: [String] { hubCalls(by: .tutorial) }

    /// Requests one backend made to the hub, as `METHOD path` (hub path without the hub name).
    func hubCalls(by backend: BackendFlavour) -> [String] {
        let caller = backend == .hardened ? HardenedBackend.name : TutorialBackend.name
        return world.journal.requests(to: "hub").filter { $0.from == caller }.map { entry in
            let path = entry.request.path.split(separator: "/").dropFirst().joined(separator: "/")
            return "\(entry.request.method) \(path)"
        }
    }

    /// Hub answers to the tutorial backend's calls, in order (nil while in flight).
    var hubStatuses: [Int?] { hubStatuses(by: .tutorial) }

    /// Hub answers to one backend's calls, in order (nil while in flight).
    func hubStatuses(by backend: BackendFlavour) -> [Int?] {
        let caller = backend == .hardened ? HardenedBackend.name : TutorialBackend.name
        return world.journal.requests(to: "hub").filter { $0.from == caller }.map { $0.result?.status }
    }

    /// Provider requests that reached the push service `service` (`apns`, `fcm`, `wns`) from the hub.
    func pnsRequests(_ service: String) -> [RequestJournal.Entry] {
        world.journal.requests(to: service).filter { $0.from == "hub" && $0.request.path != "/token"
            && $0.request.path != "/accesstoken.srf" }
    }
}

/// A `PUT /api/register/<id>` body. A nil argument leaves its field out.
func registrationBody(platform: String? = "apns", handle: String? = "AB12CD34", tags: [String]? = []) -> String {
    var members: [(String, JSONValue)] = []
    if let platform { members.append(("Platform", .string(platform))) }
    if let handle { members.append(("Handle", .string(handle))) }
    if let tags { members.append(("Tags", .array(tags.map { .string($0) }))) }
    return JSONValue.object(members).serialized()
}

/// A message as a JSON string body, escaped properly (what a careful client sends).
func jsonBody(_ message: String) -> String { JSONValue.string(message).serialized() }

/// Installs the app on `device` at `time` and logs `user` in one second later (when the
/// handle has long arrived), so the client registers with the backend.
func installAndLogIn(_ sim: Simulation, _ device: Device, as user: String, at time: VirtualTime) {
    sim.at(time, "install \(device.name)") { device.install() }
    sim.at(time + .seconds(1), "log in \(device.name)") { device.login(user: user, password: user) }
}

/// Texts a device has shown, in order.
func shown(_ device: Device) -> [String] { device.inbox.map(\.text) }
