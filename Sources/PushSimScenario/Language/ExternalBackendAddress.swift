import PushSimNetwork

/// Where a user's own backend listens, outside the world (`backend external "http://127.0.0.1:8080"`).
///
/// Plain HTTP only: PushSim reaches it over loopback, the way the simulated phones would reach
/// the tutorial's backend. The address is a scheme, a host (an IPv4 address or `localhost`), a
/// port (80 when absent) and an optional base path that prefixes every request's path
/// (`http://127.0.0.1:8080/app` sends `POST /app/api/register`).
public struct ExternalBackendAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address in dotted form (`localhost` is kept as written and means 127.0.0.1).
    public var host: String
    /// The TCP port; 80 when the address gives none.
    public var port: Int
    /// `""` or a path starting with `/` and not ending with one.
    public var basePath: String

    /// An address taken as given (not checked); `basePath` defaults to none.
    public init(host: String, port: Int, basePath: String = "") {
        self.host = host; self.port = port; self.basePath = basePath
    }

    /// `http://host:port/base`
    public var description: String { "http://\(host):\(port)\(basePath)" }

    /// Parses `text`, or says what is wrong with it (a sentence for a diagnostic).
    public static func parse(_ text: String) -> Result<ExternalBackendAddress, Problem> {
        guard text.hasPrefix("http://") else {
            if text.hasPrefix("https://") {
                return .failure(Problem("PushSim reaches an external backend over plain HTTP on loopback, not HTTPS"))
            }
            return .failure(Problem("an external backend's address starts with http://"))
        }
        let rest = text.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        var path = String(rest.dropFirst(authority.count))
        if path.contains("?") || path.contains("#") {
            return .failure(Problem("an external backend's address has no query or fragment"))
        }
        while path.hasSuffix("/") { path.removeLast() }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let hostPart = parts.first, !hostPart.isEmpty else {
            return .failure(Problem("write the address as http://<host>:<port>, e.g. http://127.0.0.1:8080"))
        }
        let host = String(hostPart).lowercased()
        guard host == "localhost" || isIPv4(host) else {
            return .failure(Problem("the host must be an IPv4 address such as 127.0.0.1, or localhost (PushSim does not look names up)"))
        }
        var port = 80
        if parts.count == 2 {
            guard let p = Int(parts[1]), (1...65_535).contains(p), parts[1].allSatisfy(\.isASCII) else {
                return .failure(Problem("the port must be a number from 1 to 65535"))
            }
            port = p
        }
        return .success(ExternalBackendAddress(host: host, port: port, basePath: path))
    }

    /// A numeric IPv4 address, for connecting: `localhost` is 127.0.0.1.
    public var ipv4: String { host == "localhost" ? "127.0.0.1" : host }

    static func isIPv4(_ text: String) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { o in
            !o.isEmpty && o.count <= 3 && o.allSatisfy { $0.isASCII && $0.isNumber } && Int(o)! <= 255
        }
    }

    /// Why an address was refused.
    public struct Problem: Error, Equatable, Sendable {
        /// What is wrong with the address, in words.
        public var message: String
        init(_ message: String) { self.message = message }
    }
}

/// Puts a user's backend into a scenario's world: for each distinct `backend external` address,
/// a host that stands in for it on the simulated network, forwarding the requests the phones
/// send it to the real backend and bringing its answers back.
///
/// The scenario layer has no sockets; the loopback layer (`PushSimServer`'s `ScenarioLoopback`)
/// implements this, and `pushsim run` passes it to ``ScenarioRunner/run(_:seed:externalBackends:keepingTrace:prepare:)``.
public protocol ExternalBackendConnector: AnyObject {
    /// A host for `simulation`'s world that forwards to the backend at `address`. Called once per
    /// address, before the run starts; the runner registers it under a name of its own.
    func backendHost(for address: ExternalBackendAddress, in simulation: Simulation) -> Host
    /// Called once the run is over (the world will not run again): stop answering for it.
    func runEnded()
}
