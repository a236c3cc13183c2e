import PushSimNetwork

/// An HTTP status as an expectation accepts it: one code (`410`), a class (`4xx`), or
/// alternatives (`401 or 403`, `4xx or 503`).
public struct StatusPattern: Equatable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// One accepted code or class.
    public enum Alternative: Equatable, Sendable {
        /// Exactly this status, 100 to 599.
        case code(Int)
        /// Any status whose first digit is this one (`4` for `4xx`), 1 to 5.
        case statusClass(Int)
    }

    /// Any of these is accepted; never empty.
    public var alternatives: [Alternative]

    /// Accepts any of `alternatives`.
    public init(_ alternatives: [Alternative]) { self.alternatives = alternatives }

    /// Accepts exactly `value` (so `code: 410` reads as it always did).
    public init(integerLiteral value: Int) { self.alternatives = [.code(value)] }

    /// Whether `status` is one of the accepted ones.
    public func matches(_ status: Int?) -> Bool {
        guard let status else { return false }
        return alternatives.contains { alternative in
            switch alternative {
            case .code(let code): return status == code
            case .statusClass(let first): return status / 100 == first
            }
        }
    }

    /// As written in a scenario: `410`, `4xx`, `401 or 403`.
    public var description: String {
        alternatives.map { alternative -> String in
            switch alternative {
            case .code(let code): return String(code)
            case .statusClass(let first): return "\(first)xx"
            }
        }.joined(separator: " or ")
    }
}

/// How many requests an exchange expectation asks for.
public enum RequestCount: Equatable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// `<n> requests`: exactly n.
    case exactly(Int)
    /// `at least <n> requests`
    case atLeast(Int)
    /// `at most <n> requests`
    case atMost(Int)

    /// Exactly `value`.
    public init(integerLiteral value: Int) { self = .exactly(value) }

    /// Whether `count` requests satisfy this bound.
    public func holds(_ count: Int) -> Bool {
        switch self {
        case .exactly(let n): return count == n
        case .atLeast(let n): return count >= n
        case .atMost(let n): return count <= n
        }
    }

    /// As written: `3`, `at least 1`, `at most 0`.
    public var description: String {
        switch self {
        case .exactly(let n): return String(n)
        case .atLeast(let n): return "at least \(n)"
        case .atMost(let n): return "at most \(n)"
        }
    }
}

/// Which half of an exchange a condition reads.
public enum ExchangeSide: String, Equatable, Sendable {
    /// What the caller sent.
    case request
    /// What the host answered.
    case answer
}

/// One condition a request and its answer must meet to be counted by
/// `expect <host> received <count> requests with <condition> [and <condition>]…`.
public enum ExchangeCondition: Equatable, Sendable, CustomStringConvertible {
    /// `status 410`, `status 4xx`, `status 401 or 403`: the answer's status (a call that got no
    /// answer, lost or timed out, matches no status).
    case status(StatusPattern)
    /// `reason "Unregistered"`: the error a push service gave, where it puts it: APNs the body's
    /// `reason` (A-RESP); FCM the body's `error.status` or a detail's `errorCode` (F-ERR); Google's
    /// token endpoint the body's `error` string, an OAuth error code (RFC 6749 §5.2).
    case reason(String)
    /// `path "/token"`: the request's path starts with this text. With a path condition a push
    /// service's every endpoint counts, not only its provider API (its token endpoint, say).
    case path(String)
    /// `request header "apns-priority" "10"`, `answer header "apns-id"`: the header is present
    /// (compared case-insensitively by name) and, when a value is given, has exactly that value.
    case header(ExchangeSide, name: String, value: String?)
    /// `answer field "error.details.0.errorCode" "UNREGISTERED"`: the body is JSON, the dotted path
    /// (object keys, and array indexes from 0) leads to a value, and, when a value is given, that
    /// value is the string, or a number or `true`/`false`/`null` written the same.
    case field(ExchangeSide, path: String, value: String?)

    /// Whether the exchange (a request and its result, nil while in flight) meets this condition.
    public func holds(request: HTTPRequest, result: CallResult?) -> Bool {
        switch self {
        case .status(let pattern):
            return pattern.matches(result?.status)
        case .reason(let reason):
            return Self.reasons(in: result?.response?.body ?? []).contains(reason)
        case .path(let prefix):
            return request.path.hasPrefix(prefix)
        case .header(let side, let name, let value):
            let headers = side == .request ? request.headers : result?.response?.headers
            guard let seen = headers?[name] else { return false }
            return value.map { $0 == seen } ?? true
        case .field(let side, let path, let value):
            let body = side == .request ? request.body : result?.response?.body
            guard let body, let json = try? JSONParser.parse(body), let found = Self.lookUp(path, in: json) else { return false }
            guard let value else { return true }
            return (found.stringValue ?? found.serialized()) == value
        }
    }

    /// The error names a push service's answer body gives, in this order: APNs' `reason`; an
    /// OAuth token endpoint's `error` string; FCM's `error.status`, then each detail's
    /// `errorCode`. Empty for a body that is not JSON.
    static func reasons(in body: [UInt8]) -> [String] {
        guard body.first == UInt8(ascii: "{"), let json = try? JSONParser.parse(body) else { return [] }
        let error = json["error"]
        return [json["reason"]?.stringValue, error?.stringValue, error?["status"]?.stringValue].compactMap { $0 }
            + (error?["details"]?.arrayValue?.compactMap { $0["errorCode"]?.stringValue } ?? [])
    }

    /// The value at a dotted path: object keys, and array indexes written as digits.
    static func lookUp(_ path: String, in json: JSONValue) -> JSONValue? {
        var current = json
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            if let array = current.arrayValue {
                guard let i = Int(part), array.indices.contains(i) else { return nil }
                current = array[i]
            } else {
                guard let next = current[String(part)] else { return nil }
                current = next
            }
        }
        return current
    }

    /// As written in a scenario.
    public var description: String {
        func quoted(_ s: String?) -> String { s.map { " \"\($0)\"" } ?? "" }
        switch self {
        case .status(let pattern): return "status \(pattern)"
        case .reason(let reason): return "reason \"\(reason)\""
        case .path(let prefix): return "path \"\(prefix)\""
        case .header(let side, let name, let value): return "\(side.rawValue) header \"\(name)\"" + quoted(value)
        case .field(let side, let path, let value): return "\(side.rawValue) field \"\(path)\"" + quoted(value)
        }
    }
}
