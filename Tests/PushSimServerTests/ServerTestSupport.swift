import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import PushSimKernel
import PushSimCrypto
import PushSimNetwork
import PushSimHub
import PushSimScenario
@testable import PushSimServer
import Testing

extension SimulationIdentity {
    /// The private key of the world's APNs signing key (the sample identity's has one).
    var apnsSigningKey: P256PrivateKey { apnsKey.privateKey ?? DerivedKeyMemo.p256Key(derivedFrom: DerivedKeyMemo.sampleAPNsKeySeed) }
}

/// A fixed anchor, so that two worlds built in a test agree on every Unix time.
let testAnchor = CalendarAnchor(unixSecondsAtZero: 1_767_225_600)

/// A server on a free loopback port, manual clock, fixed anchor; stopped when the test ends.
final class TestServer: @unchecked Sendable {   // immutable after init; HTTPServer and the bridge are Sendable
    let server: HTTPServer
    let base: String
    let identity = SimulationIdentity()

    init(seed: UInt64 = 7, limits: HTTPRequestParser.Limits = HTTPRequestParser.Limits()) throws {
        let bridge = try WorldBridge(setup: WorldSetup(seed: seed), clock: .manual, anchor: testAnchor)
        var configuration = HTTPServer.Configuration()
        configuration.limits = limits
        configuration.idleTimeoutSeconds = 5
        server = HTTPServer(bridge: bridge, configuration: configuration)
        try server.start()
        base = server.baseURL
    }

    deinit { server.stop(timeout: 2) }

    /// One request through URLSession; returns status, header fields and body.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil) async throws
        -> (status: Int, headers: [String: String], body: String) {
        try await request(method, path, headers: headers, bytes: body.map { Array($0.utf8) })
    }

    /// One request with a binary body (an encrypted Web Push message).
    func request(_ method: String, _ path: String, headers: [String: String] = [:], bytes: [UInt8]?) async throws
        -> (status: Int, headers: [String: String], body: String) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let bytes { request.httpBody = Data(bytes) }
        let (data, response) = try await Self.session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (k, v) in http.allHeaderFields { fields[String(describing: k).lowercased()] = String(describing: v) }
        return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
    }

    /// A JSON object answer, parsed.
    func json(_ method: String, _ path: String, body: String? = nil) async throws -> (status: Int, value: JSONValue) {
        let r = try await request(method, path, headers: ["Content-Type": "application/json"], body: body)
        return (r.status, try JSONParser.parse(r.body))
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        return URLSession(configuration: configuration)
    }()

    /// A SAS token for the hub with the full-rights rule, valid for an hour of virtual time from `unixNow`.
    func hubSAS(unixNow: Int64) -> String {
        SharedAccessSignature.token(resource: "https://\(identity.hubNamespace).servicebus.windows.net/\(identity.hubName)",
                                    keyName: "DefaultFullSharedAccessSignature", key: identity.hubFullKey,
                                    expiresAtUnixSeconds: unixNow + 3_600)
    }

    /// An APNs provider token signed with the world's key (ES256), issued at `unixNow`.
    func apnsToken(unixNow: Int64) -> String {
        JSONWebToken.apnsProviderToken(keyID: identity.apnsKeyID, teamID: identity.apnsTeamID, issuedAt: unixNow,
                                       signingKey: identity.apnsSigningKey)
    }

    /// A Google service-account assertion signed with the world's key (RS256) for the messaging scope.
    func googleAssertion(unixNow: Int64) -> String {
        JSONWebToken.make(header: .object([("alg", .string("RS256")), ("typ", .string("JWT"))]),
                          claims: .object([("iss", .string(identity.fcmServiceAccount)),
                                           ("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
                                           ("aud", .string(base + "/token")),
                                           ("iat", .number(JSONNumber(unixNow))), ("exp", .number(JSONNumber(unixNow + 3_600)))]),
                          signingKey: identity.fcmServiceAccountKey)
    }

    /// Virtual now's Unix seconds, from the control API.
    func unixNow() async throws -> Int64 {
        try await json("GET", "/_pushsim/clock").value["unixSeconds"]!.int64Value!
    }
}

/// A raw TCP client for exact bytes (URLSession adds header fields and refuses malformed requests).
struct RawClient {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { throw RawClientError() }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    struct RawClientError: Error {}

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// Everything until the server closes (or 5 s pass).
    func readAll() -> String { String(decoding: readAllBytes(), as: UTF8.self) }

    /// Everything until the server closes (or 5 s pass), as bytes (HTTP/2 frames are binary).
    func readAllBytes() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// Reads until `count` complete answers (by Content-Length) have arrived.
    func readResponses(_ count: Int) -> [String] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var answers: [String] = []
        while answers.count < count {
            if let (answer, used) = Self.firstAnswer(data) {
                answers.append(answer)
                data.removeFirst(used)
                continue
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            data += buffer[0..<n]
        }
        return answers
    }

    private static func firstAnswer(_ data: [UInt8]) -> (String, Int)? {
        let text = String(decoding: data, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<headEnd.lowerBound]
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        let headBytes = text[..<headEnd.upperBound].utf8.count
        guard data.count >= headBytes + length else { return nil }
        return (String(decoding: data[0..<(headBytes + length)], as: UTF8.self), headBytes + length)
    }

    func close() { _ = Glibc.close(fd) }
}

/// The status code of a raw answer.
func statusOf(_ answer: String) -> Int? {
    answer.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
}

extension WorldBridge {
    /// Answers one request made of text, from connection 1 (tests that need no socket).
    func ask(_ method: String, _ target: String, headers: [(name: String, value: String)] = [], body: String = "") -> HTTPResponse {
        answer(WireRequest(method: method, target: target, headers: headers, body: Array(body.utf8)), connection: 1)
    }
}

extension HTTPResponse {
    /// The body as JSON (`.null` when it is not).
    var json: JSONValue { (try? JSONParser.parse(body)) ?? .null }
}
