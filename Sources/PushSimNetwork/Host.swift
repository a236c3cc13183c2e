import PushSimKernel

/// A participant on the simulated network: a push service, the hub, the backend, a device.
///
/// Hosts never call each other directly; they only exchange ``HTTPRequest``s and
/// ``HTTPResponse``s through the ``World``, as the real systems do.
public protocol Host: AnyObject {
    /// Handles a request addressed to one of this host's names. Reply with
    /// `world.respond(to: exchange, with:)`, at once or later (after calls of your own).
    func handle(_ request: HTTPRequest, exchange: Exchange, world: World)
    /// What this host still holds when the run ends (stored notifications, pending work), one
    /// ``Leftover`` each, for the leftovers report and the checkers.
    func leftovers(world: World) -> [Leftover]
}

extension Host {
    /// By default a host holds nothing worth reporting.
    public func leftovers(world: World) -> [Leftover] { [] }
}

/// A host that takes call results as method calls rather than closures (see
/// ``World/call(_:from:timeout:replyTo:tag:)``); `tag` is the number it gave with the call.
public protocol CallReceiver: AnyObject {
    /// Takes the result of a call made with ``World/call(_:from:timeout:replyTo:tag:)``, with the
    /// `tag` given then. Runs as an event of its own, never inside the call.
    func receive(_ result: CallResult, tag: UInt64, world: World)
}

/// The server side of one request in flight: who asked, and the handle to answer with.
public struct Exchange: Hashable, Sendable {
    /// The world's number for the call in flight, meaningful to the world only.
    public let id: UInt64
    /// The primary name of the calling host.
    public let caller: String
}

/// Why a call produced no response.
public enum TransportFailure: String, Sendable, Equatable {
    /// No host answers to the request's authority (a DNS failure).
    case noSuchHost = "no such host"
    /// The calling host is offline.
    case callerOffline = "caller offline"
    /// The target host is offline: the connection is refused.
    case unreachable = "host unreachable"
    /// No response within the call's timeout (the request or the response was lost, or the
    /// server never answered).
    case timedOut = "timed out"
}

/// What the caller of ``World/call(_:from:timeout:then:)`` gets back.
public enum CallResult: Sendable, Equatable {
    /// The callee answered (any status).
    case response(HTTPResponse)
    /// No answer came, and why.
    case failure(TransportFailure)

    /// The HTTP status, or nil for a transport failure.
    public var status: Int? { if case .response(let r) = self { return r.status } else { return nil } }
    /// The response, or nil for a transport failure.
    public var response: HTTPResponse? { if case .response(let r) = self { return r } else { return nil } }
    /// `200`, or the failure's text: for traces and reports.
    public var summary: String {
        switch self {
        case .response(let r): return String(r.status)
        case .failure(let f): return f.rawValue
        }
    }
}

/// Identifies a scheduled timer, for cancelling it.
public struct TimerID: Hashable, Sendable { public let id: UInt64 }

/// Another name for ``Host``, for code that also imports Foundation (whose `Host` class, on
/// Linux and macOS, would make the plain name ambiguous): `final class MyBackend: WorldHost`.
public typealias WorldHost = Host
