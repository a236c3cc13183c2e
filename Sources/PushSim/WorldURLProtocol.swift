import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Routes a user's unmodified `URLSession` code into a simulated world, in process: requests
/// to the world's host names (`pushsim.servicebus.windows.net`, `fcm.googleapis.com`,
/// `api.push.apple.com`, the backends' hosts, a host you added) are answered by the world's
/// hosts, as they would be on the simulated network; any other host fails with
/// `URLError(.cannotFindHost)`. Nothing leaves the process.
///
/// ```swift
/// let session = URLSession(configuration: simulation.urlSessionConfiguration())
/// let (data, response) = try await session.data(for: request)   // answered by the fake hub
/// ```
///
/// Each request enters the world from the host `urlsession` as a new causal chain, and the world
/// runs (other due events too) until its answer is back, or 60 s of virtual time have passed
/// (then the request fails with `URLError(.timedOut)`). Virtual time moves by the simulated
/// latency only. The world is run by the URL loading system's thread while your code waits for
/// the answer: do not run the world yourself at the same time (requests to one world are run one
/// at a time). Redirects are not followed; cookies, caches and credentials are not used.
///
/// How a session finds its world: the URL loading system makes protocol objects itself and tells
/// them only the request (and not the session's extra header fields, on Linux), so each world
/// gets a protocol class of its own, a specialisation of a generic subclass numbered by the
/// world's slot in a registry (`WorldRegistry`). Sessions of different worlds can run in
/// parallel.
public class WorldURLProtocol: URLProtocol {
    /// The in-world name of the caller.
    public static let callerName = "urlsession"
    /// The registry slot of the world this class serves (overridden by each specialisation).
    class var slot: Int { -1 }

    /// Only sessions made for a world list this class: every request of theirs is for the world.
    override public class func canInit(with request: URLRequest) -> Bool { slot >= 0 }

    /// The request as given: nothing is cached, so there is nothing to canonicalise for.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Runs the request in the world (see above) and hands the client the answer, or a `URLError`:
    /// `cannotFindHost` for a host the world does not know, `timedOut` after 60 s of virtual time,
    /// `badURL` for a URL without a host, `cannotConnectToHost` for a world that is gone or a
    /// host that is offline.
    override public func startLoading() {
        guard let world = WorldRegistry.shared.world(type(of: self).slot) else { return fail(URLError(.cannotConnectToHost)) }
        guard let url = request.url, let host = url.host else { return fail(URLError(.badURL)) }
        let answer: Result<HTTPResponse, URLError> = world.withLock { simulation in
            let world = simulation.world
            guard world.primaryName(host) != nil else { return .failure(URLError(.cannotFindHost)) }
            var headers = HTTPHeaders()
            for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
                headers.add(name, value)
            }
            // The path as sent, escapes kept (Foundation's `url.path` decodes them, so `a%2Fb` would
            // arrive as two segments); `splitTarget` decodes the query's names and values.
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            let encodedPath = components?.percentEncodedPath ?? url.path
            let target = (encodedPath.isEmpty ? "/" : encodedPath) + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
            let (path, query) = splitTarget(target)
            let inWorld = HTTPRequest(method: request.httpMethod ?? "GET", authority: host, path: path, query: query,
                                      headers: headers, body: Self.body(of: request))
            var result: CallResult?
            world.newCorrelation()
            world.call(inWorld, from: Self.callerName, timeout: .seconds(60)) { result = $0 }
            world.run(until: world.now + .seconds(61)) { result != nil }
            switch result {
            case .response(let response)?: return .success(response)
            case .failure(.timedOut)?, nil: return .failure(URLError(.timedOut))
            case .failure(.noSuchHost)?: return .failure(URLError(.cannotFindHost))
            case .failure?: return .failure(URLError(.cannotConnectToHost))
            }
        }
        switch answer {
        case .failure(let error): fail(error)
        case .success(let response):
            var fields: [String: String] = [:]
            for field in response.headers { fields[field.name] = fields[field.name].map { $0 + ", " + field.value } ?? field.value }
            let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields)!
            client?.urlProtocol(self, didReceive: http, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: Data(response.body))
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    /// Nothing to stop: the answer was handed over inside ``startLoading()``.
    override public func stopLoading() {}

    private func fail(_ error: URLError) { client?.urlProtocol(self, didFailWithError: error) }

    /// The body, from `httpBody` or (as the loading system hands it over) `httpBodyStream`.
    static func body(of request: URLRequest) -> [UInt8] {
        if let data = request.httpBody { return [UInt8](data) }
        guard let stream = request.httpBodyStream else { return [] }
        stream.open()
        defer { stream.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while stream.hasBytesAvailable {
            let n = stream.read(&buffer, maxLength: buffer.count)
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }
}

/// The protocol class of registry slot `Slot.index`.
final class SlottedWorldURLProtocol<Slot: WorldSlot>: WorldURLProtocol {
    override class var slot: Int { Slot.index }
}

/// Type-level numbers for ``SlottedWorldURLProtocol``: `SlotZero`, `SlotNext<SlotZero>`, …
protocol WorldSlot { static var index: Int { get } }
enum SlotZero: WorldSlot { static var index: Int { 0 } }
enum SlotNext<Previous: WorldSlot>: WorldSlot { static var index: Int { Previous.index + 1 } }

/// The worlds that sessions made by ``Simulation/urlSessionConfiguration()`` reach, by slot: the
/// one piece of process-wide state in PushSim, because the URL loading system makes
/// ``WorldURLProtocol`` objects itself. Worlds are held weakly and a slot is reused once its
/// world is gone; each world is used under its own lock.
final class WorldRegistry: @unchecked Sendable {
    static let shared = WorldRegistry()
    private let lock = NSLock()
    private var slots: [LockedSimulation] = []

    /// A slot for `simulation` (its existing one, else a free one), and its protocol class.
    func register(_ simulation: Simulation) -> AnyClass {
        let slot: Int = lock.withLock {
            if let i = slots.firstIndex(where: { $0.simulation === simulation }) { return i }
            if let i = slots.firstIndex(where: { $0.simulation == nil }) { slots[i] = LockedSimulation(simulation); return i }
            slots.append(LockedSimulation(simulation))
            return slots.count - 1
        }
        func protocolClass<S: WorldSlot>(_: S.Type, _ left: Int) -> AnyClass {
            left == 0 ? SlottedWorldURLProtocol<S>.self : protocolClass(SlotNext<S>.self, left - 1)
        }
        return protocolClass(SlotZero.self, slot)
    }

    func world(_ slot: Int) -> LockedSimulation? { lock.withLock { slots.indices.contains(slot) ? slots[slot] : nil } }
}

/// A simulation used by one thread at a time.
final class LockedSimulation: @unchecked Sendable {
    private let lock = NSLock()
    weak var simulation: Simulation?
    init(_ simulation: Simulation) { self.simulation = simulation }

    func withLock<T>(_ body: (Simulation) -> Result<T, URLError>) -> Result<T, URLError> {
        lock.withLock {
            guard let simulation else { return .failure(URLError(.cannotConnectToHost)) }
            return body(simulation)
        }
    }
}

extension Simulation {
    /// A session configuration whose requests are answered by this world, in process (see
    /// ``WorldURLProtocol``). Based on `.ephemeral`: no cache, no cookies.
    public func urlSessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [WorldRegistry.shared.register(self)]
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        return configuration
    }
}
