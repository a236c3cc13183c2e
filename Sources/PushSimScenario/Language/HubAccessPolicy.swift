import PushSimHub

/// A shared access policy of the scenario's hub besides the two Azure creates with every hub
/// (`DefaultFullSharedAccessSignature`, all rights, and `DefaultListenSharedAccessSignature`,
/// Listen): `hub policy "<name>" listen|send|manage[,…]`. The operator signs with it after
/// `operator key policy "<name>"`; the hub then grants what its rights claim, as a rule made in
/// the portal does (Listen: registrations and installations; Send: sends and their telemetry;
/// Manage: all of these, and reading registrations by tag or all of them; NH-SEC, NH-REST).
public struct HubAccessPolicy: Equatable, Sendable {
    /// The policy's name: the `SharedAccessKeyName` of its connection string and the `skn` of its tokens.
    public var name: String
    /// The claims its tokens grant, in the order written.
    public var rights: [HubRight]
    /// A policy named `name` granting `rights`.
    public init(name: String, rights: [HubRight]) { self.name = name; self.rights = rights }

    /// The names of the hub's two default policies, which a scenario's own cannot take.
    public static let defaultNames = ["DefaultFullSharedAccessSignature", "DefaultListenSharedAccessSignature"]

    /// As written in a scenario (`hub policy "marketing" send`).
    var statement: String { "hub policy \"\(name)\" \(rights.map { $0.rawValue.lowercased() }.joined(separator: ","))" }
}

/// The hub policy whose key a caller signs its hub calls with: the operator's (`operator key
/// full|listen|policy "<name>"`, a step) or the built-in backends' (`backend key …`, a setting);
/// ``full`` unless the file says otherwise.
public enum HubKey: Equatable, Sendable {
    /// The hub's `DefaultFullSharedAccessSignature`: every right.
    case full
    /// The hub's `DefaultListenSharedAccessSignature`: Listen only, the key an app may carry. The
    /// hub answers a send, a scheduled or test send, a cancel, or a read of registrations by tag
    /// or of all of them with 401 naming the claim it lacks (NH-SEC).
    case listen
    /// A policy the scenario declares with `hub policy "<name>" …`.
    case policy(String)

    /// The policy's name (its `SharedAccessKeyName`).
    public var keyName: String {
        switch self {
        case .full: return HubAccessPolicy.defaultNames[0]
        case .listen: return HubAccessPolicy.defaultNames[1]
        case .policy(let name): return name
        }
    }

    /// As written after `operator` or `backend` (`key listen`, `key policy "marketing"`).
    var statement: String {
        switch self {
        case .full: return "key full"
        case .listen: return "key listen"
        case .policy(let name): return "key policy \"\(name)\""
        }
    }
}
