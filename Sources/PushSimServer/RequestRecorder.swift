import Foundation
import PushSimKernel
import PushSimNetwork

/// The `--record` file: one JSON Lines object per request answered, in the order answered. `entry`
/// numbers the requests in the order they entered the world (one queue serialises them); under
/// `--clock wall` a request whose answer waited for the world may be answered after requests that
/// entered later, so a replay enters them by `entry`. A long poll that ended by its wall-clock
/// bound has `"expired":true`.
///
/// `{"seq":1,"virtualTime":"0+00:00:00.020","virtualMicroseconds":20000,"route":"api.push.apple.com",
///   "request":{"method":"POST","target":"/3/device/…","headers":[["apns-topic","…"],…],"body":"…"},
///   "response":{"status":200,"headers":[["apns-id","…"]],"body":""}}`
///
/// Header fields are arrays of `[name, value]` in the order sent (duplicates kept); members are
/// written in a fixed order (nothing comes from a dictionary). A body that is not UTF-8 is written
/// as `bodyBase64` instead of `body`. `virtualTime` is the world's clock when the answer went out;
/// `arrivedMicroseconds` when the request entered the world, and `connection` the TCP connection
/// it came on (from 1; 0 for none). The first line is a header, `{"pushsimRecord":1,"seed":…,
/// "anchorUnixSeconds":…,"baseURL":…,"scenario":…,"serviceAccountFile":…,"apnsKeyFile":…,"signatures":…}`: with it,
/// `pushsim replay` rebuilds the same
/// world, feeds it the same requests at the same virtual times, and compares every answer.
/// Used only on the world's queue.
final class RequestRecorder {
    private let handle: FileHandle
    let path: String

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw RecorderError(message: "cannot write \(path)")
        }
        self.handle = handle
        self.path = path
    }

    struct RecorderError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Writes the header line: what a replay needs to rebuild the world.
    func header(seed: UInt64, anchorUnixSeconds: Int64, clock: ClockPolicy, baseURL: String, scenario: String?, keyFiles: ClientKeyFiles,
                signatures: SignaturePolicy) {
        let line = JSONValue.object([
            "pushsimRecord": .number(JSONNumber(1)), "seed": .number(JSONNumber(text: String(seed))),
            "anchorUnixSeconds": .number(JSONNumber(anchorUnixSeconds)), "clock": .string(clock.rawValue), "baseURL": .string(baseURL),
            "scenario": scenario.map { .string($0) } ?? .null,
            "serviceAccountFile": keyFiles.serviceAccount.map { .string($0) } ?? .null,
            "apnsKeyFile": keyFiles.apnsKey.map { .string($0) } ?? .null,
            "signatures": .string(signatures.rawValue),
        ]).serialized()
        handle.write(Data((line + "\n").utf8))
    }

    func record(seq: Int, entry: Int, at time: VirtualTime, arrived: VirtualTime, connection: Int, route: String,
                request: WireRequest, response: HTTPResponse, expired: Bool) {
        var members: [(String, JSONValue)] = [
            ("seq", .number(JSONNumber(Int64(seq)))),
            ("entry", .number(JSONNumber(Int64(entry)))),
            ("arrivedMicroseconds", .number(JSONNumber(arrived.microseconds))),
            ("connection", .number(JSONNumber(Int64(connection)))),
            ("virtualTime", .string(time.description)),
            ("virtualMicroseconds", .number(JSONNumber(time.microseconds))),
            ("route", .string(route)),
        ]
        if expired { members.append(("expired", .bool(true))) }
        members += [
            ("request", .object([("method", .string(request.method)), ("target", .string(request.target))]
                                + [("headers", Self.fields(request.headers))] + Self.body(request.body))),
            ("response", .object([("status", .number(JSONNumber(Int64(response.status)))),
                                  ("headers", Self.fields(response.headers.fields))] + Self.body(response.body))),
        ]
        let line = JSONValue.object(members).serialized()
        handle.write(Data((line + "\n").utf8))
    }

    /// Writes what is buffered to disk and closes the file.
    func close() {
        try? handle.synchronize()
        try? handle.close()
    }

    private static func fields(_ fields: [(name: String, value: String)]) -> JSONValue {
        .array(fields.map { .array([.string($0.name), .string($0.value)]) })
    }

    private static func body(_ bytes: [UInt8]) -> [(String, JSONValue)] {
        if let text = String(validating: bytes, as: UTF8.self) { return [("body", .string(text))] }
        return [("bodyBase64", .string(Data(bytes).base64EncodedString()))]
    }
}
